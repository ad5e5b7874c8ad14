import {
  type AgencyCover,
  type DayLine,
  MissingRateError,
  type Payer,
  type Period,
  periodLines,
  rateOn,
  type Stay,
  valuationAmount,
} from './charges';
import { type DayNumber, isoOf } from './days';
import { type Minor, taxOf } from './money';
import { type BillingUnitType, type RateKind, type RateRow, resolvePlan, UNIT_TYPE_LABELS } from './rates';

/** A stored unit as billing sees it; move-in and move-out come from its history. */
export interface BilledUnit {
  /** the vault's id, or the pallet's (`kind` 'pallet'): the two are numbered apart */
  id: number;
  kind?: 'vault' | 'pallet';
  /** the vault or pallet number */
  label: string;
  unitType: BillingUnitType;
  warehouseId: number | null;
  moveIn: DayNumber;
  moveOut: DayNumber | null;
}

export interface AccountForBilling {
  id: number;
  declaredValue: Minor;
  /** the days an agency pays (a SIT account paid by a carrier or agency), or null */
  agency: AgencyCover | null;
  units: readonly BilledUnit[];
}

export interface BillingTerms {
  rates: readonly RateRow[];
  taxBasisPoints: number;
  minorDigits: number;
  /** how a line's description writes a day (the company's way, `dayWriter`); YYYY-MM-DD when not given */
  writeDay?: (day: DayNumber) => string;
}

export type LineKind = RateKind;

/** One line of an invoice (or of the agency statement), rounded once: amount and its tax. */
export interface BillLine {
  kind: LineKind;
  unitId: number | null;
  /** what `unitId` names (null for an account's valuation line) */
  unitKind: 'vault' | 'pallet' | null;
  description: string;
  from: DayNumber;
  to: DayNumber;
  /** the monthly or one-time rate the line was computed at */
  rate: Minor;
  amount: Minor;
  tax: Minor;
  payer: Payer;
}

export interface AccountBill {
  period: Period;
  /** what the customer is invoiced */
  lines: BillLine[];
  /** days paid by the agency, for its statement */
  agencyLines: BillLine[];
  subtotal: Minor;
  tax: Minor;
  total: Minor;
  /** why the account cannot be billed (a unit without a rate); an account with problems is not issued */
  problems: string[];
}

/** The rate rows of one kind and unit type, company-wide and per warehouse apart from each account's own. */
interface RateIndex {
  general: Map<string, RateRow[]>;
  byAccount: Map<string, RateRow[]>;
}
const indexes = new WeakMap<readonly RateRow[], RateIndex>();

function indexOf(rates: readonly RateRow[]): RateIndex {
  let index = indexes.get(rates);
  if (!index) {
    index = { general: new Map(), byAccount: new Map() };
    for (const row of rates) {
      const key = `${row.kind}|${row.unitType ?? ''}`;
      const map = row.accountId === null ? index.general : index.byAccount;
      const full = row.accountId === null ? key : `${key}|${row.accountId}`;
      map.set(full, [...(map.get(full) ?? []), row]);
    }
    indexes.set(rates, index);
  }
  return index;
}

/** `resolvePlan` over only the rows that can apply, so a company's many negotiated rates cost each unit nothing. */
function planOf(rates: readonly RateRow[], target: Parameters<typeof resolvePlan>[1]) {
  const index = indexOf(rates);
  const key = `${target.kind}|${target.unitType ?? ''}`;
  const rows = [
    ...(index.general.get(key) ?? []),
    ...(index.byAccount.get(`${key}|${target.accountId}`) ?? []),
  ];
  return resolvePlan(rows, target);
}

/** Days [from, to). */
export interface DayRange {
  from: DayNumber;
  to: DayNumber;
}

/**
 * What earlier invoices of an account billed already: each unit's storage days and whether its handling-in and
 * handling-out fees were charged (keyed by `unitKeyOf`), and the days its valuation was charged. A bill leaves these
 * out, so a day is never billed twice, whichever invoice billed it first.
 */
export interface BilledBefore {
  units: ReadonlyMap<string, { days: readonly DayRange[]; handlingIn: boolean; handlingOut: boolean }>;
  valuation: readonly DayRange[];
}

export const NOTHING_BILLED: BilledBefore = { units: new Map(), valuation: [] };

/** A unit's key in `BilledBefore`: vaults and pallets are numbered apart. */
export const unitKeyOf = (kind: 'vault' | 'pallet', id: number) => `${kind}:${id}`;

/** An issued line as `billedFrom` reads it: its kind, whose unit (none for valuation) and its days [from, to). */
export interface IssuedLine {
  kind: string;
  unitKind: 'vault' | 'pallet' | null;
  unitId: number | null;
  from: DayNumber;
  to: DayNumber;
}

/** What issued lines billed, for a bill to leave out. */
export function billedFrom(lines: readonly IssuedLine[]): BilledBefore {
  const units = new Map<string, { days: DayRange[]; handlingIn: boolean; handlingOut: boolean }>();
  const valuation: DayRange[] = [];
  for (const line of lines) {
    const days = { from: line.from, to: line.to };
    if (line.kind === 'valuation') valuation.push(days);
    if (line.unitId === null) continue;
    const key = unitKeyOf(line.unitKind ?? 'vault', line.unitId);
    const unit = units.get(key) ?? { days: [], handlingIn: false, handlingOut: false };
    units.set(key, unit);
    if (line.kind === 'storage') unit.days.push(days);
    if (line.kind === 'handling-in') unit.handlingIn = true;
    if (line.kind === 'handling-out') unit.handlingOut = true;
  }
  return { units, valuation };
}

/** The parts of a stay no billed range holds, in day order (a still-stored stay's last part stays open). */
export function unbilledStays(stay: Stay, billed: readonly DayRange[]): Stay[] {
  const end = stay.moveOut ?? Number.POSITIVE_INFINITY;
  const parts: Stay[] = [];
  let from = stay.moveIn;
  for (const range of [...billed].sort((a, b) => a.from - b.from)) {
    if (range.to <= from) continue;
    if (range.from >= end) break;
    if (range.from > from) parts.push({ moveIn: from, moveOut: range.from });
    from = Math.max(from, range.to);
  }
  if (from < end) parts.push({ moveIn: from, moveOut: stay.moveOut === null ? null : end });
  return parts;
}

/**
 * One invoice of an account's bill for its period and `late`, the days of the period before that no invoice billed
 * (a unit that came, or a fee that fell, after that period's invoice was issued): the late lines come first.
 */
export function withLateLines(bill: AccountBill, late: AccountBill): AccountBill {
  return {
    period: bill.period,
    lines: [...late.lines, ...bill.lines],
    agencyLines: [...late.agencyLines, ...bill.agencyLines],
    subtotal: late.subtotal + bill.subtotal,
    tax: late.tax + bill.tax,
    total: late.total + bill.total,
    problems: [...late.problems, ...bill.problems],
  };
}

const spanOf = (write: (day: DayNumber) => string) => (from: DayNumber, to: DayNumber) =>
  to - from === 1 ? write(from) : `${write(from)} to ${write(to - 1)}`;

function unitName(unit: BilledUnit): string {
  return `${UNIT_TYPE_LABELS[unit.unitType]} ${unit.label}`;
}

/**
 * The bill of one account for one period: every unit's storage days pro-rated at the rate in force (account, then
 * warehouse, then company rates), its handling-in and handling-out fees on the days it came and left, and the
 * account's valuation over the days it held anything. Each line is rounded once and taxed once. What `before` says
 * was billed already is left out.
 */
export function billAccount(
  account: AccountForBilling,
  period: Period,
  terms: BillingTerms,
  before: BilledBefore = NOTHING_BILLED,
): AccountBill {
  const lines: BillLine[] = [];
  const problems: string[] = [];
  const writeDay = terms.writeDay ?? isoOf;
  const span = spanOf(writeDay);
  const push = (kind: LineKind, unit: BilledUnit | null, description: string, piece: DayLine) => {
    lines.push({
      kind,
      unitId: unit?.id ?? null,
      unitKind: unit ? (unit.kind ?? 'vault') : null,
      description,
      from: piece.from,
      to: piece.to,
      rate: piece.rate,
      amount: piece.amount,
      tax: taxOf(piece.amount, terms.taxBasisPoints),
      payer: piece.payer,
    });
  };
  const payerOn = (day: DayNumber): Payer =>
    account.agency && day >= account.agency.from && day < account.agency.to ? 'agency' : 'customer';

  for (const unit of account.units) {
    const target = { unitType: unit.unitType, warehouseId: unit.warehouseId, accountId: account.id };
    const storage = planOf(terms.rates, { kind: 'storage', ...target });
    const billed = before.units.get(unitKeyOf(unit.kind ?? 'vault', unit.id));
    try {
      for (const stay of unbilledStays(unit, billed?.days ?? []))
        for (const piece of periodLines(period, stay, storage, account.agency)) {
          const days = piece.to - piece.from;
          push(
            'storage',
            unit,
            `${unitName(unit)}: storage ${span(piece.from, piece.to)} (${days} days)`,
            piece,
          );
        }
    } catch (error) {
      if (!(error instanceof MissingRateError)) throw error;
      problems.push(`${unitName(unit)} has no storage rate on ${writeDay(error.day)}.`);
    }
    const events: [RateKind, DayNumber | null, string][] = [
      ['handling-in', billed?.handlingIn ? null : unit.moveIn, 'handling in'],
      ['handling-out', billed?.handlingOut ? null : unit.moveOut, 'handling out'],
    ];
    for (const [kind, day, words] of events) {
      if (day === null || day < period.start || day >= period.end) continue;
      const fee = rateOn(planOf(terms.rates, { kind, ...target }), day);
      if (!fee) continue;
      push(kind, unit, `${unitName(unit)}: ${words} ${writeDay(day)}`, {
        from: day,
        to: day + 1,
        rate: fee,
        amount: fee,
        payer: payerOn(day),
      });
    }
  }

  if (account.declaredValue > 0 && account.units.length > 0) {
    const moveIn = Math.min(...account.units.map((u) => u.moveIn));
    const outs = account.units.map((u) => u.moveOut);
    const moveOut = outs.some((d) => d === null) ? null : Math.max(...(outs as number[]));
    const plan = planOf(terms.rates, {
      kind: 'valuation',
      unitType: null,
      warehouseId: null,
      accountId: account.id,
    }).map((step) => ({
      from: step.from,
      amount: valuationAmount(account.declaredValue, step.amount, terms.minorDigits),
    }));
    const firstRated = plan[0]?.from;
    if (firstRated !== undefined) {
      const stay = { moveIn: Math.max(moveIn, firstRated), moveOut };
      for (const part of unbilledStays(stay, before.valuation))
        for (const piece of periodLines(period, part, plan, account.agency)) {
          push('valuation', null, `Valuation ${span(piece.from, piece.to)}`, piece);
        }
    }
  }

  const customer = lines.filter((l) => l.payer === 'customer');
  const subtotal = customer.reduce((s, l) => s + l.amount, 0);
  const tax = customer.reduce((s, l) => s + l.tax, 0);
  return {
    period,
    lines: customer,
    agencyLines: lines.filter((l) => l.payer === 'agency'),
    subtotal,
    tax,
    total: subtotal + tax,
    problems,
  };
}
