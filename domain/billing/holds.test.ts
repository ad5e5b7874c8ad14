import { describe, expect, it } from 'vitest';
import { daysOverdue, daysOverdueByAccount, mayHold, notOverdueEnough } from './holds';

describe('holds', () => {
  it('counts the days of the oldest unpaid invoice past its due date', () => {
    const invoices = [
      { dueDay: 100, open: 500 },
      { dueDay: 80, open: 0 },
      { dueDay: 90, open: 1 },
    ];
    expect(daysOverdue(invoices, 150)).toBe(60);
    expect(daysOverdue(invoices, 95)).toBe(5);
    expect(daysOverdue(invoices, 90)).toBe(0);
    expect(daysOverdue([], 150)).toBe(0);
    expect(daysOverdue([{ dueDay: 10, open: 0 }], 150)).toBe(0);
  });

  it('counts each account by its own oldest unpaid invoice', () => {
    const byAccount = daysOverdueByAccount(
      [
        { accountId: 1, dueDay: 100, open: 500 },
        { accountId: 2, dueDay: 140, open: 200 },
        { accountId: 1, dueDay: 70, open: 300 },
        { accountId: 3, dueDay: 160, open: 100 },
      ],
      150,
    );
    expect([...byAccount].sort(([a], [b]) => a - b)).toEqual([
      [1, 80],
      [2, 10],
      [3, 0],
    ]);
  });

  it('allows a hold from the set number of days overdue, and never on an account with nothing past due', () => {
    expect(mayHold(59, 60)).toBe(false);
    expect(mayHold(60, 60)).toBe(true);
    expect(mayHold(0, 0)).toBe(false);
    expect(mayHold(1, 1)).toBe(true);
  });

  it('says why a hold is refused', () => {
    expect(notOverdueEnough(0, 60)).toContain('nothing on this account is past due');
    expect(notOverdueEnough(1, 60)).toContain('1 day past due');
    expect(notOverdueEnough(45, 60)).toContain('45 days past due, and holds start at 60 days overdue');
  });
});
