import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Decision 026: on PostgreSQL the insert of every event sent a NOTIFY (migration 0010's wm_event_recorded), which
// PostgreSQL delivers at commit by waking every listening connection, and which makes commits that notify wait for
// each other. At a thousand writes a second that was a wake-up of each server process per write. The process that
// wrote now announces its events itself, at most once per moment for a burst of them (server/events/event-feed.ts);
// the trigger keeps moving the warehouse's revision on.

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  // the function as migrations 0010 and 0016 left it, without its notification
  const notify = `perform pg_notify('wm_events', '');`;
  const { rows } = await sql<{ definition: string }>`
    select pg_get_functiondef(p.oid) as definition from pg_proc p where p.proname = 'wm_event_recorded'`.execute(
    db,
  );
  const definition = rows[0]!.definition;
  if (!definition.includes(notify)) throw new Error('wm_event_recorded sends no notification to take out');
  await sql.raw(definition.replace(notify, '')).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
