import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Issue 14 (decision 021): on PostgreSQL the search keys of an event leave the event's transaction too. A trigger
// wrote them there (migration 0017) because ids do not become visible in id order on PostgreSQL; instead a mark,
// `indexed_through`, says up to which id every event is indexed or will never exist, and a background catch-up moves
// it only once no transaction that could still hold a lower id is running (server/events/event-search.repo.ts).
// The table exists on both engines (one schema); SQLite keeps its own rule (ids commit in order there) and never
// reads it.

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const pgsql = isPostgres(db);
  await db.schema
    .createTable('event_search_progress')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('indexed_through', pgsql ? 'bigint' : 'integer', (c) => c.notNull())
    // a mark to move to once every transaction older than pending_xid has ended (both null: none)
    .addColumn('pending_through', pgsql ? 'bigint' : 'integer')
    .addColumn('pending_xid', pgsql ? 'bigint' : 'integer')
    .execute();

  if (pgsql) {
    // dropping the trigger locks the events table against every writer: the transactions that inserted events before
    // have ended (each event indexed by the trigger), and the ones after wait for this commit, so their ids are higher
    // than any indexed id; the highest indexed id is a true mark
    await sql`drop trigger events_searchable on events`.execute(db);
    await sql`drop function wm_event_searchable()`.execute(db);
    // An event's id is taken from its sequence before the insert gives the transaction its id (xid), so for a
    // moment a transaction holds an event id without an xid, invisible to the catch-up's test of which transactions
    // are still running. The id's default now gives the transaction its xid first (an insert needs one anyway); the
    // identity becomes a sequence of its own that goes on from the same value.
    await sql
      .raw(
        `do $$
        declare
          identity regclass := pg_get_serial_sequence('events', 'id')::regclass;
          next_id bigint;
        begin
          execute format('select case when is_called then last_value + 1 else last_value end from %s', identity)
            into next_id;
          alter table events alter column id drop identity;
          create sequence events_id_seq as integer owned by events.id;
          perform setval('events_id_seq', greatest(next_id, coalesce((select max(id) + 1 from events), 1)), false);
          alter table events alter column id
            set default (case when pg_current_xact_id() is not null then nextval('events_id_seq') end);
        end $$`,
      )
      .execute(db);
  }
  await sql`insert into event_search_progress (id, indexed_through)
    select 1, coalesce(max(event_id), 0) from event_search`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
