import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { Trx } from '../../db/locks';
import { isPostgres } from '../../db/locks';

// Issue 28: a company's billing settings and invoice counter, one row made on first use (defaults of migration 0040).

export async function ensureBillingSettings(db: Db | Trx, companyId: number): Promise<void> {
  await db
    .insertInto('billing_settings')
    .values({ company_id: companyId })
    .onConflict((oc) => oc.column('company_id').doNothing())
    .execute();
}

export async function findBillingSettings(db: Db | Trx, companyId: number) {
  const row = await db
    .selectFrom('billing_settings')
    .selectAll()
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  if (row) return row;
  await ensureBillingSettings(db, companyId);
  return db
    .selectFrom('billing_settings')
    .selectAll()
    .where('company_id', '=', companyId)
    .executeTakeFirstOrThrow();
}

/**
 * The company's counter row, locked for the rest of the transaction (FOR UPDATE on PostgreSQL; SQLite's writers are
 * one at a time already): whoever issues invoices holds it, so numbers are handed out in order and without gaps.
 */
export async function lockInvoiceCounter(trx: Trx, companyId: number): Promise<number> {
  await ensureBillingSettings(trx, companyId);
  const query = trx
    .selectFrom('billing_settings')
    .select('next_invoice_number')
    .where('company_id', '=', companyId);
  const row = await (isPostgres(trx) ? query.forUpdate() : query).executeTakeFirstOrThrow();
  return Number(row.next_invoice_number);
}

export async function setNextInvoiceNumber(trx: Trx, companyId: number, next: number): Promise<void> {
  await trx
    .updateTable('billing_settings')
    .set({ next_invoice_number: next, version: sql`version + 1` })
    .where('company_id', '=', companyId)
    .execute();
}

export async function updateBillingSettings(
  db: Db,
  companyId: number,
  values: {
    currency: string;
    tax_basis_points: number;
    sit_days_default: number;
    payment_terms_days: number;
    hold_after_days: number;
    auto_billing?: boolean;
  },
): Promise<void> {
  await ensureBillingSettings(db, companyId);
  const { auto_billing, ...rest } = values;
  await db
    .updateTable('billing_settings')
    .set({
      ...rest,
      ...(auto_billing === undefined ? {} : { auto_billing: auto_billing ? 1 : 0 }),
      version: sql`version + 1`,
    })
    .where('company_id', '=', companyId)
    .execute();
}

/** The companies whose billing day's run issues invoices by itself (decision 051). */
export async function findAutoBillingCompanies(db: Db): Promise<number[]> {
  const rows = await db
    .selectFrom('billing_settings')
    .select('company_id')
    .where('auto_billing', '=', 1)
    .orderBy('company_id')
    .execute();
  return rows.map((r) => r.company_id);
}
