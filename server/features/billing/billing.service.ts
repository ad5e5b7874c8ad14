import { recordEvent } from '../../events/event-log.repo';
import { dayAgainstToday, dayOf, dayWriter } from '@domain/billing/days';
import {
  AGING_BUCKETS,
  type AgingBucket,
  agingBucket,
  allocateOldestFirst,
  type InvoiceStatus,
  openAmount,
  paymentBeyondInvoices,
  settledStatus,
} from '@domain/billing/ledger';
import { formatMoney } from '@domain/billing/money';
import {
  type BillingUnitType,
  type InvoicedDays,
  invoicedRateIds,
  RATE_KIND_LABELS,
  type RateKind,
  rateKey,
  UNIT_TYPE_LABELS,
} from '@domain/billing/rates';
import type {
  AgingDto,
  BillingSettingsDto,
  BillingSettingsValues,
  InvoiceDto,
  PaymentDto,
  RateDto,
  StatementDto,
  StatementEntryDto,
} from '@domain/schemas/billing.schema';
import { paymentLine } from '@domain/schemas/billing.schema';
import { findCompanyForMail } from '../accounts/account-mails.repo';
import type { Actor } from '../../auth/actor';
import { actorName } from '../../auth/users.repo';
import { type Db, nowIso } from '../../db/database';
import { badRequest, conflict, notFound } from '../../http/errors';
import type { Trx } from '../../db/locks';
import { findAccounts } from '../accounts/accounts.repo';
import { ACCOUNT_NOT_FOUND, today } from '../accounts/accounts.service';
import {
  findBillingSettings,
  lockInvoiceCounter,
  setNextInvoiceNumber,
  updateBillingSettings,
} from '../accounts/billing-settings.repo';
import {
  accountExists,
  findAllocations,
  findInvoiceForUpdate,
  findInvoices,
  findLines,
  findOpenInvoices,
  findPayments,
  findRates,
  insertAllocations,
  insertInvoices,
  insertLines,
  insertPayment,
  insertRate,
  invoicedDays,
  type InvoiceRow,
  deleteRate,
  type RateValues,
  updateRate,
  setSettlement,
  warehouseExists,
} from './billing.repo';
import { naturalCompare } from '@domain/rules/text';
import { toRateRow } from './billing-run.service';

export const INVOICE_NOT_FOUND = 'This invoice does not exist or was removed.';

/** GET /api/billing/settings */
export async function getSettings(db: Db, companyId: number): Promise<BillingSettingsDto> {
  const s = await findBillingSettings(db, companyId);
  return {
    currency: s.currency,
    tax_basis_points: s.tax_basis_points,
    sit_days_default: s.sit_days_default,
    payment_terms_days: s.payment_terms_days,
    hold_after_days: s.hold_after_days,
    auto_billing: Boolean(s.auto_billing),
  };
}

/** PUT /api/billing/settings */
export async function saveSettings(
  db: Db,
  companyId: number,
  input: BillingSettingsValues,
): Promise<BillingSettingsDto> {
  const current = await findBillingSettings(db, companyId);
  if (current.currency !== input.currency && (await findInvoices(db, companyId)).length > 0)
    throw badRequest('The currency cannot change once invoices are issued in it.');
  await updateBillingSettings(db, companyId, input);
  return getSettings(db, companyId);
}

export const RATE_NOT_FOUND = 'This rate does not exist or was removed.';

/** GET /api/billing/rates: every rate, each saying whether issued invoices were made with it. */
export async function listRates(db: Db | Trx, companyId: number): Promise<RateDto[]> {
  const [rows, invoiced] = await Promise.all([findRates(db, companyId), invoicedDays(db, companyId)]);
  const used = invoicedRateIds(
    rows.map((r) => ({ id: r.id, ...toRateRow(r) })),
    invoiced,
  );
  return rows.map((r) => ({
    ...r,
    kind: r.kind as RateKind,
    unit_type: (r.unit_type as BillingUnitType | null) ?? null,
    invoiced: used.has(r.id),
  }));
}

export interface RateValuesInput {
  kind: RateKind;
  unit_type?: BillingUnitType;
  warehouse_id?: number;
  account_id?: number;
  amount: number;
  effective_from: string;
}

/** The rate as stored: a valuation rate is per account or company, not per unit type. */
const rateValues = (input: RateValuesInput): RateValues => ({
  kind: input.kind,
  unit_type: input.kind === 'valuation' ? null : (input.unit_type ?? null),
  warehouse_id: input.warehouse_id ?? null,
  account_id: input.account_id ?? null,
  amount: input.amount,
  effective_from: input.effective_from,
});

/** The company's rates as a rate change sees them, the days invoiced so far, and how the company writes a day. */
interface RatesInForce {
  rows: Awaited<ReturnType<typeof findRates>>;
  invoiced: InvoicedDays | null;
  write: (day: number) => string;
}

/**
 * A rate change's transaction. It holds the company's invoice counter row, as a billing run does (decision 035), so
 * rate changes wait for each other and for a run: the duplicate check and the invoiced days it reads stay true until
 * it commits. Answers every rate.
 */
async function changeRates(
  db: Db,
  actor: Actor,
  change: (trx: Trx, rates: RatesInForce) => Promise<void>,
): Promise<RateDto[]> {
  return db.transaction().execute(async (trx) => {
    await lockInvoiceCounter(trx, actor.companyId);
    const [rows, invoiced, company] = await Promise.all([
      findRates(trx, actor.companyId),
      invoicedDays(trx, actor.companyId),
      findCompanyForMail(trx, actor.companyId),
    ]);
    // the days as the company writes them (its locale), as on its invoices
    await change(trx, { rows, invoiced, write: dayWriter(company.locale) });
    return listRates(trx, actor.companyId);
  });
}

/**
 * New values of a rate: its warehouse and account the company's, never from a day already invoiced, not twice
 * (`rows`: the other rates).
 */
async function checkRateValues(
  trx: Trx,
  actor: Actor,
  values: RateValues,
  { rows: others, invoiced, write }: RatesInForce,
) {
  if (values.warehouse_id && !(await warehouseExists(trx, actor.companyId, values.warehouse_id)))
    throw notFound('The warehouse does not exist or was removed.');
  if (values.account_id && !(await accountExists(trx, actor.companyId, values.account_id)))
    throw notFound(ACCOUNT_NOT_FOUND);
  if (invoiced && dayOf(values.effective_from) <= invoiced.last)
    throw badRequest(
      `Invoices are issued through ${write(invoiced.last)}: a rate change takes effect from ${write(invoiced.last + 1)} or later.`,
    );
  const key = rateKey(toRateRow(values));
  const twin = others.find(
    (r) => r.effective_from === values.effective_from && rateKey(toRateRow(r)) === key,
  );
  if (twin)
    throw conflict(
      `There is already a ${RATE_KIND_LABELS[values.kind as RateKind].toLowerCase()} rate${rateScope(twin)} from ${write(dayOf(values.effective_from))}: change that rate instead of adding the same one twice.`,
    );
}

/** "for Vault in every warehouse", "for Pallet spot in Main for account #4", "" (a valuation rate of the company). */
function rateScope(rate: Awaited<ReturnType<typeof findRates>>[number]): string {
  const unit = rate.unit_type ? ` for ${UNIT_TYPE_LABELS[rate.unit_type as BillingUnitType]}` : '';
  const where = rate.kind === 'valuation' ? '' : ` in ${rate.warehouse_name ?? 'every warehouse'}`;
  const who = rate.account_id ? ` for account #${rate.account_id}` : '';
  return `${unit}${where}${who}`;
}

/** Why an invoiced rate stays, and what to do instead. */
function invoicedRefusal(invoiced: InvoicedDays, write: (day: number) => string) {
  return conflict(
    `This rate was in force on days already invoiced (through ${write(invoiced.last)}), so it stays as it is for those invoices. To charge a different amount, add a new rate from ${write(invoiced.last + 1)} or later.`,
  );
}

/** POST /api/billing/rates: a rate from a day on; never inside a period already invoiced, never twice. */
export async function addRate(db: Db, actor: Actor, input: RateValuesInput): Promise<RateDto[]> {
  return changeRates(db, actor, async (trx, rates) => {
    const values = rateValues(input);
    await checkRateValues(trx, actor, values, rates);
    await insertRate(trx, {
      company_id: actor.companyId,
      ...values,
      created_by: await actorName(trx, actor.userId),
      created_at: nowIso(),
    });
  });
}

/** A rate of the company that no issued invoice used: one may be corrected or deleted, the others stay. */
function requireUnusedRate(id: number, { rows, invoiced, write }: RatesInForce) {
  if (!rows.some((r) => r.id === id)) throw notFound(RATE_NOT_FOUND);
  const rateRows = rows.map((r) => ({ id: r.id, ...toRateRow(r) }));
  if (invoiced && invoicedRateIds(rateRows, invoiced).has(id)) throw invoicedRefusal(invoiced, write);
}

/** PUT /api/billing/rates/:id: corrects a rate no issued invoice used (a typo); the new values as for a new rate. */
export async function editRate(db: Db, actor: Actor, id: number, input: RateValuesInput): Promise<RateDto[]> {
  return changeRates(db, actor, async (trx, rates) => {
    requireUnusedRate(id, rates);
    const values = rateValues(input);
    await checkRateValues(trx, actor, values, { ...rates, rows: rates.rows.filter((r) => r.id !== id) });
    await updateRate(trx, actor.companyId, id, values);
  });
}

/** DELETE /api/billing/rates/:id: removes a rate no issued invoice used. */
export async function deleteRateOf(db: Db, actor: Actor, id: number): Promise<RateDto[]> {
  return changeRates(db, actor, async (trx, rates) => {
    requireUnusedRate(id, rates);
    await deleteRate(trx, actor.companyId, id);
  });
}

function invoiceDto(row: InvoiceRow): InvoiceDto {
  return {
    id: row.id,
    kind: row.kind === 'credit' ? 'credit' : 'invoice',
    number: row.number,
    status: row.status as InvoiceStatus,
    account_id: row.account_id,
    customer_name: row.customer_name,
    bill_to_name: row.bill_to_name,
    bill_to_address: row.bill_to_address,
    period_start: row.period_start,
    period_end: row.period_end,
    issue_date: row.issue_date,
    due_date: row.due_date,
    currency: row.currency,
    subtotal: row.subtotal,
    tax: row.tax,
    total: row.total,
    paid: row.paid,
    credited: row.credited,
    open: row.kind === 'invoice' && row.status !== 'void' ? openAmount(row.total, row.paid, row.credited) : 0,
    credit_of: row.credit_of,
    reason: row.reason,
  };
}

/** GET /api/invoices */
export async function listInvoices(
  db: Db,
  companyId: number,
  filter: { status?: string; account_id?: number },
): Promise<InvoiceDto[]> {
  const rows = await findInvoices(db, companyId, { status: filter.status, accountId: filter.account_id });
  return rows.map(invoiceDto);
}

/** GET /api/invoices/:id, with its lines (the agency's days apart). */
export async function getInvoice(db: Db, companyId: number, id: number): Promise<InvoiceDto> {
  const row = (await findInvoices(db, companyId, { id }))[0];
  if (!row) throw notFound(INVOICE_NOT_FOUND);
  const lines = await findLines(db, companyId, [id]);
  return {
    ...invoiceDto(row),
    lines: lines.map((l) => ({
      kind: l.kind as RateKind | 'credit', // a credit note's lines are of kind credit
      payer: l.payer === 'agency' ? 'agency' : 'customer',
      description: l.description,
      from: l.from_day,
      to: l.to_day,
      rate: l.rate,
      amount: l.amount,
      tax: l.tax,
    })),
  };
}

/**
 * POST /api/invoices/:id/credit-notes: a correction of an issued invoice. Without an amount it credits the whole
 * invoice line by line (tax included); with one, that much of what is still open. The invoice itself never changes.
 */
export async function creditInvoice(
  db: Db,
  actor: Actor,
  id: number,
  input: { amount?: number; reason: string },
): Promise<InvoiceDto> {
  const creditId = await db.transaction().execute(async (trx) => {
    const number = await lockInvoiceCounter(trx, actor.companyId);
    const invoice = await findInvoiceForUpdate(trx, actor.companyId, id);
    if (!invoice) throw notFound(INVOICE_NOT_FOUND);
    if (invoice.kind !== 'invoice' || !['issued', 'partly-paid'].includes(invoice.status))
      throw badRequest('Only an issued invoice with an open amount can be credited.');
    const open = openAmount(invoice.total, invoice.paid, invoice.credited);
    const amount = input.amount ?? open;
    if (amount > open)
      throw badRequest(
        `The credit (${formatMoney(amount, invoice.currency)}) is larger than what is open on the invoice (${formatMoney(open, invoice.currency)}).`,
      );
    const whole = amount === invoice.total;
    const originalLines = whole
      ? (await findLines(trx, actor.companyId, [id])).filter((l) => l.payer === 'customer')
      : [];
    const who = await actorName(trx, actor.userId);
    const issueDate = today();
    const ids = await insertInvoices(trx, actor.companyId, [
      {
        company_id: actor.companyId,
        account_id: invoice.account_id,
        kind: 'credit',
        number,
        status: 'issued',
        period_start: invoice.period_start,
        period_end: invoice.period_end,
        billing_key: null,
        issue_date: issueDate,
        due_date: issueDate,
        currency: invoice.currency,
        subtotal: whole ? -invoice.subtotal : -amount,
        tax: whole ? -invoice.tax : 0,
        total: -amount,
        credit_of: invoice.id,
        reason: input.reason,
        created_by: who,
        created_at: nowIso(),
      },
    ]);
    const creditNoteId = ids.get(number)!;
    await insertLines(
      trx,
      whole
        ? originalLines.map((l) => ({
            ...l,
            id: undefined,
            invoice_id: creditNoteId,
            amount: -l.amount,
            tax: -l.tax,
          }))
        : [
            {
              company_id: actor.companyId,
              invoice_id: creditNoteId,
              position: 0,
              kind: 'credit',
              payer: 'customer',
              unit_id: null,
              pallet_id: null,
              description: `Credit for invoice ${invoice.number}: ${input.reason}`,
              from_day: issueDate,
              to_day: issueDate,
              rate: -amount,
              amount: -amount,
              tax: 0,
            },
          ],
    );
    await setNextInvoiceNumber(trx, actor.companyId, number + 1);
    const credited = invoice.credited + amount;
    await setSettlement(trx, actor.companyId, id, {
      credited,
      status: settledStatus(invoice.total, invoice.paid, credited),
    });
    return creditNoteId;
  });
  return getInvoice(db, actor.companyId, creditId);
}

/** POST /api/invoices/:id/void: an issued invoice nothing was paid or credited on; its period may be billed again. */
export async function voidInvoice(db: Db, actor: Actor, id: number, reason: string): Promise<InvoiceDto> {
  await db.transaction().execute(async (trx) => {
    const invoice = await findInvoiceForUpdate(trx, actor.companyId, id);
    if (!invoice) throw notFound(INVOICE_NOT_FOUND);
    if (invoice.kind !== 'invoice' || invoice.status === 'void')
      throw badRequest('Only an invoice can be voided, once.');
    if (invoice.paid > 0 || invoice.credited > 0)
      throw badRequest('This invoice has payments or credit notes: correct it with a credit note instead.');
    await setSettlement(trx, actor.companyId, id, { status: 'void', billing_key: null, reason });
  });
  return getInvoice(db, actor.companyId, id);
}

export const PAYMENT_IN_FUTURE =
  'A payment date cannot be in the future. Record the payment on the day it was paid.';

/**
 * POST /api/payments: a payment recorded by hand, allocated to the account's open invoices (as asked, or oldest
 * first). A payment larger than the balance, or an allocation larger than an invoice's open amount, is refused.
 */
export async function recordPayment(
  db: Db,
  actor: Actor,
  input: {
    account_id: number;
    paid_on: string;
    amount: number;
    method: string;
    reference?: string;
    allocations?: { invoice_id: number; amount: number }[];
  },
): Promise<PaymentDto> {
  if (dayAgainstToday(input.paid_on, today()) === 'future') throw badRequest(PAYMENT_IN_FUTURE);
  const paymentId = await db.transaction().execute(async (trx) => {
    if (!(await accountExists(trx, actor.companyId, input.account_id, true)))
      throw notFound(ACCOUNT_NOT_FOUND);
    const settings = await findBillingSettings(trx, actor.companyId);
    const open = (await findOpenInvoices(trx, actor.companyId, input.account_id)).map((i) => ({
      ...i,
      open: openAmount(i.total, i.paid, i.credited),
    }));
    const balance = open.reduce((s, i) => s + i.open, 0);
    if (input.amount > balance)
      throw badRequest(
        `The payment (${formatMoney(input.amount, settings.currency)}) is larger than the account's open balance (${formatMoney(balance, settings.currency)}).`,
      );
    let parts: { id: number; amount: number }[];
    if (input.allocations && input.allocations.length > 0) {
      const byId = new Map(open.map((i) => [i.id, i]));
      const money = (amount: number) => formatMoney(amount, settings.currency);
      const seen = new Set<number>();
      for (const a of input.allocations) {
        if (!byId.has(a.invoice_id) || seen.has(a.invoice_id))
          throw badRequest('A payment can only go to open invoices of its account, once each.');
        seen.add(a.invoice_id);
      }
      const chosenOpen = [...seen].reduce((s, id) => s + byId.get(id)!.open, 0);
      if (input.amount > chosenOpen)
        throw badRequest(paymentBeyondInvoices(money(input.amount), money(chosenOpen)));
      const sum = input.allocations.reduce((s, a) => s + a.amount, 0);
      if (sum !== input.amount)
        throw badRequest(
          `The amounts allocated to the invoices (${money(sum)}) must add up to the payment (${money(input.amount)}).`,
        );
      for (const a of input.allocations) {
        const invoice = byId.get(a.invoice_id)!;
        if (a.amount > invoice.open)
          throw badRequest(
            `Invoice ${invoice.number} has ${money(invoice.open)} open: no more than that can go to it.`,
          );
      }
      parts = input.allocations.map((a) => ({ id: a.invoice_id, amount: a.amount }));
    } else parts = allocateOldestFirst(input.amount, open);
    const id = await insertPayment(trx, {
      company_id: actor.companyId,
      account_id: input.account_id,
      paid_on: input.paid_on,
      amount: input.amount,
      method: input.method,
      reference: input.reference ?? null,
      created_by: await actorName(trx, actor.userId),
      created_at: nowIso(),
    });
    await insertAllocations(
      trx,
      parts.map((p) => ({ company_id: actor.companyId, payment_id: id, invoice_id: p.id, amount: p.amount })),
    );
    const byId = new Map(open.map((i) => [i.id, i]));
    for (const p of parts) {
      const invoice = byId.get(p.id)!;
      const paid = invoice.paid + p.amount;
      const status = settledStatus(invoice.total, paid, invoice.credited);
      await setSettlement(trx, actor.companyId, p.id, { paid, status });
      if (status === 'paid')
        await recordEvent(trx, {
          companyId: actor.companyId,
          userId: actor.userId,
          kind: 'invoice.paid',
          entityType: 'invoice',
          entityId: p.id,
          payload: { number: invoice.number, account_id: input.account_id },
        });
    }
    return id;
  });
  return (await listPayments(db, actor.companyId)).find((p) => p.id === paymentId)!;
}

/** GET /api/payments */
export async function listPayments(db: Db, companyId: number, accountId?: number): Promise<PaymentDto[]> {
  const [payments, allocations] = await Promise.all([
    findPayments(db, companyId, accountId),
    findAllocations(db, companyId),
  ]);
  const of = new Map<number, PaymentDto['allocations']>();
  for (const a of allocations)
    of.set(a.payment_id, [
      ...(of.get(a.payment_id) ?? []),
      { invoice_id: a.invoice_id, number: a.number, amount: a.amount },
    ]);
  return payments.map((p) => ({
    id: p.id,
    account_id: p.account_id,
    customer_name: p.customer_name,
    paid_on: p.paid_on,
    amount: p.amount,
    method: p.method,
    reference: p.reference,
    allocations: of.get(p.id) ?? [],
  }));
}

/** GET /api/storage-accounts/:id/statement: invoices, credit notes and payments in date order with the balance. */
export async function getStatement(db: Db, companyId: number, accountId: number): Promise<StatementDto> {
  const account = (await findAccounts(db, companyId, accountId))[0];
  if (!account) throw notFound(ACCOUNT_NOT_FOUND);
  const [settings, invoices, payments] = await Promise.all([
    findBillingSettings(db, companyId),
    findInvoices(db, companyId, { accountId }),
    findPayments(db, companyId, accountId),
  ]);
  const raw: Omit<StatementEntryDto, 'balance'>[] = [];
  for (const i of invoices) {
    if (i.status === 'void' || i.status === 'draft') continue;
    raw.push({
      date: i.issue_date ?? '',
      kind: i.kind === 'credit' ? 'credit' : 'invoice',
      reference: i.kind === 'credit' ? `Credit note ${i.number}` : `Invoice ${i.number}`,
      debit: Math.max(i.total, 0),
      credit: Math.max(-i.total, 0),
    });
  }
  for (const p of payments)
    raw.push({
      date: p.paid_on,
      kind: 'payment',
      reference: paymentLine(p.method, p.reference),
      debit: 0,
      credit: p.amount,
    });
  raw.sort(
    (a, b) =>
      a.date.localeCompare(b.date) || (a.kind === 'invoice' ? -1 : 1) - (b.kind === 'invoice' ? -1 : 1),
  );
  let balance = 0;
  const entries = raw.map((e) => {
    balance += e.debit - e.credit;
    return { ...e, balance };
  });
  return {
    account_id: accountId,
    customer_name: account.customer_name,
    currency: settings.currency,
    entries,
    balance,
  };
}

const emptyBuckets = (): Record<AgingBucket, number> =>
  Object.fromEntries(AGING_BUCKETS.map((b) => [b, 0])) as Record<AgingBucket, number>;

/** GET /api/billing/aging: what each account owes, by days past due (current, 1-30, 31-60, 61-90, over 90). */
export async function agingReport(db: Db, companyId: number, asOf = today()): Promise<AgingDto> {
  const [settings, invoices] = await Promise.all([
    findBillingSettings(db, companyId),
    findInvoices(db, companyId, { kind: 'invoice' }),
  ]);
  const rows = new Map<number, AgingDto['rows'][number]>();
  const totals = emptyBuckets();
  let total = 0;
  for (const i of invoices) {
    if (i.status !== 'issued' && i.status !== 'partly-paid') continue;
    const open = openAmount(i.total, i.paid, i.credited);
    if (open <= 0) continue;
    const bucket = agingBucket(dayOf(asOf) - dayOf(i.due_date ?? asOf));
    const row = rows.get(i.account_id) ?? {
      account_id: i.account_id,
      customer_name: i.customer_name,
      buckets: emptyBuckets(),
      total: 0,
    };
    row.buckets[bucket] += open;
    row.total += open;
    totals[bucket] += open;
    total += open;
    rows.set(i.account_id, row);
  }
  return {
    as_of: asOf,
    currency: settings.currency,
    rows: [...rows.values()].sort(
      (a, b) => b.total - a.total || naturalCompare(a.customer_name, b.customer_name),
    ),
    totals,
    total,
  };
}
