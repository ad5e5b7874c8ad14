import { type ColumnDefinitionBuilder, type Kysely, PostgresAdapter } from 'kysely';

// Issue 16: pull lists (the vaults of an order or a customer to take out, and the vaults set aside while doing it),
// and released vaults, which leave the warehouse but stay in history and search with the date and who released them.
// A vault is released from the stage (pulled first), so it has no field any more and the warehouse counts of
// migration 0005 are already right; the stage revision moves with the update like any staged vault's change.

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const pgsql = isPostgres(db);
  const company = (c: ColumnDefinitionBuilder) => c.notNull().references('companies.id').onDelete('cascade');
  const id = (c: ColumnDefinitionBuilder) =>
    pgsql ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();

  await db.schema.alterTable('vaults').addColumn('released_at', 'text').execute();
  await db.schema.alterTable('vaults').addColumn('released_by', 'text').execute();

  await db.schema
    .createTable('pull_lists')
    .addColumn('id', 'integer', id)
    .addColumn('company_id', 'integer', company)
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'integer', (c) => c.references('customers.id').onDelete('set null'))
    .addColumn('order_id', 'integer', (c) => c.references('orders.id').onDelete('set null'))
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('released_at', 'text')
    .addColumn('released_by', 'text')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .createIndex('pull_lists_company_idx')
    .on('pull_lists')
    .columns(['company_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('pull_list_items')
    .addColumn('id', 'integer', id)
    .addColumn('company_id', 'integer', company)
    .addColumn('pull_list_id', 'integer', (c) => c.notNull().references('pull_lists.id').onDelete('cascade'))
    .addColumn('vault_id', 'integer', (c) => c.notNull().references('vaults.id').onDelete('cascade'))
    // 'pull': a vault of the order or customer; 'in-the-way': a vault set aside to reach one
    .addColumn('role', 'text', (c) => c.notNull())
    // pull: 'todo' | 'pulled'; in-the-way: 'set-aside' | 'put-back'
    .addColumn('state', 'text', (c) => c.notNull())
    // where a set-aside vault came from, so it can go back there
    .addColumn('from_field_id', 'integer', (c) => c.references('fields.id').onDelete('set null'))
    .addColumn('from_position', 'integer')
    .addColumn('done_by', 'text')
    .addColumn('done_at', 'text')
    .addUniqueConstraint('pull_list_items_vault_key', ['pull_list_id', 'vault_id'])
    .execute();
  await db.schema.createIndex('pull_list_items_vault_idx').on('pull_list_items').column('vault_id').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
