import { rateOn } from './charges';
import type { DayNumber } from './days';
import type { Minor } from './money';
import { type BillingUnitType, type RateRow, resolvePlan } from './rates';

/** A unit stored today, as the recurring revenue sees it. */
export interface StoredUnit {
  accountId: number;
  unitType: BillingUnitType;
  /** null while the unit waits on the stage (outside any field) */
  warehouseId: number | null;
}

export interface WarehouseRevenue {
  warehouseId: number | null;
  units: number;
  /** the monthly storage charge of the units, at the rates in force on the day */
  monthly: Minor;
  /** units without a storage rate on the day (left out of `monthly`) */
  unrated: number;
}

/**
 * Monthly recurring storage revenue per warehouse (issue 28): for each unit stored on `day`, the monthly storage rate in
 * force for it that day (its account's, its warehouse's or the company's, the most specific winning), summed per
 * warehouse. Rates are whole minor units, so the sum is exact.
 */
export function recurringRevenue(
  units: readonly StoredUnit[],
  rates: readonly RateRow[],
  day: DayNumber,
): WarehouseRevenue[] {
  const storage = rates.filter((r) => r.kind === 'storage');
  const byWarehouse = new Map<number | null, WarehouseRevenue>();
  const planCache = new Map<string, Minor | null>();
  for (const unit of units) {
    const key = `${unit.accountId}:${unit.unitType}:${unit.warehouseId}`;
    let rate = planCache.get(key);
    if (rate === undefined) {
      const plan = resolvePlan(storage, {
        kind: 'storage',
        unitType: unit.unitType,
        warehouseId: unit.warehouseId,
        accountId: unit.accountId,
      });
      rate = rateOn(plan, day);
      planCache.set(key, rate);
    }
    const row = byWarehouse.get(unit.warehouseId) ?? {
      warehouseId: unit.warehouseId,
      units: 0,
      monthly: 0,
      unrated: 0,
    };
    row.units++;
    if (rate === null) row.unrated++;
    else row.monthly += rate;
    byWarehouse.set(unit.warehouseId, row);
  }
  return [...byWarehouse.values()];
}
