import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { agingBucket, allocateOldestFirst, balanceOf, type LedgerEntry, settledStatus } from './ledger';
import { decimalToMinor, divideRounded, formatMoney, minorToDecimal, taxOf } from './money';

describe('money', () => {
  it('rounds half away from zero, on both sides of zero', () => {
    expect(divideRounded(5, 2)).toBe(3);
    expect(divideRounded(-5, 2)).toBe(-3);
    expect(divideRounded(7, 3)).toBe(2);
    expect(divideRounded(-7, 3)).toBe(-2);
    expect(taxOf(1250, 825)).toBe(103); // 103.125 -> 103
    expect(taxOf(200, 825)).toBe(17); // 16.5 -> 17
    expect(taxOf(-200, 825)).toBe(-17);
  });

  it('is exact for any integer division, checked against the definition', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }),
        fc.bigInt({ min: 1n, max: 10n ** 6n }),
        (n, d) => {
          const q = BigInt(divideRounded(n, d));
          // |n/d - q| <= 1/2, and a tie goes away from zero
          const twice = 2n * (n - q * d);
          expect(twice <= d && twice >= -d).toBe(true);
          if (twice === d) expect(n < 0n).toBe(true);
          if (twice === -d) expect(n > 0n).toBe(true);
        },
      ),
    );
  });

  it('writes and reads amounts exactly in the currency', () => {
    expect(formatMoney(123456, 'USD', 'en-US')).toBe('$1,234.56');
    expect(formatMoney(1234, 'JPY', 'en-US')).toBe('¥1,234');
    expect(minorToDecimal(-5, 'USD')).toBe('-0.05');
    expect(minorToDecimal(123456, 'USD')).toBe('1234.56');
    expect(decimalToMinor('1,234.5', 'USD')).toBe(123450);
    expect(decimalToMinor('1.234', 'USD')).toBeNull();
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), (amount) => {
        expect(decimalToMinor(minorToDecimal(amount, 'USD'), 'USD')).toBe(amount);
      }),
    );
  });
});

describe('ledger', () => {
  const entryArb = fc.record({
    kind: fc.constantFrom<LedgerEntry['kind']>('invoice', 'credit', 'payment'),
    amount: fc.integer({ min: 0, max: 10_000_000 }),
  });

  it('a credit note for an invoice brings the balance back exactly to what it was before the invoice', () => {
    fc.assert(
      fc.property(
        fc.array(entryArb),
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.array(entryArb),
        (before, total, after) => {
          const start = balanceOf(before);
          const withInvoice = [...before, { kind: 'invoice' as const, amount: total }];
          expect(balanceOf(withInvoice)).toBe(start + total);
          const credited = [...withInvoice, ...after, { kind: 'credit' as const, amount: -total }];
          expect(balanceOf(credited)).toBe(start + balanceOf(after));
        },
      ),
    );
  });

  it('allocates a payment oldest first and never beyond what is open', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 100_000 }), { maxLength: 8 }),
        fc.integer({ min: 0, max: 500_000 }),
        (opens, payment) => {
          const open = opens.map((o, i) => ({ id: i + 1, open: o }));
          const parts = allocateOldestFirst(payment, open);
          const sum = parts.reduce((s, p) => s + p.amount, 0);
          expect(sum).toBe(
            Math.min(
              payment,
              opens.reduce((s, o) => s + o, 0),
            ),
          );
          for (const p of parts) expect(p.amount).toBeLessThanOrEqual(open[p.id - 1]!.open);
        },
      ),
    );
  });

  it('states and aging buckets', () => {
    expect(settledStatus(1000, 0, 0)).toBe('issued');
    expect(settledStatus(1000, 400, 0)).toBe('partly-paid');
    expect(settledStatus(1000, 400, 600)).toBe('paid');
    expect([0, 1, 30, 31, 60, 61, 90, 91].map(agingBucket)).toEqual([
      'current',
      '1-30',
      '1-30',
      '31-60',
      '31-60',
      '61-90',
      '61-90',
      'over-90',
    ]);
  });
});
