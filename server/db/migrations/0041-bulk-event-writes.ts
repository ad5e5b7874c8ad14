import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Issue 25: a company file brings a company's whole history in one transaction. On PostgreSQL every event with a
// warehouse moved that warehouse's revision on (migration 0010's wm_event_recorded), so 500,000 events updated the
// same few rows 500,000 times, each update walking a chain of versions that grows until the commit: the import of a
// full-size company slowed down with every batch and had not finished after 45 minutes. A bulk write (the company
// file's import, like the spreadsheet import of migration 0009) sets `wm.bulk_vaults` for its own transaction only;
// its events then leave the revisions alone, and the bulk write moves them on once at the end.

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`drop trigger events_recorded on events`.execute(db);
  await sql
    .raw(
      `create trigger events_recorded after insert on events for each row
      when (new.warehouse_id is not null and coalesce(current_setting('wm.bulk_vaults', true), '') <> 'on')
      execute function wm_event_recorded()`,
    )
    .execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
