import { CompiledQuery, type Insertable, type RawBuilder, sql } from 'kysely';
import type { DatabaseHandle, Db } from '../server/db/database';
import type { Database } from '../server/db/schema';
import { SEARCH_COLUMNS } from '../server/events/event-search.repo';

type Engine = 'sqlite' | 'postgres';
type EventRow = Insertable<Database['events']>;

const EVENT_COLUMNS = [
  'company_id',
  'user_id',
  'actor',
  'kind',
  'entity_type',
  'entity_id',
  'warehouse_id',
  'warehouse_name',
  'subject',
  'customer',
  'payload',
  'created_at',
] as const;

/**
 * Loads a large log the way a bulk load is done: the secondary indexes of the events table and of its search keys
 * (event_search) are dropped and built again after the rows are in (one sorted build instead of a million random
 * inserts into each), and the events' triggers (the warehouse revision, the live feed's NOTIFY and on PostgreSQL the
 * search keys' copy, which the load makes itself) are off meanwhile. The index and trigger definitions are read from
 * the database itself, so the bench measures exactly the schema the migrations made.
 */
export async function bulkLoadEvents(
  database: DatabaseHandle,
  load: (insert: (rows: EventRow[]) => Promise<void>) => Promise<void>,
): Promise<void> {
  const { db, engine, sqlite } = database;
  if (engine === 'sqlite') {
    if (!sqlite) throw new Error('the SQLite handle has no driver connection');
    const { rows: objects } = await sql<{ type: string; name: string; sql: string }>`
      select type, name, sql from sqlite_master
      where tbl_name in ('events', 'event_search') and type in ('index', 'trigger') and sql is not null`.execute(
      db,
    );
    for (const o of objects) await sql.raw(`drop ${o.type} ${o.name}`).execute(db);
    await sql`pragma cache_size = -262144`.execute(db);
    // one prepared statement run per row on the driver itself, a transaction per batch (building a query of
    // thousands of rows costs more than running it)
    const insert = sqlite.prepare(
      `insert into events (${EVENT_COLUMNS.join(', ')}) values (${EVENT_COLUMNS.map(() => '?').join(', ')})`,
    );
    const insertAll = sqlite.transaction((rows: EventRow[]) => {
      for (const row of rows) insert.run(EVENT_COLUMNS.map((column) => row[column] ?? null));
    });
    await load(async (rows) => {
      insertAll(rows);
    });
    await copySearchKeys(db);
    for (const o of objects.filter((x) => x.type === 'index')) await sql.raw(o.sql).execute(db);
    for (const o of objects.filter((x) => x.type === 'trigger')) await sql.raw(o.sql).execute(db);
    return;
  }
  const { rows: indexes } = await sql<{ indexname: string; indexdef: string }>`
    select i.indexname, i.indexdef from pg_indexes i
    where i.schemaname = current_schema() and i.tablename in ('events', 'event_search')
      and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`.execute(db);
  for (const index of indexes) await sql.raw(`drop index ${index.indexname}`).execute(db);
  await sql`alter table events disable trigger user`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      await load((rows) => insertPostgres(trx, rows));
      await copySearchKeys(trx);
      // every loaded event is indexed and nothing else writes: the mark (decision 021) stands at the last one
      await sql`update event_search_progress set indexed_through = (select coalesce(max(event_id), 0) from event_search),
        pending_through = null, pending_xid = null`.execute(trx);
    });
  } finally {
    await sql`alter table events enable trigger user`.execute(db);
  }
  await db.transaction().execute(async (trx) => {
    await sql`set local maintenance_work_mem = '256MB'`.execute(trx);
    for (const index of indexes) await sql.raw(index.indexdef).execute(trx);
  });
}

/** The search keys of every loaded event, in one statement (the app indexes a tail in batches). */
async function copySearchKeys(db: Db): Promise<void> {
  const columns = SEARCH_COLUMNS.join(', ');
  await sql
    .raw(`insert into event_search (event_id, ${columns}) select id, ${columns} from events order by id`)
    .execute(db);
}

/** PostgreSQL: one statement per batch, each column sent as one array and spread into rows by unnest. */
async function insertPostgres(db: Db, rows: EventRow[]): Promise<void> {
  const column = <T>(pick: (row: EventRow) => T) => rows.map(pick);
  const ints = (values: unknown[]): RawBuilder<unknown> => sql`${values}::integer[]`;
  const texts = (values: unknown[]): RawBuilder<unknown> => sql`${values}::text[]`;
  await sql`
    insert into events (${sql.raw(EVENT_COLUMNS.join(', '))})
    select * from unnest(
      ${ints(column((r) => r.company_id))}, ${ints(column((r) => r.user_id ?? null))},
      ${texts(column((r) => r.actor ?? null))}, ${texts(column((r) => r.kind))},
      ${texts(column((r) => r.entity_type))}, ${ints(column((r) => r.entity_id ?? null))},
      ${ints(column((r) => r.warehouse_id ?? null))}, ${texts(column((r) => r.warehouse_name ?? null))},
      ${texts(column((r) => r.subject ?? null))}, ${texts(column((r) => r.customer ?? null))},
      ${texts(column((r) => r.payload ?? null))}, ${texts(column((r) => r.created_at))})`.execute(db);
}

/** How the engine runs a query: SQLite's query plan or PostgreSQL's EXPLAIN (ANALYZE), one line per step. */
export async function explain(
  db: Db,
  engine: Engine,
  query: { sql: string; parameters: readonly unknown[] },
) {
  const prefix = engine === 'sqlite' ? 'explain query plan ' : 'explain (analyze, costs off, timing off) ';
  const { rows } = await db.executeQuery<Record<string, unknown>>(
    CompiledQuery.raw(prefix + query.sql, [...query.parameters]),
  );
  return rows.map((row) => String(engine === 'sqlite' ? row.detail : row['QUERY PLAN']));
}

export async function insertWarehouseRows(db: Db, rows: Insertable<Database['warehouses']>[]) {
  return db.insertInto('warehouses').values(rows).returning('id').execute();
}

export async function insertUserRows(db: Db, rows: Insertable<Database['users']>[]) {
  return db.insertInto('users').values(rows).returning('id').execute();
}

/** Refreshes the planner's statistics after the bulk load, as a database in service has them. */
export async function analyze(db: Db, engine: Engine) {
  await sql`analyze`.execute(db);
  if (engine === 'sqlite') await sql`pragma optimize`.execute(db);
}
