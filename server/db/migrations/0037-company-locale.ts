import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Issue 27: a company shows its dates and numbers in one locale, 'en-US' until a Manager picks another. The
// session carries it (SESSION_USER_COLUMNS), so on PostgreSQL a change of it must reach the session caches of every
// process as a rename does (migration 0020, decision 024).

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('companies')
    .addColumn('locale', 'text', (col) => col.notNull().defaultTo('en-US'))
    .execute();
  if (!isPostgres(db)) return;
  await sql.raw('drop trigger companies_renamed on companies').execute(db);
  await sql
    .raw(
      `create trigger companies_renamed after update of name, locale on companies
        for each row execute function wm_company_renamed()`,
    )
    .execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
