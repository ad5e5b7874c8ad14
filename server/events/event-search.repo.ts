import { PostgresAdapter, sql } from 'kysely';
import type { Db } from '../db/database';

// The search keys of the events (migrations 0017 and 0019, decision 021). The writes only append events; the keys are
// written shortly after writes (a background catch-up) and by every read of the history before it queries.
// SQLite: ids commit in order, so the events after the highest indexed id are exactly the ones still to index.
// PostgreSQL: ids do not commit in order (a transaction can hold id 10 uncommitted while id 11 commits), so a mark
// (event_search_progress.indexed_through) says up to where every event is indexed or will never exist; a read indexes
// every visible event above it that is not indexed yet, and only the background catch-up moves the mark, once no
// transaction that could still hold a lower id is running.

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

const isPostgres = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;

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
  if (isPostgres(db)) return indexAboveMark(db);
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

// the mark, bounding both sides: without it on the search keys' side, PostgreSQL merges the few events above the mark
// with the whole primary key of the search keys (about 190 ms at 1,000,000 events instead of 0.1); without the row
// (never, after migration 0019) everything not indexed is, slowly but completely
const MARK = 'coalesce((select indexed_through from event_search_progress where id = 1), 0)';

/**
 * PostgreSQL: indexes every event this statement sees above the mark that is not indexed yet, in one statement without
 * a lock. Its snapshot is taken after the read was asked for, so every event committed before it is then indexed (the
 * ones up to the mark already are). Two at once: the second waits for the first's row and skips it (on conflict); in
 * id order, so two of them never wait for each other crosswise.
 */
async function indexAboveMark(db: Db): Promise<number> {
  const columns = SEARCH_COLUMNS.join(', ');
  const result = await sql
    .raw(
      `insert into event_search (event_id, ${columns})
      select e.id, ${SEARCH_COLUMNS.map((column) => `e.${column}`).join(', ')} from events e
      where e.id > ${MARK} and not exists (select 1 from event_search s where s.event_id = e.id and s.event_id > ${MARK})
      order by e.id
      on conflict (event_id) do nothing`,
    )
    .execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** Whether the background catch-up moved the mark as far as it can now, or must look again shortly. */
export type MarkProgress = 'done' | 'pending' | 'busy';

// the advisory lock that lets one catch-up at a time move the mark, whatever the number of server processes
const MARK_LOCK_KEY = 0x776d_0021;

/**
 * PostgreSQL: the background catch-up. Indexes what is above the mark (like a read) and moves the mark, in one
 * transaction that only one process at a time runs (an advisory lock; another one at it answers 'busy').
 *
 * The mark cannot simply move to the highest id seen: a transaction still running may hold a lower id. So a catch-up
 * notes a pending mark, the highest visible id P, with an xid X taken after its snapshot; a later catch-up whose
 * snapshot has no running transaction older than X (its xmin >= X) moves the mark to P. Why that holds: an id <= P
 * was taken before P was, so before that snapshot; the id's default gives the transaction its xid before it takes the
 * id (migration 0019), so that xid is lower than X; with xmin >= X the transaction has ended, and the insert that
 * follows the check sees its events if it committed. An unresolved pending is kept, not replaced by a newer one
 * (which could wait forever under constant writes). Answers 'pending' while a pending mark is left.
 */
export async function advanceIndexMark(db: Db): Promise<MarkProgress> {
  return db.transaction().execute(async (trx) => {
    const locked = await sql<{
      locked: boolean;
    }>`select pg_try_advisory_xact_lock(${MARK_LOCK_KEY}) as locked`
      .execute(trx)
      .then((result) => result.rows[0]?.locked === true);
    if (!locked) return 'busy';
    // the mark, the highest id and the oldest running xid, all of one snapshot
    const now = await sql<{
      indexed_through: number;
      pending_through: number | null;
      pending_xid: number | null;
      highest: number;
      oldest_running: number;
    }>`select p.indexed_through, p.pending_through, p.pending_xid,
        (select coalesce(max(id), 0) from events) as highest,
        pg_snapshot_xmin(pg_current_snapshot())::text::bigint as oldest_running
      from event_search_progress p where p.id = 1`
      .execute(trx)
      .then((result) => result.rows[0]);
    if (!now) throw new Error('event_search_progress has no row (migration 0019)');
    await indexAboveMark(trx);

    let through = now.indexed_through;
    let pending = now.pending_through;
    if (pending !== null && now.pending_xid !== null && now.oldest_running >= now.pending_xid) {
      through = Math.max(through, pending);
      pending = null;
    }
    if (pending === null && now.highest > through) pending = now.highest;
    if (through === now.indexed_through && pending === now.pending_through)
      return pending === null ? 'done' : 'pending';
    // a new pending takes this transaction's xid, given after the snapshot above
    await sql`update event_search_progress set indexed_through = ${through}::bigint,
        pending_through = ${pending}::bigint,
        pending_xid = case when ${pending}::bigint is null then null else pg_current_xact_id()::text::bigint end
      where id = 1`.execute(trx);
    return pending === null ? 'done' : 'pending';
  });
}
