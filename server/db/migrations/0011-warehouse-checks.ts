import { type ColumnDefinitionBuilder, type Kysely, PostgresAdapter } from 'kysely';

// Issue 15 part 3: the warehouse check (audit). A check covers some fields of one warehouse; for each vault it meets
// one row says in which field it was expected when the check started and in which field it was found, so the same
// vault scanned twice (or by two people at once) counts once, and a report reads every discrepancy from one table.

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const pgsql = isPostgres(db);
  const company = (c: ColumnDefinitionBuilder) => c.notNull().references('companies.id').onDelete('cascade');
  const id = (c: ColumnDefinitionBuilder) =>
    pgsql ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();

  await db.schema
    .createTable('warehouse_checks')
    .addColumn('id', 'integer', id)
    .addColumn('company_id', 'integer', company)
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouses.id').onDelete('cascade'))
    .addColumn('started_by', 'text')
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('finished_by', 'text')
    .addColumn('finished_at', 'text')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .createIndex('warehouse_checks_company_idx')
    .on('warehouse_checks')
    .columns(['company_id', 'started_at'])
    .execute();

  await db.schema
    .createTable('warehouse_check_fields')
    .addColumn('id', 'integer', id)
    .addColumn('company_id', 'integer', company)
    .addColumn('check_id', 'integer', (c) =>
      c.notNull().references('warehouse_checks.id').onDelete('cascade'),
    )
    .addColumn('field_id', 'integer', (c) => c.notNull().references('fields.id').onDelete('cascade'))
    // who opened the field for checking (scanned its label or picked it), and when; null while nobody has
    .addColumn('opened_by', 'text')
    .addColumn('opened_at', 'text')
    .addUniqueConstraint('warehouse_check_fields_key', ['check_id', 'field_id'])
    .execute();

  await db.schema
    .createTable('warehouse_check_vaults')
    .addColumn('id', 'integer', id)
    .addColumn('company_id', 'integer', company)
    .addColumn('check_id', 'integer', (c) =>
      c.notNull().references('warehouse_checks.id').onDelete('cascade'),
    )
    .addColumn('vault_id', 'integer', (c) => c.notNull().references('vaults.id').onDelete('cascade'))
    // where the vault stood when the check started (null: not expected in any covered field)
    .addColumn('expected_field_id', 'integer', (c) => c.references('fields.id').onDelete('set null'))
    // where it was scanned (null: not found yet)
    .addColumn('found_field_id', 'integer', (c) => c.references('fields.id').onDelete('set null'))
    .addColumn('found_by', 'text')
    .addColumn('found_at', 'text')
    // 'moved' (an unexpected vault moved into the field where it was found) or 'searched' (a missing one searched for)
    .addColumn('resolution', 'text')
    .addColumn('resolved_by', 'text')
    .addColumn('resolved_at', 'text')
    .addUniqueConstraint('warehouse_check_vaults_key', ['check_id', 'vault_id'])
    .execute();
  await db.schema
    .createIndex('warehouse_check_vaults_vault_idx')
    .on('warehouse_check_vaults')
    .column('vault_id')
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
