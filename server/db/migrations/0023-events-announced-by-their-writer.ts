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
  await sql
    .raw(
      `create or replace function wm_event_recorded() returns trigger language plpgsql as $$
      begin
        if new.warehouse_id is not null then
          insert into warehouse_stats as s (warehouse_id, company_id, slot, revision)
          select w.id, w.company_id, wm_slot(), 1 from warehouses w where w.id = new.warehouse_id
          on conflict (warehouse_id, slot) do update set revision = s.revision + 1;
        end if;
        return null;
      end $$`,
    )
    .execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
