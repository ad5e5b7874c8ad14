import type { Kysely } from 'kysely';
import * as build from './company-tables';

// Issue 16: pull lists (the vaults of an order or a customer to take out, and the vaults set aside while doing it),
// and released vaults, which leave the warehouse but stay in history and search with the date and who released them.
// A vault is released from the stage (pulled first), so it has no field any more and the warehouse counts of
// migration 0005 are already right; the stage revision moves with the update like any staged vault's change.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('vaults').addColumn('released_at', 'text').execute();
  await db.schema.alterTable('vaults').addColumn('released_by', 'text').execute();

  await build
    .createCompanyTable(db, 'pull_lists')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'integer', build.clearedReference('customers'))
    .addColumn('order_id', 'integer', build.clearedReference('orders'))
    .$call(build.stamp('created', { required: true }))
    .addColumn('released_at', 'text')
    .addColumn('released_by', 'text')
    .addColumn('version', 'integer', build.rowVersion)
    .execute();
  await build.createCompanyListIndex(db, 'pull_lists', 'created_at').execute();

  await build
    .createCompanyTable(db, 'pull_list_items')
    .addColumn('pull_list_id', 'integer', build.cascadingReference('pull_lists'))
    .addColumn('vault_id', 'integer', build.cascadingReference('vaults'))
    // 'pull': a vault of the order or customer; 'in-the-way': a vault set aside to reach one
    .addColumn('role', 'text', (c) => c.notNull())
    // pull: 'todo' | 'pulled'; in-the-way: 'set-aside' | 'put-back'
    .addColumn('state', 'text', (c) => c.notNull())
    // where a set-aside vault came from, so it can go back there
    .addColumn('from_field_id', 'integer', build.clearedReference('fields'))
    .addColumn('from_position', 'integer')
    .$call(build.stamp('done'))
    .addUniqueConstraint('pull_list_items_vault_key', ['pull_list_id', 'vault_id'])
    .execute();
  await db.schema.createIndex('pull_list_items_vault_idx').on('pull_list_items').column('vault_id').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
