import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import * as build from './company-tables';

// Issue 28: storage accounts and billing. Amounts are integers of the currency's minor unit (domain/billing/money.ts).
// An account holds orders (lots) of one customer; its units are the vaults of those orders, their move-in and
// move-out read from the vaults' own history (created, released), never typed. Invoice numbers come from the
// company's counter row in billing_settings, taken in the issuing transaction, so numbers have no gaps; the
// billing key (account and period) is unique, so a period is invoiced once however many runs race.

/** An optional reference whose row goes with the referenced one (a warehouse's or an account's own rate). */
const optionalCascade = (table: string) => (c: ColumnDefinitionBuilder) =>
  c.references(`${table}.id`).onDelete('cascade');

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('billing_settings')
    .addColumn('company_id', 'integer', (c) => c.primaryKey().references('companies.id').onDelete('cascade'))
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('USD'))
    .addColumn('tax_basis_points', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sit_days_default', 'integer', (c) => c.notNull().defaultTo(90))
    .addColumn('payment_terms_days', 'integer', (c) => c.notNull().defaultTo(30))
    .addColumn('hold_after_days', 'integer', (c) => c.notNull().defaultTo(60))
    // the number the next issued invoice or credit note gets
    .addColumn('next_invoice_number', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('version', 'integer', build.rowVersion)
    .execute();

  await build
    .createCompanyTable(db, 'storage_accounts')
    .addColumn('customer_id', 'integer', build.cascadingReference('customers'))
    // 'permanent' | 'sit'
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('sit_authorization', 'text')
    // 'customer' | 'agency': who pays during SIT
    .addColumn('sit_payer', 'text')
    .addColumn('agency_name', 'text')
    .addColumn('agency_reference', 'text')
    .addColumn('sit_start', 'text')
    .addColumn('sit_days_allowed', 'integer')
    // the day a SIT account became Permanent (by itself on its conversion day, or by hand)
    .addColumn('converted_on', 'text')
    // 'calendar' | 'thirty-days'
    .addColumn('billing_cycle', 'text', (c) => c.notNull().defaultTo('calendar'))
    .addColumn('bill_to_name', 'text', (c) => c.notNull())
    .addColumn('bill_to_address', 'text')
    .addColumn('declared_value', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('note', 'text')
    .addColumn('on_hold', 'integer', (c) => c.notNull().defaultTo(0))
    .$call(build.stamp('created', { required: true }))
    .addColumn('version', 'integer', build.rowVersion)
    .execute();
  await build.createCompanyListIndex(db, 'storage_accounts', 'created_at').execute();

  await build
    .createCompanyTable(db, 'storage_account_orders')
    .addColumn('account_id', 'integer', build.cascadingReference('storage_accounts'))
    .addColumn('order_id', 'integer', build.cascadingReference('orders'))
    // an order (lot) is billed on one account only
    .addUniqueConstraint('storage_account_orders_order_key', ['company_id', 'order_id'])
    .execute();
  await db.schema
    .createIndex('storage_account_orders_account_idx')
    .on('storage_account_orders')
    .column('account_id')
    .execute();

  await build
    .createCompanyTable(db, 'storage_account_history')
    .addColumn('account_id', 'integer', build.cascadingReference('storage_accounts'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('detail', 'text', (c) => c.notNull())
    .$call(build.stamp('created', { required: true }))
    .execute();
  await db.schema
    .createIndex('storage_account_history_account_idx')
    .on('storage_account_history')
    .column('account_id')
    .execute();

  await build
    .createCompanyTable(db, 'billing_rates')
    // 'storage' | 'handling-in' | 'handling-out' | 'valuation'
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('unit_type', 'text')
    .addColumn('warehouse_id', 'integer', optionalCascade('warehouses'))
    .addColumn('account_id', 'integer', optionalCascade('storage_accounts'))
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('effective_from', 'text', (c) => c.notNull())
    .$call(build.stamp('created', { required: true }))
    .execute();
  await db.schema.createIndex('billing_rates_company_idx').on('billing_rates').column('company_id').execute();

  await build
    .createCompanyTable(db, 'invoices')
    .addColumn('account_id', 'integer', (c) => c.notNull().references('storage_accounts.id'))
    // 'invoice' | 'credit'
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('number', 'integer')
    // 'draft' | 'issued' | 'partly-paid' | 'paid' | 'void'
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('period_start', 'text')
    .addColumn('period_end', 'text')
    // '<account id>:<period start>' for an invoice of a billing run: a period is invoiced once
    .addColumn('billing_key', 'text')
    .addColumn('issue_date', 'text')
    .addColumn('due_date', 'text')
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('subtotal', 'integer', (c) => c.notNull())
    .addColumn('tax', 'integer', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('paid', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('credited', 'integer', (c) => c.notNull().defaultTo(0))
    // a credit note's invoice
    .addColumn('credit_of', 'integer', (c) => c.references('invoices.id'))
    .addColumn('reason', 'text')
    .$call(build.stamp('created', { required: true }))
    .addColumn('version', 'integer', build.rowVersion)
    .addUniqueConstraint('invoices_number_key', ['company_id', 'number'])
    .addUniqueConstraint('invoices_billing_key', ['company_id', 'billing_key'])
    .execute();
  await db.schema
    .createIndex('invoices_account_idx')
    .on('invoices')
    .columns(['account_id', 'created_at'])
    .execute();

  await build
    .createCompanyTable(db, 'invoice_lines')
    .addColumn('invoice_id', 'integer', build.cascadingReference('invoices'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    // 'customer' (on the invoice) | 'agency' (on the agency statement)
    .addColumn('payer', 'text', (c) => c.notNull())
    // the vault the line is for (no foreign key: the invoice outlives it)
    .addColumn('unit_id', 'integer')
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('from_day', 'text', (c) => c.notNull())
    .addColumn('to_day', 'text', (c) => c.notNull())
    .addColumn('rate', 'integer', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('tax', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('invoice_lines_invoice_idx').on('invoice_lines').column('invoice_id').execute();

  await build
    .createCompanyTable(db, 'payments')
    .addColumn('account_id', 'integer', (c) => c.notNull().references('storage_accounts.id'))
    .addColumn('paid_on', 'text', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('reference', 'text')
    .$call(build.stamp('created', { required: true }))
    .execute();
  await db.schema.createIndex('payments_account_idx').on('payments').column('account_id').execute();

  await build
    .createCompanyTable(db, 'payment_allocations')
    .addColumn('payment_id', 'integer', build.cascadingReference('payments'))
    .addColumn('invoice_id', 'integer', build.cascadingReference('invoices'))
    .addColumn('amount', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('payment_allocations_invoice_idx')
    .on('payment_allocations')
    .column('invoice_id')
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
