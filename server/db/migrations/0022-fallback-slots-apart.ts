import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Decision 014: a connection of the app takes its slot of the kept counts from a sequence (0-63, migration 0016). A
// connection without one (psql, a script, or the app's first connection of a new database, opened before that
// sequence existed) fell back to its process id modulo 64, so it could share a slot with one of the app's: then the
// two wait on each other's counts row until commit, and a transaction held open on one stops the other's writes. The
// fallback slots are now 64-127, apart from the app's.

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql
    .raw(
      `create or replace function wm_slot() returns integer language sql stable as $$
        select coalesce(nullif(current_setting('wm.slot', true), '')::integer, 64 + pg_backend_pid() % 64)
      $$`,
    )
    .execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
