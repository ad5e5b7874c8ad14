import { recordEvents } from '../../events/event-log.repo';
import {
  type AccountBill,
  type BilledUnit,
  billAccount,
  type BilledBefore,
  billedFrom,
  type BillLine,
  withLateLines,
} from '@domain/billing/account-bill';
import {
  ANNIVERSARY_DAYS,
  type BillingCycle,
  conversionDay,
  type Period,
  periodHolding,
} from '@domain/billing/charges';
import { dayOf, dayWriter, isoOf, monthStart } from '@domain/billing/days';
import { minorDigits } from '@domain/billing/money';
import { type BillingUnitType, type RateKind, type RateRow, UNIT_TYPES } from '@domain/billing/rates';
import type { BillingRunDto, DraftInvoiceDto, DraftLineDto } from '@domain/schemas/billing.schema';
import type { Actor } from '../../auth/actor';
import { actorName } from '../../auth/users.repo';
import { type Db, nowIso } from '../../db/database';
import type { Trx } from '../../db/locks';
import { badRequest } from '../../http/errors';
import { type MailSettings, mailSettingsOf } from '../../mail/mail-settings';
import { findCompanyForMail } from '../accounts/account-mails.repo';
import { findAccounts, findAccountUnits } from '../accounts/accounts.repo';
import { convertDueSitAccounts, today } from '../accounts/accounts.service';
import {
  findBillingSettings,
  lockInvoiceCounter,
  setNextInvoiceNumber,
} from '../accounts/billing-settings.repo';
import {
  type BilledLineRow,
  findBilledLines,
  findIssuedKeys,
  findRates,
  insertInvoices,
  insertLines,
  type NewInvoice,
  type NewLine,
} from './billing.repo';
import { mailIssuedInvoices } from './invoice-mails';

// Issue 28: the billing run. A dry run computes every invoice of a month and shows its lines; the run issues the
// same invoices in one transaction that holds the company's invoice counter, so two runs at once (one server or
// two) issue each account's period once and number the invoices without a gap.

interface Draft {
  accountId: number;
  customerName: string;
  billToName: string;
  key: string;
  bill: AccountBill;
}

/** The month 'YYYY-MM' as days [start, end). */
export function monthPeriod(month: string): Period {
  const start = dayOf(`${month}-01`);
  return periodHolding('calendar', start, start);
}

const unitType = (type: string): BillingUnitType =>
  (UNIT_TYPES as readonly string[]).includes(type) ? (type as BillingUnitType) : 'vault';

/**
 * How far around a run's month the run reads what was billed: the period before its first one, and the periods after
 * it whose late lines reach back into it (31 days at most each way).
 */
const LOOK_DAYS = 31;

/** The period just before `period` in the account's cycle. */
function periodBefore(cycle: BillingCycle, period: Period): Period {
  if (cycle === 'calendar') return { start: monthStart(period.start - 1), end: period.start };
  return { start: period.start - ANNIVERSARY_DAYS, end: period.start };
}

/**
 * What an account's invoices billed already, leaving out the invoice of the period `except` starts (a period already
 * issued is shown as it would be billed whole; it is not issued again).
 */
const billedBefore = (rows: readonly BilledLineRow[], except: string): BilledBefore =>
  billedFrom(
    rows
      .filter((row) => row.period_start !== except)
      .map((row) => ({
        kind: row.kind,
        unitKind: row.pallet_id !== null ? 'pallet' : row.unit_id !== null ? 'vault' : null,
        unitId: row.pallet_id ?? row.unit_id,
        from: dayOf(row.from_day),
        to: dayOf(row.to_day) + 1,
      })),
  );

/** What a run reads before it bills: the month, the accounts with their units, the rates and the settings. */
async function loadRun(db: Db, companyId: number, month: string, asOf: string) {
  const run = monthPeriod(month);
  if (run.start > dayOf(asOf))
    throw badRequest('A month can be billed once it has begun: choose this month or an earlier one.');
  await convertDueSitAccounts(db, companyId);
  const [settings, accounts, units, rateRows, company] = await Promise.all([
    findBillingSettings(db, companyId),
    findAccounts(db, companyId),
    findAccountUnits(db, companyId),
    findRates(db, companyId),
    findCompanyForMail(db, companyId),
  ]);
  const unitsOf = new Map<number, BilledUnit[]>();
  for (const u of units) {
    const list = unitsOf.get(u.account_id) ?? [];
    list.push({
      id: u.id,
      kind: u.unit,
      label: u.name ?? `#${u.id}`,
      unitType: unitType(u.type),
      warehouseId: u.warehouse_id,
      moveIn: dayOf(u.created_at),
      moveOut: u.released_at ? dayOf(u.released_at) : null,
    });
    unitsOf.set(u.account_id, list);
  }
  const terms = {
    rates: rateRows.map(toRateRow),
    taxBasisPoints: settings.tax_basis_points,
    minorDigits: minorDigits(settings.currency),
    // a line's days as the company writes them: the invoice, its PDF and the dry run read them so
    writeDay: dayWriter(company.locale),
  };
  return { run, settings, accounts, unitsOf, terms };
}
type RunData = Awaited<ReturnType<typeof loadRun>>;

/**
 * The lines billed already that a run of `run` must leave out: those of the invoices of its month, of the month
 * before, and of the month after, whose late lines may have billed days of this month (a month run again after the
 * next one was billed does not bill them twice).
 */
const billedLinesFor = (db: Db | Trx, companyId: number, run: Period) =>
  findBilledLines(db, companyId, isoOf(run.start - LOOK_DAYS), isoOf(run.end + LOOK_DAYS));

/**
 * Every account's bill for the periods that start in the run's month (a calendar month, or the 30-day periods
 * beginning in it), leaving out what its invoices billed already. An account invoiced for the period before, or any
 * account once the company billed the month before in the app, also gets that period's days no invoice billed: a
 * unit that came, a fee that fell, or an account opened after that month's run is billed late rather than never
 * (decision 054).
 */
function draftsOf(data: RunData, billedRows: readonly BilledLineRow[]): Draft[] {
  const { run, settings, accounts, unitsOf, terms } = data;
  const billedOf = new Map<number, BilledLineRow[]>();
  for (const row of billedRows) billedOf.set(row.account_id, [...(billedOf.get(row.account_id) ?? []), row]);
  // the company billed the month before in the app: an account its run did not invoice (opened after it, or left out
  // for a missing rate) gets its days of that period late, as an invoiced one does
  const monthBefore = monthStart(run.start - 1);
  const billedMonthBefore = billedRows.some(
    (row) =>
      row.period_start !== null &&
      dayOf(row.period_start) >= monthBefore &&
      dayOf(row.period_start) < run.start,
  );
  const drafts: Draft[] = [];
  for (const account of accounts) {
    const accountUnits = unitsOf.get(account.id) ?? [];
    if (accountUnits.length === 0) continue;
    const moveIn = Math.min(...accountUnits.map((u) => u.moveIn));
    const cycle: BillingCycle = account.billing_cycle === 'thirty-days' ? 'thirty-days' : 'calendar';
    const periods: Period[] = [];
    if (cycle === 'calendar') periods.push(run);
    else {
      let p = periodHolding(cycle, Math.max(run.start, moveIn), moveIn);
      if (p.start < run.start) p = { start: p.end, end: p.end + (p.end - p.start) };
      for (; p.start < run.end; p = { start: p.end, end: p.end + (p.end - p.start) }) periods.push(p);
    }
    const sitStart = account.sit_start ? dayOf(account.sit_start) : null;
    const agency =
      account.sit_payer === 'agency' && sitStart !== null
        ? {
            from: sitStart,
            to: account.converted_on
              ? dayOf(account.converted_on)
              : conversionDay(sitStart, account.sit_days_allowed ?? settings.sit_days_default),
          }
        : null;
    const forBilling = { id: account.id, declaredValue: account.declared_value, agency, units: accountUnits };
    const billed = billedOf.get(account.id) ?? [];
    for (const [i, period] of periods.entries()) {
      const before = billedBefore(billed, isoOf(period.start));
      let bill = billAccount(forBilling, period, terms, before);
      const previous = periodBefore(cycle, period);
      if (i === 0 && (billedMonthBefore || billed.some((row) => row.period_start === isoOf(previous.start))))
        bill = withLateLines(bill, billAccount(forBilling, previous, terms, before));
      if (bill.lines.length === 0 && bill.agencyLines.length === 0 && bill.problems.length === 0) continue;
      drafts.push({
        accountId: account.id,
        customerName: account.customer_name,
        billToName: account.bill_to_name,
        key: `${account.id}:${isoOf(period.start)}`,
        bill,
      });
    }
  }
  return drafts;
}

/** Every account's bill for the periods that start in `month`; see `draftsOf`. */
export async function draftRun(db: Db, companyId: number, month: string, asOf = today()) {
  const data = await loadRun(db, companyId, month, asOf);
  // read after the settings: an invoice issued since moved the counter the run compares under its lock
  const billedRows = await billedLinesFor(db, companyId, data.run);
  return {
    data,
    drafts: draftsOf(data, billedRows),
    currency: data.settings.currency,
    counter: Number(data.settings.next_invoice_number),
  };
}

const lineDto = (l: BillLine): DraftLineDto => ({
  kind: l.kind,
  description: l.description,
  from: isoOf(l.from),
  to: isoOf(l.to - 1),
  rate: l.rate,
  amount: l.amount,
  tax: l.tax,
});

function draftDto(d: Draft, issued: Set<string>): DraftInvoiceDto {
  return {
    account_id: d.accountId,
    customer_name: d.customerName,
    bill_to_name: d.billToName,
    period_start: isoOf(d.bill.period.start),
    period_end: isoOf(d.bill.period.end - 1),
    lines: d.bill.lines.map(lineDto),
    agency_lines: d.bill.agencyLines.map(lineDto),
    subtotal: d.bill.subtotal,
    tax: d.bill.tax,
    total: d.bill.total,
    problems: d.bill.problems,
    already_issued: issued.has(d.key),
  };
}

/** POST /api/billing/runs/dry-run: every invoice the run would issue, line by line; nothing is written. */
export async function dryRun(db: Db, companyId: number, month: string): Promise<BillingRunDto> {
  const { drafts, currency } = await draftRun(db, companyId, month);
  const run = monthPeriod(month);
  const issued = await findIssuedKeys(db, companyId, isoOf(run.start), isoOf(run.end));
  const invoices = drafts.map((d) => draftDto(d, issued));
  return {
    period: month,
    currency,
    dry_run: true,
    invoices,
    issued: [],
    total: invoices
      .filter((i) => !i.already_issued && i.problems.length === 0)
      .reduce((s, i) => s + i.total, 0),
  };
}

/**
 * POST /api/billing/runs: issues the month's invoices that are not issued yet. The counter row is locked first, then
 * the issued keys are read again, so a second run waits for the first and then finds its invoices there. With mail
 * on, each issued invoice's mail to its customer is queued in the same transaction (decision 042).
 */
export async function issueRun(
  db: Db,
  actor: Actor,
  month: string,
  options: { asOf?: string; billingDay?: boolean; mail?: MailSettings } = {},
): Promise<BillingRunDto> {
  const asOf = options.asOf ?? today();
  const mail = options.mail ?? mailSettingsOf(db);
  const all = await draftRun(db, actor.companyId, month, asOf);
  const currency = all.currency;
  // the billing day's run (decision 051): the periods that have begun by that day, not those billed in advance
  const chosen = (list: Draft[]) =>
    options.billingDay ? list.filter((d) => d.bill.period.start <= dayOf(asOf)) : list;
  let drafts = chosen(all.drafts);
  const run = monthPeriod(month);
  const issuedNow: BillingRunDto['issued'] = [];
  const issuedKeys = await db.transaction().execute(async (trx) => {
    const first = await lockInvoiceCounter(trx, actor.companyId);
    // invoices issued since the drafts were made (another run, of this month or the one before) may have billed some
    // of their days: the drafts are made again from what is billed now, under the lock
    if (first !== all.counter)
      drafts = chosen(draftsOf(all.data, await billedLinesFor(trx, actor.companyId, run)));
    const issued = await findIssuedKeys(trx, actor.companyId, isoOf(run.start), isoOf(run.end));
    const settings = await findBillingSettings(trx, actor.companyId);
    const who = await actorName(trx, actor.userId);
    const now = nowIso();
    const issueDate = asOf;
    const dueDate = isoOf(dayOf(issueDate) + settings.payment_terms_days);
    const toIssue = drafts.filter((d) => !issued.has(d.key) && d.bill.problems.length === 0);
    const rows: NewInvoice[] = toIssue.map((d, i) => ({
      company_id: actor.companyId,
      account_id: d.accountId,
      kind: 'invoice',
      number: first + i,
      status: d.bill.total > 0 ? 'issued' : 'paid',
      period_start: isoOf(d.bill.period.start),
      period_end: isoOf(d.bill.period.end - 1),
      billing_key: d.key,
      issue_date: issueDate,
      due_date: dueDate,
      currency: settings.currency,
      subtotal: d.bill.subtotal,
      tax: d.bill.tax,
      total: d.bill.total,
      credit_of: null,
      reason: null,
      created_by: who,
      created_at: now,
    }));
    const ids = await insertInvoices(trx, actor.companyId, rows);
    const lines: NewLine[] = [];
    toIssue.forEach((d, i) => {
      const invoiceId = ids.get(first + i)!;
      [...d.bill.lines, ...d.bill.agencyLines].forEach((l, position) =>
        lines.push({
          company_id: actor.companyId,
          invoice_id: invoiceId,
          position,
          kind: l.kind,
          payer: l.payer,
          unit_id: l.unitKind === 'vault' ? l.unitId : null,
          pallet_id: l.unitKind === 'pallet' ? l.unitId : null,
          description: l.description,
          from_day: isoOf(l.from),
          to_day: isoOf(l.to - 1),
          rate: l.rate,
          amount: l.amount,
          tax: l.tax,
        }),
      );
      issuedNow.push({ id: invoiceId, number: first + i, account_id: d.accountId, total: d.bill.total });
    });
    await insertLines(trx, lines);
    if (rows.length > 0) await setNextInvoiceNumber(trx, actor.companyId, first + rows.length);
    // the history and the webhooks hear of each invoice; amounts stay out (Floor and Viewer read the history)
    await recordEvents(
      trx,
      toIssue.map((d, i) => ({
        companyId: actor.companyId,
        userId: actor.userId,
        kind: 'invoice.issued',
        entityType: 'invoice',
        entityId: ids.get(first + i)!,
        customer: d.customerName,
        payload: { number: first + i, account_id: d.accountId, period: month },
      })),
    );
    await mailIssuedInvoices(
      trx,
      actor.companyId,
      toIssue.map((d, i) => ({
        id: ids.get(first + i)!,
        number: first + i,
        accountId: d.accountId,
        total: d.bill.total,
        currency: settings.currency,
        dueDate,
        periodStart: isoOf(d.bill.period.start),
        periodEnd: isoOf(d.bill.period.end - 1),
      })),
      mail,
      who,
    );
    return issued;
  });
  const invoices = drafts.map((d) => draftDto(d, issuedKeys));
  return {
    period: month,
    currency,
    dry_run: false,
    invoices,
    issued: issuedNow,
    total: issuedNow.reduce((s, i) => s + i.total, 0),
  };
}

/** A stored rate as the domain's rate rules read it. */
export function toRateRow(
  r: Pick<
    Awaited<ReturnType<typeof findRates>>[number],
    'kind' | 'unit_type' | 'warehouse_id' | 'account_id' | 'effective_from' | 'amount'
  >,
): RateRow {
  return {
    kind: r.kind as RateKind,
    unitType: (r.unit_type as BillingUnitType | null) ?? null,
    warehouseId: r.warehouse_id,
    accountId: r.account_id,
    from: dayOf(r.effective_from),
    amount: r.amount,
  };
}
