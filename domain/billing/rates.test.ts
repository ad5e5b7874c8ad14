import { describe, expect, it } from 'vitest';
import { invoicedRateIds, rateKey, type RateRow, resolvePlan } from './rates';

const row = (id: number, from: number, extra: Partial<RateRow> = {}): RateRow & { id: number } => ({
  id,
  kind: 'storage',
  unitType: 'vault',
  warehouseId: null,
  accountId: null,
  from,
  amount: 100 * id,
  ...extra,
});

describe('rates', () => {
  it('names a rate by its kind, unit type, warehouse and account, not its day or amount', () => {
    expect(rateKey(row(1, 10))).toBe(rateKey(row(2, 20)));
    expect(rateKey(row(1, 10))).not.toBe(rateKey(row(1, 10, { warehouseId: 3 })));
    expect(rateKey(row(1, 10, { accountId: 3 }))).not.toBe(rateKey(row(1, 10, { warehouseId: 3 })));
    expect(rateKey(row(1, 10))).not.toBe(rateKey(row(1, 10, { unitType: 't2' })));
  });

  it('keeps the rates in force on invoiced days, and frees those before and after them', () => {
    const rows = [
      row(1, 0), // replaced by 2 before the first invoiced day: never billed
      row(2, 50), // in force on the invoiced days
      row(3, 200), // after the last invoiced day
      row(4, 100, { warehouseId: 7 }), // another rate, in force from inside the invoiced days
      row(5, 150, { unitType: 't2' }), // from the day after the last invoiced one
    ];
    expect([...invoicedRateIds(rows, { first: 60, last: 149 })].sort()).toEqual([2, 4]);
    expect(invoicedRateIds(rows, null).size).toBe(0);
  });

  it('counts only the later of two rows of the same rate and day as billed, as the plan does', () => {
    const rows = [row(1, 10), row(2, 10)];
    expect(
      resolvePlan(rows, { kind: 'storage', unitType: 'vault', warehouseId: null, accountId: 9 }),
    ).toEqual([{ from: 10, amount: 200 }]);
    expect([...invoicedRateIds(rows, { first: 10, last: 40 })]).toEqual([2]);
  });
});
