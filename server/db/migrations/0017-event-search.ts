import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Issue 14 (decision 021): recording an event cost a vault write on SQLite about a third of its time, nearly all of
// it the eight search indexes of migration 0006 (each one more page written at commit). The search keys of an event
// move to their own table, event_search, which carries those indexes; the events table keeps its primary key, the
// (company, id) index of the live feed and the user index of its foreign key. On SQLite the table is filled in
// batches off the write's path (server/events/event-search.repo.ts): ids commit in order there, so the events after
// the highest indexed id are exactly the ones still to index. On PostgreSQL ids do not commit in order, so a trigger
// fills it in the event's own transaction.

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** The columns event_search copies from events (besides the id, its event_id), the same names in both. */
const SEARCH_COLUMNS =
  'company_id, warehouse_id, user_id, kind, entity_type, entity_id, subject, customer, created_at';

export async function up(db: Kysely<unknown>): Promise<void> {
  // derived rows, without foreign keys: events are never deleted or changed, and a check per row would put back on
  // PostgreSQL's write part of what this saves
  await db.schema
    .createTable('event_search')
    .addColumn('event_id', 'integer', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('warehouse_id', 'integer')
    .addColumn('user_id', 'integer')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('entity_type', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'integer')
    .addColumn('subject', 'text')
    .addColumn('customer', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await sql
    .raw(
      `insert into event_search (event_id, ${SEARCH_COLUMNS})
      select id, ${SEARCH_COLUMNS} from events`,
    )
    .execute(db);

  // the Activity page reads newest first within one filter: each filter has an index ending in the event's id, and
  // the page without a filter has the company's
  await db.schema
    .createIndex('event_search_company_idx')
    .on('event_search')
    .columns(['company_id', 'event_id'])
    .execute();
  for (const column of ['warehouse_id', 'user_id', 'kind', 'subject', 'customer', 'entity_type']) {
    await db.schema.dropIndex(`events_company_${column}_idx`).execute();
    await db.schema
      .createIndex(`event_search_company_${column}_idx`)
      .on('event_search')
      .columns(['company_id', column, 'event_id'])
      .execute();
  }
  // a date range becomes a range of ids (events are appended in time order), found through this index
  await db.schema.dropIndex('events_company_created_idx').execute();
  await db.schema
    .createIndex('event_search_company_created_idx')
    .on('event_search')
    .columns(['company_id', 'created_at', 'event_id'])
    .execute();
  // one vault's (or pallet's) timeline, also after it was deleted
  await db.schema.dropIndex('events_company_entity_idx').execute();
  await db.schema
    .createIndex('event_search_company_entity_idx')
    .on('event_search')
    .columns(['company_id', 'entity_type', 'entity_id', 'event_id'])
    .execute();

  if (!isPostgres(db)) return;
  const fromNewRow = SEARCH_COLUMNS.split(', ').map((column) => `new.${column}`);
  const statements = [
    `create function wm_event_searchable() returns trigger language plpgsql as $$
      begin
        insert into event_search (event_id, ${SEARCH_COLUMNS}) values (new.id, ${fromNewRow.join(', ')});
        return null;
      end $$`,
    `create trigger events_searchable after insert on events
      for each row execute function wm_event_searchable()`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
