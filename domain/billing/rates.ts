import type { DayNumber } from './days';
import type { RateStep } from './charges';

/** What a company charges for (issue 28). */
export const UNIT_TYPES = ['vault', 'liftvan', 't2', 'couchbox', 'pallet'] as const;
export type BillingUnitType = (typeof UNIT_TYPES)[number];
export const UNIT_TYPE_LABELS: Record<BillingUnitType, string> = {
  vault: 'Vault',
  liftvan: 'Liftvan',
  t2: 'T2',
  couchbox: 'Couchbox',
  pallet: 'Pallet spot',
};

/** storage: monthly per unit; handling-in/out: once per unit; valuation: monthly per 1,000 of declared value. */
export const RATE_KINDS = ['storage', 'handling-in', 'handling-out', 'valuation'] as const;
export type RateKind = (typeof RATE_KINDS)[number];
export const RATE_KIND_LABELS: Record<RateKind, string> = {
  storage: 'Monthly storage',
  'handling-in': 'Handling in',
  'handling-out': 'Handling out',
  valuation: 'Valuation per 1,000',
};

/** One rate row: the company's, a warehouse's, or an account's negotiated one, in force from `from`. */
export interface RateRow {
  kind: RateKind;
  /** null for valuation */
  unitType: BillingUnitType | null;
  warehouseId: number | null;
  accountId: number | null;
  from: DayNumber;
  amount: number;
}

export interface RateTarget {
  kind: RateKind;
  unitType: BillingUnitType | null;
  warehouseId: number | null;
  accountId: number;
}

/** 0 = the account's own rate, 1 = the warehouse's, 2 = the company's; the lowest tier in force wins. */
function tierOf(row: RateRow, target: RateTarget): number | null {
  if (row.kind !== target.kind || row.unitType !== target.unitType) return null;
  if (row.accountId !== null) return row.accountId === target.accountId ? 0 : null;
  if (row.warehouseId !== null) return row.warehouseId === target.warehouseId ? 1 : null;
  return 2;
}

/**
 * The rate plan of one unit type in one warehouse for one account: on each day the most specific rate in force
 * (account, then warehouse, then company), each tier's latest row from on or before that day. A change takes effect
 * from its day; days before keep the rate they had.
 */
export function resolvePlan(rows: readonly RateRow[], target: RateTarget): RateStep[] {
  const tiers: RateRow[][] = [[], [], []];
  for (const row of rows) {
    const tier = tierOf(row, target);
    if (tier !== null) tiers[tier]!.push(row);
  }
  for (const tier of tiers) tier.sort((a, b) => a.from - b.from);
  const days = [...new Set(tiers.flat().map((r) => r.from))].sort((a, b) => a - b);
  const plan: RateStep[] = [];
  for (const day of days) {
    let amount: number | null = null;
    for (const tier of tiers) {
      const inForce = tier.filter((r) => r.from <= day);
      if (inForce.length > 0) {
        amount = inForce[inForce.length - 1]!.amount;
        break;
      }
    }
    if (amount !== null && plan[plan.length - 1]?.amount !== amount) plan.push({ from: day, amount });
  }
  return plan;
}

/** What makes two rate rows the same rate: its kind, unit type, warehouse and account (its day aside). */
export function rateKey(row: Pick<RateRow, 'kind' | 'unitType' | 'warehouseId' | 'accountId'>): string {
  return [row.kind, row.unitType ?? '', row.warehouseId ?? '', row.accountId ?? ''].join('|');
}

/** The days a company's issued invoices cover, from the first period's start to the last period's end. */
export interface InvoicedDays {
  first: DayNumber;
  last: DayNumber;
}

/**
 * The rates an issued invoice may have used: each row is in force from its day until the next row of the same rate
 * (a later one of the same day replaces it from the start), and a row in force on an invoiced day is kept as it is,
 * so an issued invoice is never contradicted by its rates. The others may still be corrected or removed.
 */
export function invoicedRateIds(
  rows: readonly (RateRow & { id: number })[],
  invoiced: InvoicedDays | null,
): Set<number> {
  const used = new Set<number>();
  if (!invoiced) return used;
  const byKey = new Map<string, (RateRow & { id: number })[]>();
  for (const row of rows) byKey.set(rateKey(row), [...(byKey.get(rateKey(row)) ?? []), row]);
  for (const same of byKey.values()) {
    same.sort((a, b) => a.from - b.from || a.id - b.id);
    same.forEach((row, i) => {
      const until = same[i + 1]?.from ?? Infinity;
      if (row.from <= invoiced.last && until > invoiced.first && until > row.from) used.add(row.id);
    });
  }
  return used;
}
