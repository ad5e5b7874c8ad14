import { sql } from 'kysely';
import { type Db, nowIso } from '../../db/database';

export async function insertPortalSession(
  db: Db,
  session: { id: string; customerId: number; companyId: number; expiresAt: string },
) {
  await db
    .insertInto('portal_sessions')
    .values({
      id: session.id,
      customer_id: session.customerId,
      company_id: session.companyId,
      created_at: nowIso(),
      expires_at: session.expiresAt,
    })
    .execute();
}

/** A portal session that has not expired, of a customer who still has an address (removing it ends the portal). */
export async function findLivePortalSession(db: Db, id: string, now: string) {
  return db
    .selectFrom('portal_sessions')
    .innerJoin('customers', 'customers.id', 'portal_sessions.customer_id')
    .select(['portal_sessions.customer_id', 'portal_sessions.company_id'])
    .where('portal_sessions.id', '=', id)
    .where('portal_sessions.expires_at', '>', now)
    .where('customers.email', 'is not', null)
    .executeTakeFirst();
}

export async function deletePortalSession(db: Db, id: string) {
  await db.deleteFrom('portal_sessions').where('id', '=', id).execute();
}

/** Portal sessions and sign-in links past their expiry, across companies (the housekeeping sweep); how many of each. */
export async function deleteExpiredPortalRows(db: Db, now: string) {
  const sessions = await db.deleteFrom('portal_sessions').where('expires_at', '<=', now).executeTakeFirst();
  const links = await db.deleteFrom('portal_links').where('expires_at', '<=', now).executeTakeFirst();
  return { portalSessions: Number(sessions.numDeletedRows), portalLinks: Number(links.numDeletedRows) };
}

export async function insertPortalLink(
  db: Db,
  link: {
    companyId: number;
    customerId: number;
    email: string;
    tokenHash: string;
    expiresAt: string;
    createdBy: string;
  },
) {
  await db
    .insertInto('portal_links')
    .values({
      company_id: link.companyId,
      customer_id: link.customerId,
      email: link.email,
      token_hash: link.tokenHash,
      expires_at: link.expiresAt,
      created_by: link.createdBy,
      created_at: nowIso(),
    })
    .execute();
}

/** An unused, unexpired link, still going to the customer's present address. */
export async function findUsablePortalLink(db: Db, tokenHash: string, now: string) {
  return db
    .selectFrom('portal_links')
    .innerJoin('customers', 'customers.id', 'portal_links.customer_id')
    .select(['portal_links.id', 'portal_links.customer_id', 'portal_links.company_id'])
    .where('portal_links.token_hash', '=', tokenHash)
    .where('portal_links.used_at', 'is', null)
    .where('portal_links.expires_at', '>', now)
    .whereRef('portal_links.email', '=', 'customers.email')
    .executeTakeFirst();
}

/** Uses a link once: false when another request used it first. */
export async function usePortalLink(db: Db, id: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('portal_links')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function findPortalCustomer(db: Db, companyId: number, customerId: number) {
  return db
    .selectFrom('customers')
    .innerJoin('companies', 'companies.id', 'customers.company_id')
    .select(['customers.name', 'customers.email', 'companies.name as company', 'companies.locale'])
    .where('customers.company_id', '=', companyId)
    .where('customers.id', '=', customerId)
    .executeTakeFirst();
}

/** The customer's units in storage now: number, type, order, warehouse (none while staged) and since when. */
export async function listPortalUnits(db: Db, companyId: number, customerId: number) {
  return db
    .selectFrom('vaults')
    .leftJoin('orders', 'orders.id', 'vaults.order_id')
    .leftJoin('fields', 'fields.id', 'vaults.field_id')
    .leftJoin('warehouses', 'warehouses.id', 'fields.warehouse_id')
    .select([
      'vaults.id',
      'vaults.name',
      'vaults.type',
      'vaults.created_at',
      'orders.name as order_name',
      'warehouses.name as warehouse_name',
    ])
    .where('vaults.company_id', '=', companyId)
    .where('vaults.customer_id', '=', customerId)
    .where('vaults.released_at', 'is', null)
    .orderBy('vaults.created_at')
    .orderBy('vaults.id')
    .execute();
}

/** The customer's issued invoices (not drafts, not voided), on the storage accounts billed to them. */
export async function listPortalInvoices(db: Db, companyId: number, customerId: number) {
  return db
    .selectFrom('invoices')
    .innerJoin('storage_accounts', 'storage_accounts.id', 'invoices.account_id')
    .select([
      'invoices.id',
      'invoices.number',
      'invoices.status',
      'invoices.issue_date',
      'invoices.due_date',
      'invoices.total',
      'invoices.paid',
      'invoices.credited',
    ])
    .where('invoices.company_id', '=', companyId)
    .where('storage_accounts.customer_id', '=', customerId)
    .where('invoices.kind', '=', 'invoice')
    .where('invoices.status', 'not in', ['draft', 'void'])
    .orderBy(sql`coalesce(invoices.issue_date, invoices.created_at)`, 'desc')
    .orderBy('invoices.id', 'desc')
    .execute();
}
