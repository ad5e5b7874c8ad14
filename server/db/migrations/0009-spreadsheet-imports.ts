import { type CreateTableBuilder, type Kysely, PostgresAdapter, sql } from 'kysely';

type Table = CreateTableBuilder<string, never>;

// Issue 17: every spreadsheet import is recorded (who, when, which file, how many rows) with the ids of the vaults or
// pallets it created, so it can be undone while none of them has changed since. The items carry no foreign key: a
// vault deleted later must not take the record of its import with it (its absence is what blocks the undo).
export async function up(db: Kysely<unknown>): Promise<void> {
  const pgsql = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = (t: Table): Table =>
    pgsql
      ? t.addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
      : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());

  await id(db.schema.createTable('imports'))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('row_count', 'integer', (c) => c.notNull())
    .addColumn('placed_count', 'integer', (c) => c.notNull())
    .addColumn('staged_count', 'integer', (c) => c.notNull())
    // JSON array of the ids of the warehouses the import created
    .addColumn('created_warehouses', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('undone_at', 'text')
    .execute();
  await db.schema.createIndex('imports_company_idx').on('imports').columns(['company_id', 'id']).execute();

  await db.schema
    .createTable('import_items')
    .addColumn('import_id', 'integer', (c) => c.notNull().references('imports.id').onDelete('cascade'))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('item_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('import_items_pkey', ['import_id', 'item_id'])
    .execute();

  // PostgreSQL keeps the warehouse counts with a trigger per vault row (migration 0005). 20,000 rows in one
  // transaction would update the same counts row 20,000 times, each update walking the row's growing chain of
  // versions (18 s measured). A bulk write of vaults (an import and its undo) sets `wm.bulk_vaults` for its own
  // transaction only, skips the per-row trigger and recounts the warehouses it touched once at the end.
  if (pgsql) {
    await sql`drop trigger if exists vaults_counted on vaults`.execute(db);
    await sql
      .raw(
        `create trigger vaults_counted after insert or delete on vaults for each row
        when (coalesce(current_setting('wm.bulk_vaults', true), '') <> 'on')
        execute function wm_vaults_changed()`,
      )
      .execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
