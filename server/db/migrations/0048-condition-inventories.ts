import type { Kysely } from 'kysely';
import * as build from './company-tables';

// Issue 29, point 5: a unit's condition inventory (decision 049).
// - inventory_codes: the company's own condition codes beside the movers' standard ones (domain/rules/inventory.ts).
// - inventories: at most one per unit, with who signed it at pickup and at delivery and when.
// - inventory_items: numbered items (the sticker number is unique within the unit), their codes as one text of
//   codes separated by spaces, the high-value flag and the delivery tick with who and when.
// - attachments: photos and signature images are attachments of the unit, linked to its inventory (and an item)
//   with their role; they go with the inventory or the item.

export async function up(db: Kysely<unknown>): Promise<void> {
  await build
    .createCompanyTable(db, 'inventory_codes')
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('meaning', 'text', (c) => c.notNull())
    .$call(build.stamp('created', { required: true }))
    .execute();
  await db.schema
    .createIndex('inventory_codes_code_idx')
    .on('inventory_codes')
    .columns(['company_id', 'code'])
    .unique()
    .execute();

  await build
    .createCompanyTable(db, 'inventories')
    .addColumn('vault_id', 'integer', (c) => build.cascadingReference('vaults')(c).unique())
    .addColumn('pickup_signer', 'text')
    .addColumn('pickup_signed_at', 'text')
    .addColumn('delivery_signer', 'text')
    .addColumn('delivery_signed_at', 'text')
    .$call(build.stamp('created', { required: true }))
    .execute();

  await build
    .createCompanyTable(db, 'inventory_items')
    .addColumn('inventory_id', 'integer', build.cascadingReference('inventories'))
    .addColumn('sticker', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('room', 'text')
    .addColumn('codes', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('high_value', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('delivered_by', 'text')
    .addColumn('delivered_at', 'text')
    .$call(build.stamp('created', { required: true }))
    .execute();
  await db.schema
    .createIndex('inventory_items_sticker_idx')
    .on('inventory_items')
    .columns(['inventory_id', 'sticker'])
    .unique()
    .execute();

  await db.schema
    .alterTable('attachments')
    .addColumn('inventory_id', 'integer', (c) => c.references('inventories.id').onDelete('cascade'))
    .execute();
  await db.schema
    .alterTable('attachments')
    .addColumn('inventory_item_id', 'integer', (c) => c.references('inventory_items.id').onDelete('cascade'))
    .execute();
  // 'photo' | 'pickup' | 'delivery' (the two signatures); null for a vault's own attachments
  await db.schema.alterTable('attachments').addColumn('inventory_role', 'text').execute();
  await db.schema.createIndex('attachments_inventory_idx').on('attachments').column('inventory_id').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
