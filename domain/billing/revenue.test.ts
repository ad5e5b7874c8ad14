import { describe, expect, it } from 'vitest';
import type { RateRow } from './rates';
import { recurringRevenue } from './revenue';

const rate = (r: Partial<RateRow> & Pick<RateRow, 'amount' | 'from'>): RateRow => ({
  kind: 'storage',
  unitType: 'vault',
  warehouseId: null,
  accountId: null,
  ...r,
});

describe('monthly recurring storage revenue', () => {
  const rates = [
    rate({ amount: 10_000, from: 0 }),
    rate({ amount: 12_000, from: 200 }),
    rate({ amount: 15_000, from: 0, warehouseId: 2 }),
    rate({ amount: 9_000, from: 0, accountId: 7 }),
    rate({ amount: 4_000, from: 0, unitType: 'couchbox', kind: 'handling-in' }),
  ];

  it('sums the rate in force for each stored unit per warehouse, the most specific rate winning', () => {
    const units = [
      { accountId: 1, unitType: 'vault' as const, warehouseId: 1 },
      { accountId: 1, unitType: 'vault' as const, warehouseId: 1 },
      { accountId: 1, unitType: 'vault' as const, warehouseId: 2 },
      { accountId: 7, unitType: 'vault' as const, warehouseId: 2 },
      { accountId: 1, unitType: 'vault' as const, warehouseId: null },
    ];
    const byWarehouse = (day: number) =>
      Object.fromEntries(recurringRevenue(units, rates, day).map((r) => [String(r.warehouseId), r]));
    expect(byWarehouse(100)).toEqual({
      '1': { warehouseId: 1, units: 2, monthly: 20_000, unrated: 0 },
      '2': { warehouseId: 2, units: 2, monthly: 24_000, unrated: 0 },
      null: { warehouseId: null, units: 1, monthly: 10_000, unrated: 0 },
    });
    // the company's change from day 200 reaches the units without a more specific rate
    expect(byWarehouse(200)['1']!.monthly).toBe(24_000);
    expect(byWarehouse(200)['2']!.monthly).toBe(24_000);
  });

  it('counts a unit without a storage rate as unrated, not as zero revenue hidden in the sum', () => {
    const [row] = recurringRevenue([{ accountId: 1, unitType: 'couchbox', warehouseId: 3 }], rates, 100);
    expect(row).toEqual({ warehouseId: 3, units: 1, monthly: 0, unrated: 1 });
    expect(recurringRevenue([], rates, 100)).toEqual([]);
  });
});
