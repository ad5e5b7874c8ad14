import type { PortalInvoicesDto, PortalMeDto, PortalUnitDto } from '@domain/schemas/customer.schema';
import { openAmount } from '@domain/billing/ledger';
import { type Db, nowIso } from '../../db/database';
import { notFound } from '../../http/errors';
import { findBillingSettings } from '../accounts/billing-settings.repo';
import { invoicePdfFile } from '../billing/billing-mail-attachments';
import type { PortalCustomer } from './portal-session';
import { hashPortalToken } from './portal-session';
import {
  findPortalCustomer,
  findUsablePortalLink,
  listPortalInvoices,
  listPortalUnits,
  usePortalLink,
} from './portal.repo';

export const PORTAL_LINK_UNUSABLE =
  'This link has expired or was already used. Ask the company that stores your goods for a new one.';

/** Uses a one-time portal link (once, even when two requests race): answers the customer to sign in. */
export async function useLinkToSignIn(
  db: Db,
  token: string,
): Promise<{ customerId: number; companyId: number }> {
  return db.transaction().execute(async (trx) => {
    const now = nowIso();
    const link = await findUsablePortalLink(trx, hashPortalToken(token), now);
    if (!link || !(await usePortalLink(trx, link.id, now))) throw notFound(PORTAL_LINK_UNUSABLE);
    return { customerId: link.customer_id, companyId: link.company_id };
  });
}

export async function portalMe(db: Db, customer: PortalCustomer): Promise<PortalMeDto> {
  const row = await findPortalCustomer(db, customer.companyId, customer.customerId);
  if (!row) throw notFound('Not found');
  return { name: row.name, email: row.email, company: row.company };
}

export async function portalUnits(db: Db, customer: PortalCustomer): Promise<PortalUnitDto[]> {
  const rows = await listPortalUnits(db, customer.companyId, customer.customerId);
  return rows.map((row) => ({
    id: row.id,
    number: row.name,
    type: row.type,
    order: row.order_name,
    warehouse: row.warehouse_name,
    since: row.created_at,
  }));
}

export async function portalInvoices(db: Db, customer: PortalCustomer): Promise<PortalInvoicesDto> {
  const [rows, settings, who] = await Promise.all([
    listPortalInvoices(db, customer.companyId, customer.customerId),
    findBillingSettings(db, customer.companyId),
    findPortalCustomer(db, customer.companyId, customer.customerId),
  ]);
  const invoices = rows.map((row) => ({
    id: row.id,
    number: row.number,
    status: row.status,
    issueDate: row.issue_date,
    dueDate: row.due_date,
    total: row.total,
    open: openAmount(row.total, row.paid, row.credited),
  }));
  return {
    currency: settings?.currency ?? 'USD',
    locale: who?.locale ?? 'en-US',
    balance: invoices.reduce((sum, invoice) => sum + invoice.open, 0),
    invoices,
  };
}

export const PORTAL_INVOICE_NOT_FOUND = 'Invoice not found.';

/**
 * One of the customer's invoices as the PDF the office sends (issue 29): only an invoice the portal lists (issued,
 * not void, of the customer's own accounts); any other id answers 404, as one that does not exist.
 */
export async function portalInvoicePdf(
  db: Db,
  customer: PortalCustomer,
  invoiceId: number,
): Promise<{ name: string; bytes: Uint8Array }> {
  const own = await listPortalInvoices(db, customer.companyId, customer.customerId);
  if (!own.some((row) => row.id === invoiceId)) throw notFound(PORTAL_INVOICE_NOT_FOUND);
  return invoicePdfFile(db, customer.companyId, invoiceId);
}
