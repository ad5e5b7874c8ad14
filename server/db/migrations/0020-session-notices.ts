import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Decision 024: on PostgreSQL each server process keeps the sessions it looked up for a short while
// (server/auth/session-cache.ts). Whatever ends a session or changes what a session says of its member (a sign-out,
// a password change or reset, a deactivation, a new role or name, a company renamed) tells every process at its
// commit, on the channel 'wm_sessions', whatever process or tool made it: the member's id, or '' for everyone.
// SQLite looks its sessions up in the process on every request; nothing changes there.

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  const statements = [
    `create function wm_session_ended() returns trigger language plpgsql as $$
      begin perform pg_notify('wm_sessions', old.user_id::text); return null; end $$`,
    `create trigger sessions_ended after delete on sessions for each row execute function wm_session_ended()`,
    `create function wm_member_changed() returns trigger language plpgsql as $$
      begin perform pg_notify('wm_sessions', old.id::text); return null; end $$`,
    // the sign-in time is not part of a session's member, so it sends nothing
    `create trigger users_changed after update of email, username, role, company_id, active, password_hash or delete
      on users for each row execute function wm_member_changed()`,
    `create function wm_company_renamed() returns trigger language plpgsql as $$
      begin perform pg_notify('wm_sessions', ''); return null; end $$`,
    `create trigger companies_renamed after update of name on companies
      for each row execute function wm_company_renamed()`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
