import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Issue 27: the top bar's company-wide find looks vault and pallet numbers up by how they begin, in any case.
// These indexes hold the lower-cased numbers per company, so a lookup reads a range of one company's entries and
// not every vault. On PostgreSQL the key is in byte order ("C"), so a prefix range of it is exact in any locale.

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

const INDEXES = [
  { name: 'vaults_search_name_idx', table: 'vaults', column: 'name' },
  { name: 'pallets_search_name_idx', table: 'pallets', column: 'name' },
  { name: 'pallets_search_number_idx', table: 'pallets', column: 'pallet_number' },
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  const pgsql = isPostgres(db);
  for (const { name, table, column } of INDEXES) {
    const key = pgsql ? `(lower(${column}) collate "C")` : `lower(${column})`;
    await sql.raw(`create index ${name} on ${table} (company_id, ${key})`).execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
