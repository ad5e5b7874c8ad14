import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Decision 025: on PostgreSQL a foreign key is checked by a query of its own for every row inserted, which locks the
// referenced row (a WAL record, and a multixact when other transactions hold it too). Every write records an event,
// and its company and member references were two such checks on the two rows every writer of a company shares. Events
// are written only by the server, with the company and member of the signed-in session, and companies and members are
// never deleted (members are deactivated, and history keeps their names); the event log keeps its references as plain
// columns. SQLite checks a foreign key with an index lookup in the process; nothing changes there.

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  const { rows } = await sql<{ name: string }>`
    select conname as name from pg_constraint where conrelid = 'events'::regclass and contype = 'f'`.execute(
    db,
  );
  for (const { name } of rows) await sql`alter table events drop constraint ${sql.id(name)}`.execute(db);
  // the member index served the member reference's delete action only (migration 0002); the history's member filter
  // reads event_search
  await sql`drop index events_user_idx`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
