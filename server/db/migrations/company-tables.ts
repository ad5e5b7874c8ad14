import { type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely, PostgresAdapter } from 'kysely';

// Builders shared by migrations 0007 and 0011 (not a migration itself: migrate.ts lists the migrations by name).
// Shipped migrations run through these, so what they produce must never change; a new shape is a new builder
// (decision 019).

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** A new table of a company's rows: an `id` key (an identity on PostgreSQL) and `company_id`, deleted with it. */
export function createCompanyTable(db: Kysely<unknown>, table: string) {
  const pgsql = isPostgres(db);
  return db.schema
    .createTable(table)
    .addColumn('id', 'integer', (c) =>
      pgsql ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
    )
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'));
}

/** A required reference to `table`'s id whose row goes when the referenced one goes. */
export const cascadingReference = (table: string) => (c: ColumnDefinitionBuilder) =>
  c.notNull().references(`${table}.id`).onDelete('cascade');

/** An optional reference to `table`'s id that is cleared when the referenced row goes. */
export const clearedReference = (table: string) => (c: ColumnDefinitionBuilder) =>
  c.references(`${table}.id`).onDelete('set null');

/**
 * Who did something and when: `<what>_by` (the user's name, kept when the user goes) and `<what>_at` (ISO text),
 * in that order; with `required` the time is always set (the row exists only once it happened).
 */
export const stamp =
  (what: string, { required = false } = {}) =>
  (table: CreateTableBuilder<string, string>) =>
    table
      .addColumn(`${what}_by`, 'text')
      .addColumn(`${what}_at`, 'text', (c) => (required ? c.notNull() : c));

/** The row version an optimistic write compares, from 1. */
export const rowVersion = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(1);

/** The `<table>_company_idx` index a company's list of rows is read by, newest by `timeColumn`. */
export function createCompanyListIndex(db: Kysely<unknown>, table: string, timeColumn: string) {
  return db.schema.createIndex(`${table}_company_idx`).on(table).columns(['company_id', timeColumn]);
}
