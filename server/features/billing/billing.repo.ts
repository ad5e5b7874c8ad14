import { type Selectable, sql } from 'kysely';
import { dayOf } from '@domain/billing/days';
import { openAmount } from '@domain/billing/ledger';
import type { InvoicedDays } from '@domain/billing/rates';
import type { Db } from '../../db/database';
import type { BillingRatesTable, InvoiceLinesTable, InvoicesTable, PaymentsTable } from '../../db/schema';
import { isPostgres, type Trx } from '../../db/locks';

// Issue 28: all SQL of rates, invoices and payments, always filtered by company.

export async function findRates(db: Db | Trx, companyId: number) {
  return db
    .selectFrom('billing_rates')
    .leftJoin('warehouses', 'warehouses.id', 'billing_rates.warehouse_id')
    .where('billing_rates.company_id', '=', companyId)
    .select([
      'billing_rates.id',
      'billing_rates.kind',
      'billing_rates.unit_type',
      'billing_rates.warehouse_id',
      'warehouses.name as warehouse_name',
      'billing_rates.account_id',
      'billing_rates.amount',
      'billing_rates.effective_from',
      'billing_rates.created_by',
    ])
    .orderBy('billing_rates.kind')
    .orderBy('billing_rates.unit_type')
    .orderBy('billing_rates.effective_from')
    .orderBy('billing_rates.id')
    .execute();
}

export async function insertRate(trx: Trx, values: Omit<Selectable<BillingRatesTable>, 'id'>) {
  return (await trx.insertInto('billing_rates').values(values).returning('id').executeTakeFirstOrThrow()).id;
}

/** A rate's own values (its kind, unit type, warehouse, account, amount and day); its row and author stay. */
export type RateValues = Pick<
  Selectable<BillingRatesTable>,
  'kind' | 'unit_type' | 'warehouse_id' | 'account_id' | 'amount' | 'effective_from'
>;

export async function updateRate(trx: Trx, companyId: number, id: number, values: RateValues) {
  await trx
    .updateTable('billing_rates')
    .set(values)
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .execute();
}

export async function deleteRate(trx: Trx, companyId: number, id: number) {
  await trx.deleteFrom('billing_rates').where('company_id', '=', companyId).where('id', '=', id).execute();
}

export async function warehouseExists(db: Db | Trx, companyId: number, id: number) {
  return Boolean(
    await db
      .selectFrom('warehouses')
      .select('id')
      .where('company_id', '=', companyId)
      .where('id', '=', id)
      .executeTakeFirst(),
  );
}

export async function accountExists(db: Db | Trx, companyId: number, id: number, lock = false) {
  const query = db
    .selectFrom('storage_accounts')
    .select('id')
    .where('company_id', '=', companyId)
    .where('id', '=', id);
  return Boolean(await (lock && isPostgres(db) ? query.forUpdate() : query).executeTakeFirst());
}

/**
 * The first and the last day the issued invoices cover (the first period's start, the last period's end), or null
 * while none is issued: rates may not change what is issued.
 */
export async function invoicedDays(db: Db | Trx, companyId: number): Promise<InvoicedDays | null> {
  const row = await db
    .selectFrom('invoices')
    .where('company_id', '=', companyId)
    .where('kind', '=', 'invoice')
    .where('status', '!=', 'void')
    .select((eb) => [eb.fn.min('period_start').as('start'), eb.fn.max('period_end').as('end')])
    .executeTakeFirst();
  const start = row?.start as string | null | undefined;
  const end = row?.end as string | null | undefined;
  return start && end ? { first: dayOf(start), last: dayOf(end) } : null;
}

/** The billing keys already used for periods starting in [start, end). */
export async function findIssuedKeys(db: Db | Trx, companyId: number, start: string, end: string) {
  const rows = await db
    .selectFrom('invoices')
    .select('billing_key')
    .where('company_id', '=', companyId)
    .where('billing_key', 'is not', null)
    .where('period_start', '>=', start)
    .where('period_start', '<', end)
    .execute();
  return new Set(rows.map((r) => r.billing_key!));
}

/**
 * The lines of the invoices (not void, not credit notes) of periods starting in [start, end): what the run must not
 * bill again, and which periods each account was invoiced for.
 */
export async function findBilledLines(db: Db | Trx, companyId: number, start: string, end: string) {
  return db
    .selectFrom('invoice_lines as l')
    .innerJoin('invoices as i', 'i.id', 'l.invoice_id')
    .where('i.company_id', '=', companyId)
    .where('l.company_id', '=', companyId)
    .where('i.kind', '=', 'invoice')
    .where('i.status', '!=', 'void')
    .where('i.period_start', '>=', start)
    .where('i.period_start', '<', end)
    .select([
      'i.account_id',
      'i.period_start',
      'l.kind',
      'l.unit_id',
      'l.pallet_id',
      'l.from_day',
      'l.to_day',
    ])
    .execute();
}
export type BilledLineRow = Awaited<ReturnType<typeof findBilledLines>>[number];

/** An invoice as the billing run inserts it: every column it sets, with its number and dates given. */
export type NewInvoice = Omit<
  Selectable<InvoicesTable>,
  'id' | 'paid' | 'credited' | 'version' | 'number' | 'issue_date' | 'due_date'
> & { number: number; issue_date: string; due_date: string };

/** An invoice line as the billing run inserts it: every column but its id. */
export type NewLine = Omit<Selectable<InvoiceLinesTable>, 'id'>;

/** Each column of a bulk insert with its PostgreSQL type, for the arrays `unnest` reads. */
const INVOICE_TYPES: Record<keyof NewInvoice, string> = {
  company_id: 'int',
  account_id: 'int',
  kind: 'text',
  number: 'int',
  status: 'text',
  period_start: 'text',
  period_end: 'text',
  billing_key: 'text',
  issue_date: 'text',
  due_date: 'text',
  currency: 'text',
  subtotal: 'int',
  tax: 'int',
  total: 'int',
  credit_of: 'int',
  reason: 'text',
  created_by: 'text',
  created_at: 'text',
};
const LINE_TYPES: Record<keyof NewLine, string> = {
  company_id: 'int',
  invoice_id: 'int',
  position: 'int',
  kind: 'text',
  payer: 'text',
  unit_id: 'int',
  pallet_id: 'int',
  description: 'text',
  from_day: 'text',
  to_day: 'text',
  rate: 'int',
  amount: 'int',
  tax: 'int',
};

/**
 * PostgreSQL: all the rows in one statement, one array parameter per column (`INSERT ... SELECT FROM unnest(...)`),
 * instead of thousands of bound values in many statements: one round trip and one short text to parse.
 */
function unnestInsert<R extends object>(table: string, types: Record<keyof R & string, string>, rows: R[]) {
  const columns = Object.keys(types) as (keyof R & string)[];
  const arrays = columns.map((c) => sql`${rows.map((r) => r[c] as unknown)}::${sql.raw(types[c])}[]`);
  return sql`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))})
    select * from unnest(${sql.join(arrays)})`;
}

/** Inserts invoices and answers their ids by number (the numbers are the company's, unique). */
export async function insertInvoices(
  trx: Trx,
  companyId: number,
  rows: NewInvoice[],
): Promise<Map<number, number>> {
  const ids = new Map<number, number>();
  if (rows.length === 0) return ids;
  if (isPostgres(trx)) {
    // each returned row names its number, so no order of the answer is relied on
    const made = await sql<{ id: number; number: number }>`${unnestInsert('invoices', INVOICE_TYPES, rows)}
      returning id, number`.execute(trx);
    for (const r of made.rows) ids.set(r.number, r.id);
    return ids;
  }
  for (let i = 0; i < rows.length; i += 400)
    await trx
      .insertInto('invoices')
      .values(rows.slice(i, i + 400))
      .execute();
  const found = await trx
    .selectFrom('invoices')
    .select(['id', 'number'])
    .where('company_id', '=', companyId)
    .where('number', '>=', rows[0]!.number)
    .where('number', '<=', rows[rows.length - 1]!.number)
    .execute();
  for (const r of found) ids.set(r.number!, r.id);
  return ids;
}

export async function insertLines(trx: Trx, rows: NewLine[]) {
  if (rows.length === 0) return;
  if (isPostgres(trx)) {
    await unnestInsert('invoice_lines', LINE_TYPES, rows).execute(trx);
    return;
  }
  for (let i = 0; i < rows.length; i += 800)
    await trx
      .insertInto('invoice_lines')
      .values(rows.slice(i, i + 800))
      .execute();
}

const invoiceColumns = [
  'invoices.id',
  'invoices.kind',
  'invoices.number',
  'invoices.status',
  'invoices.account_id',
  'customers.name as customer_name',
  'storage_accounts.bill_to_name',
  'storage_accounts.bill_to_address',
  'invoices.period_start',
  'invoices.period_end',
  'invoices.issue_date',
  'invoices.due_date',
  'invoices.currency',
  'invoices.subtotal',
  'invoices.tax',
  'invoices.total',
  'invoices.paid',
  'invoices.credited',
  'invoices.credit_of',
  'invoices.reason',
  'invoices.version',
] as const;

export async function findInvoices(
  db: Db | Trx,
  companyId: number,
  filter: { id?: number; accountId?: number; status?: string; kind?: string } = {},
) {
  let query = db
    .selectFrom('invoices')
    .innerJoin('storage_accounts', 'storage_accounts.id', 'invoices.account_id')
    .innerJoin('customers', 'customers.id', 'storage_accounts.customer_id')
    .where('invoices.company_id', '=', companyId)
    .select(invoiceColumns)
    .orderBy('invoices.number', 'desc')
    .orderBy('invoices.id', 'desc');
  if (filter.id !== undefined) query = query.where('invoices.id', '=', filter.id);
  if (filter.accountId !== undefined) query = query.where('invoices.account_id', '=', filter.accountId);
  if (filter.status !== undefined) query = query.where('invoices.status', '=', filter.status);
  if (filter.kind !== undefined) query = query.where('invoices.kind', '=', filter.kind);
  return query.execute();
}
export type InvoiceRow = Awaited<ReturnType<typeof findInvoices>>[number];

/**
 * What is still open on each issued invoice with a due day, for overdue days and holds: issued and partly paid invoices
 * only (drafts, void, paid and credited ones owe nothing); `open` is the total less what was paid and credited.
 */
export async function findOpenDues(db: Db | Trx, companyId: number, accountId?: number) {
  let query = db
    .selectFrom('invoices')
    .where('company_id', '=', companyId)
    .where('kind', '=', 'invoice')
    .where('status', 'in', ['issued', 'partly-paid'])
    .where('due_date', 'is not', null)
    .select(['account_id', 'due_date', 'total', 'paid', 'credited']);
  if (accountId !== undefined) query = query.where('account_id', '=', accountId);
  const rows = await query.execute();
  return rows
    .map((r) => ({
      accountId: r.account_id,
      dueDay: dayOf(r.due_date!),
      open: openAmount(Number(r.total), Number(r.paid), Number(r.credited)),
    }))
    .filter((r) => r.open > 0);
}

export async function findInvoiceForUpdate(trx: Trx, companyId: number, id: number) {
  const query = trx
    .selectFrom('invoices')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', id);
  return (isPostgres(trx) ? query.forUpdate() : query).executeTakeFirst();
}

export async function findLines(db: Db | Trx, companyId: number, invoiceIds: number[]) {
  if (invoiceIds.length === 0) return [];
  return db
    .selectFrom('invoice_lines')
    .where('company_id', '=', companyId)
    .where('invoice_id', 'in', invoiceIds)
    .selectAll()
    .orderBy('invoice_id')
    .orderBy('position')
    .execute();
}

export async function setSettlement(
  trx: Trx,
  companyId: number,
  id: number,
  values: { paid?: number; credited?: number; status: string; billing_key?: null; reason?: string },
) {
  await trx
    .updateTable('invoices')
    .set({ ...values, version: sql`version + 1` })
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .execute();
}

/** The account's open invoices, oldest first (for allocating a payment). */
export async function findOpenInvoices(trx: Trx, companyId: number, accountId: number) {
  const query = trx
    .selectFrom('invoices')
    .select(['id', 'number', 'total', 'paid', 'credited', 'status'])
    .where('company_id', '=', companyId)
    .where('account_id', '=', accountId)
    .where('kind', '=', 'invoice')
    .where('status', 'in', ['issued', 'partly-paid'])
    .orderBy('issue_date')
    .orderBy('number');
  return (isPostgres(trx) ? query.forUpdate() : query).execute();
}

export async function insertPayment(trx: Trx, values: Omit<Selectable<PaymentsTable>, 'id'>) {
  return (await trx.insertInto('payments').values(values).returning('id').executeTakeFirstOrThrow()).id;
}

export async function insertAllocations(
  trx: Trx,
  rows: { company_id: number; payment_id: number; invoice_id: number; amount: number }[],
) {
  if (rows.length > 0) await trx.insertInto('payment_allocations').values(rows).execute();
}

export async function findPayments(db: Db, companyId: number, accountId?: number) {
  let query = db
    .selectFrom('payments')
    .innerJoin('storage_accounts', 'storage_accounts.id', 'payments.account_id')
    .innerJoin('customers', 'customers.id', 'storage_accounts.customer_id')
    .where('payments.company_id', '=', companyId)
    .select([
      'payments.id',
      'payments.account_id',
      'customers.name as customer_name',
      'payments.paid_on',
      'payments.amount',
      'payments.method',
      'payments.reference',
      'payments.created_at',
    ])
    .orderBy('payments.paid_on', 'desc')
    .orderBy('payments.id', 'desc');
  if (accountId !== undefined) query = query.where('payments.account_id', '=', accountId);
  return query.execute();
}

export async function findAllocations(db: Db, companyId: number) {
  return db
    .selectFrom('payment_allocations as pa')
    .innerJoin('invoices', 'invoices.id', 'pa.invoice_id')
    .where('pa.company_id', '=', companyId)
    .select(['pa.payment_id', 'pa.invoice_id', 'invoices.number', 'pa.amount'])
    .execute();
}
