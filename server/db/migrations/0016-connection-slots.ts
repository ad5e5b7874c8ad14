import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Issue 11 (decision 014): the slot a PostgreSQL connection adds its count and revision deltas to (migration 0010)
// was its backend's process id modulo 16, so two of a server's ten connections shared a slot more often than not
// and their writers waited for each other's commit. Now every connection the app opens takes the next number of a
// sequence (modulo 64) when it connects (`wm.slot`, set by server/db/database.ts), so up to 64 open connections of
// all server processes never share a slot; a connection that did not set one (psql, a script) falls back to the old
// rule. SQLite keeps slot 0.

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql.raw(`create sequence wm_connection_slots`).execute(db);
  await sql
    .raw(
      `create function wm_slot() returns integer language sql stable as $$
        select coalesce(nullif(current_setting('wm.slot', true), '')::integer, pg_backend_pid() % 64)
      $$`,
    )
    .execute(db);
  // migration 0010's functions with the slot above instead of pg_backend_pid() % 16
  for (const name of ['wm_count_vault', 'wm_stage_changed', 'wm_event_recorded']) {
    const { rows } = await sql<{ definition: string }>`
      select pg_get_functiondef(p.oid) as definition from pg_proc p where p.proname = ${name}`.execute(db);
    const definition = rows[0]!.definition;
    if (!definition.includes('pg_backend_pid() % 16')) throw new Error(`${name} has no slot to replace`);
    await sql.raw(definition.replaceAll('pg_backend_pid() % 16', 'wm_slot()')).execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
