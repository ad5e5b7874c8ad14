import { describe, expect, it } from 'vitest';
import { formatDate, formatMonth } from '@/lib/format';
import { periodText, sitEnds } from './billing-days';

const format = { month: (m: string) => formatMonth(m, 'en-US'), date: (d: string) => formatDate(d, 'en-US') };

describe('a billing period in words', () => {
  it('names a whole calendar month, and writes any other period from its first to its last day', () => {
    expect(periodText('2026-11-01', '2026-11-30', format)).toBe('November 2026');
    expect(periodText('2028-02-01', '2028-02-29', format)).toBe('February 2028');
    expect(periodText('2026-02-01', '2026-02-27', format)).toBe('Feb 1, 2026 to Feb 27, 2026');
    // a 30-day period
    expect(periodText('2026-10-12', '2026-11-10', format)).toBe('Oct 12, 2026 to Nov 10, 2026');
    expect(periodText('2026-11-01', '2026-12-31', format)).toBe('Nov 1, 2026 to Dec 31, 2026');
    expect(periodText(null, null, format)).toBe('-');
  });
});

describe("a SIT account's last day", () => {
  it('is the day before the conversion, the first day of permanent storage', () => {
    expect(sitEnds('2027-01-30')).toBe('2027-01-29');
    expect(sitEnds('2026-03-01')).toBe('2026-02-28');
    expect(sitEnds(null)).toBeNull();
  });
});
