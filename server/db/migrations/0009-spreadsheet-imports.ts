import { type CreateTableBuilder, type Kysely, PostgresAdapter } from 'kysely';

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
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
