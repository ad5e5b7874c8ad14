import { type Kysely, PostgresAdapter } from 'kysely';

// Issue 14 (decision 010): roles and the state of each member, one-time links that invite a member or reset a
// password, and what the history needs to be searched fast. Every existing user becomes a Manager (the column's
// default), so nobody loses a right they had.

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('manager'))
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable('users').addColumn('last_sign_in_at', 'text').execute();

  // a one-time link: only the sha-256 of its token is kept, so the table leaks no usable link
  const table = db.schema.createTable('member_links');
  await (
    isPostgres(db)
      ? table.addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
  )
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text')
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('member_links_company_idx').on('member_links').column('company_id').execute();
  await db.schema.createIndex('member_links_user_idx').on('member_links').column('user_id').execute();

  // the history's search: the vault or pallet number and the customer an event is about, kept as they were
  await db.schema.alterTable('events').addColumn('subject', 'text').execute();
  await db.schema.alterTable('events').addColumn('customer', 'text').execute();
  // the warehouse's name when it happened: the history reads the same after a rename or a delete
  await db.schema.alterTable('events').addColumn('warehouse_name', 'text').execute();
  // the Activity page reads newest first within one filter: each filter has an index ending in the id
  for (const column of ['warehouse_id', 'user_id', 'kind', 'subject', 'customer', 'entity_type']) {
    await db.schema
      .createIndex(`events_company_${column}_idx`)
      .on('events')
      .columns(['company_id', column, 'id'])
      .execute();
  }
  // a date range becomes a range of ids (events are appended in time order), found through this index
  await db.schema
    .createIndex('events_company_created_idx')
    .on('events')
    .columns(['company_id', 'created_at', 'id'])
    .execute();
  // one vault's (or pallet's) timeline, also after it was deleted
  await db.schema
    .createIndex('events_company_entity_idx')
    .on('events')
    .columns(['company_id', 'entity_type', 'entity_id', 'id'])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
