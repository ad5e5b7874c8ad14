import { PostgresAdapter } from 'kysely';
import type { Db } from '../db/database';

// The search keys of the events (migration 0017, decision 021). On PostgreSQL a trigger writes them with the event;
// on SQLite the writes only append events and the tail (events after the highest indexed id; ids commit in order
// there) is indexed in batches: shortly after writes, and by every read of the history before it queries.

/** What event_search copies of an event (besides its id, event_id). */
export const SEARCH_COLUMNS = [
  'company_id',
  'warehouse_id',
  'user_id',
  'kind',
  'entity_type',
  'entity_id',
  'subject',
  'customer',
  'created_at',
] as const;

/** Events indexed per statement: a short write lock, and a long tail in a few of them. */
const TAIL_BATCH = 2_000;

const filledByTrigger = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;

const highestIndexed = (db: Db) =>
  db.selectFrom('event_search').select((eb) => eb.fn.coalesce(eb.fn.max('event_id'), eb.lit(0)).as('id'));

async function hasTail(db: Db): Promise<boolean> {
  const row = await db
    .selectFrom('events')
    .select('id')
    .where('id', '>', highestIndexed(db))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Indexes up to one batch of the tail; answers how many events it indexed. */
async function indexTailBatch(db: Db): Promise<number> {
  const result = await db
    .insertInto('event_search')
    .columns(['event_id', ...SEARCH_COLUMNS])
    .expression(
      db
        .selectFrom('events')
        .select(['id', ...SEARCH_COLUMNS])
        .where('id', '>', highestIndexed(db))
        .orderBy('id')
        .limit(TAIL_BATCH),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

/**
 * Makes every event committed so far findable by the history's filters; answers how many it indexed. Inside a
 * transaction it indexes in that transaction (which then also sees its own events); otherwise one short write
 * transaction per batch, taken only when there is a tail, so a read of an indexed history writes nothing.
 */
export async function indexEventTail(db: Db): Promise<number> {
  if (filledByTrigger(db)) return 0;
  let indexed = 0;
  for (;;) {
    if (!(await hasTail(db))) return indexed;
    const batch = db.isTransaction
      ? await indexTailBatch(db)
      : await db.transaction().execute((trx) => indexTailBatch(trx));
    indexed += batch;
    if (batch < TAIL_BATCH) return indexed;
  }
}
