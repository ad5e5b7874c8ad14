import { type DayNumber, monthStart, nextMonthStart } from './days';
import { divideRounded, type Minor } from './money';

/**
 * The charge rules of storage billing (issue 28), pure and shared by the billing run and its tests.
 *
 * Pro-rating per unit and day: a monthly rate R over a period of L days is charged by the day, and the charge of the
 * days [a, b) of the period is C(b) - C(a), where C(k) = R * k / L rounded half away from zero is the charge of the
 * period's first k days. Each line is rounded once, at its two ends, so the lines of any split of a period (a move-in,
 * a move-out, a rate change, the end of an agency's SIT days) add up to exactly R: no cent appears or disappears.
 */

/** A billing period: the days [start, end). */
export interface Period {
  start: DayNumber;
  end: DayNumber;
}

/** How an account's periods are cut: calendar months, or 30 days at a time from the account's move-in. */
export type BillingCycle = 'calendar' | 'thirty-days';

export const ANNIVERSARY_DAYS = 30;

/** The period of `cycle` that holds `day` (`anchor` is the move-in for the 30-day cycle). */
export function periodHolding(cycle: BillingCycle, day: DayNumber, anchor: DayNumber): Period {
  if (cycle === 'calendar') return { start: monthStart(day), end: nextMonthStart(day) };
  const k = Math.floor((day - anchor) / ANNIVERSARY_DAYS);
  const start = anchor + k * ANNIVERSARY_DAYS;
  return { start, end: start + ANNIVERSARY_DAYS };
}

/** The charge of the first `k` days of a period of `length` days at the full-period amount `amount`. */
export function cumulativeCharge(amount: Minor, k: number, length: number): Minor {
  return divideRounded(BigInt(amount) * BigInt(k), length);
}

/** The charge of the days [from, to) of `period` at the full-period amount `amount` (the per-day pro-rating rule). */
export function rangeCharge(amount: Minor, period: Period, from: DayNumber, to: DayNumber): Minor {
  const length = period.end - period.start;
  return (
    cumulativeCharge(amount, to - period.start, length) -
    cumulativeCharge(amount, from - period.start, length)
  );
}

/** A rate that applies from a day on, until the next one of the same plan. */
export interface RateStep {
  from: DayNumber;
  amount: Minor;
}

/** The amount in force on `day`, or null when the plan has none yet. Steps are in `from` order. */
export function rateOn(plan: readonly RateStep[], day: DayNumber): Minor | null {
  let found: Minor | null = null;
  for (const step of plan) {
    if (step.from > day) break;
    found = step.amount;
  }
  return found;
}

/** A unit's stay: stored from `moveIn` (billed) until `moveOut` (the release day, not billed); null = still stored. */
export interface Stay {
  moveIn: DayNumber;
  moveOut: DayNumber | null;
}

/** The days a carrier or agency pays during SIT: [from, to). */
export interface AgencyCover {
  from: DayNumber;
  to: DayNumber;
}

export type Payer = 'customer' | 'agency';

/** One pro-rated piece of a period: days [from, to) at one rate, paid by one payer. */
export interface DayLine {
  from: DayNumber;
  to: DayNumber;
  rate: Minor;
  amount: Minor;
  payer: Payer;
}

/** The days of `period` a stay (or an account's activity) covers, or null when none. */
export function billedRange(period: Period, stay: Stay): { from: DayNumber; to: DayNumber } | null {
  const from = Math.max(period.start, stay.moveIn);
  const to = Math.min(period.end, stay.moveOut ?? period.end);
  return from < to ? { from, to } : null;
}

/** Raised when a day of a stay has no rate in force: nothing is billed at zero by mistake. */
export class MissingRateError extends Error {
  constructor(readonly day: DayNumber) {
    super('No rate is in force on a billed day.');
  }
}

/**
 * The lines of one unit (or of the account's valuation) for one period: the billed days split where a rate changes
 * and where an agency's cover begins or ends, each piece pro-rated by `rangeCharge` at the rate in force on its first
 * day. Days paid by an agency are lines of payer 'agency' (they go on the agency statement, not on the invoice).
 */
export function periodLines(
  period: Period,
  stay: Stay,
  plan: readonly RateStep[],
  agency: AgencyCover | null = null,
): DayLine[] {
  const range = billedRange(period, stay);
  if (!range) return [];
  const cuts = new Set<DayNumber>([range.from, range.to]);
  for (const step of plan) if (step.from > range.from && step.from < range.to) cuts.add(step.from);
  if (agency) {
    for (const day of [agency.from, agency.to]) if (day > range.from && day < range.to) cuts.add(day);
  }
  const points = [...cuts].sort((a, b) => a - b);
  const lines: DayLine[] = [];
  for (let i = 0; i + 1 < points.length; i++) {
    const from = points[i]!;
    const to = points[i + 1]!;
    const rate = rateOn(plan, from);
    if (rate === null) throw new MissingRateError(from);
    const payer: Payer = agency && from >= agency.from && from < agency.to ? 'agency' : 'customer';
    lines.push({ from, to, rate, amount: rangeCharge(rate, period, from, to), payer });
  }
  return lines;
}

/** The monthly valuation charge: `ratePer1000` for every 1,000 (major units) of the declared value, rounded once. */
export function valuationAmount(declaredValue: Minor, ratePer1000: Minor, minorDigits: number): Minor {
  return divideRounded(BigInt(declaredValue) * BigInt(ratePer1000), 1000n * 10n ** BigInt(minorDigits));
}

/** The SIT conversion day: the first day after the days allowed, when the account becomes Permanent. */
export function conversionDay(sitStart: DayNumber, daysAllowed: number): DayNumber {
  return sitStart + daysAllowed;
}
