import type { Kysely } from 'kysely';
import * as build from './company-tables';

// Issue 28 (decision 051): pallets are billed like vaults.
// - pallets.order_id: the order (lot) a pallet belongs to, optional like a vault's; the account of that order bills it.
// - pallet_departures: a pallet leaves the warehouse by being deleted, so the row that knew its order and its move-in
//   goes. The delete writes this row in its transaction (only for a pallet of an order): the pallet's move-out and
//   what billing needs of it afterwards (its order, warehouse, number and move-in). No foreign key to the pallet,
//   which is gone; the order stays while a departure names it.
// - invoice_lines.pallet_id: the pallet a line is for (unit_id names vaults only); no foreign key, the invoice
//   outlives the pallet.
// - billing_settings.auto_billing: whether the billing day's run issues invoices by itself (off until turned on).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('pallets')
    .addColumn('order_id', 'integer', (c) => c.references('orders.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('pallets_order_idx').on('pallets').column('order_id').execute();

  await build
    .createCompanyTable(db, 'pallet_departures')
    .addColumn('pallet_id', 'integer', (c) => c.notNull())
    .addColumn('order_id', 'integer', build.cascadingReference('orders'))
    .addColumn('warehouse_id', 'integer')
    .addColumn('label', 'text')
    .addColumn('moved_in_at', 'text', (c) => c.notNull())
    .$call(build.stamp('moved_out', { required: true }))
    .execute();
  await db.schema
    .createIndex('pallet_departures_order_idx')
    .on('pallet_departures')
    .columns(['company_id', 'order_id'])
    .execute();

  await db.schema.alterTable('invoice_lines').addColumn('pallet_id', 'integer').execute();
  await db.schema
    .alterTable('billing_settings')
    .addColumn('auto_billing', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
