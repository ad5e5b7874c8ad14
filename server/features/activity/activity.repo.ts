import type { ActivityQuery } from '../../../domain/schemas/activity.schema';
import type { Db } from '../../db/database';

const EVENT_COLUMNS = [
  'id',
  'created_at',
  'kind',
  'entity_type',
  'entity_id',
  'user_id',
  'actor',
  'warehouse_id',
  'warehouse_name',
  'subject',
  'customer',
  'payload',
] as const;

/**
 * One page of the company's history, newest first, after `cursor` (an event id). Every filter is an equality on an
 * indexed column ending in the id (migration 0006), so the first page reads about as many rows as it shows.
 */
export async function findActivity(db: Db, companyId: number, query: ActivityQuery, limit: number) {
  const ids = await idRangeOf(db, companyId, query);
  if (ids === null) return [];
  return activitySelect(db, companyId, query, ids, limit).execute();
}

/** The page's query once the date range is a range of ids (the history bench explains it on both engines). */
export function activitySelect(
  db: Db,
  companyId: number,
  query: ActivityQuery,
  ids: { low?: number; high?: number },
  limit: number,
) {
  let select = db.selectFrom('events').select(EVENT_COLUMNS).where('company_id', '=', companyId);
  if (query.warehouse !== undefined) select = select.where('warehouse_id', '=', query.warehouse);
  if (query.member !== undefined) select = select.where('user_id', '=', query.member);
  if (query.kind !== undefined)
    select = query.kind.includes('.')
      ? select.where('kind', '=', query.kind)
      : select.where('entity_type', '=', query.kind);
  if (query.from !== undefined) select = select.where('created_at', '>=', startOf(query.from));
  if (query.to !== undefined) select = select.where('created_at', '<=', endOf(query.to));
  if (ids.low !== undefined) select = select.where('id', '>=', ids.low);
  if (ids.high !== undefined) select = select.where('id', '<=', ids.high);
  if (query.q !== undefined) {
    const q = query.q;
    select = select.where((eb) => eb.or([eb('subject', '=', q), eb('customer', '=', q.toUpperCase())]));
  }
  if (query.cursor !== undefined) select = select.where('id', '<', query.cursor);
  return select.orderBy('id', 'desc').limit(limit);
}
const startOf = (day: string) => `${day}T00:00:00.000Z`;
const endOf = (day: string) => `${day}T23:59:59.999Z`;

/**
 * The ids a date range spans, read through the (company, created_at) index: the log is appended in time order, so
 * the range narrows every other filter's index to the ids of those days. null when nothing falls in the range.
 */
export async function idRangeOf(
  db: Db,
  companyId: number,
  query: ActivityQuery,
): Promise<{ low?: number; high?: number } | null> {
  const range: { low?: number; high?: number } = {};
  if (query.from !== undefined) {
    const first = await db
      .selectFrom('events')
      .select('id')
      .where('company_id', '=', companyId)
      .where('created_at', '>=', startOf(query.from))
      .orderBy('created_at')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    if (!first) return null;
    range.low = Number(first.id);
  }
  if (query.to !== undefined) {
    const last = await db
      .selectFrom('events')
      .select('id')
      .where('company_id', '=', companyId)
      .where('created_at', '<=', endOf(query.to))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!last) return null;
    range.high = Number(last.id);
  }
  return range;
}

export type ActivityRow = Awaited<ReturnType<typeof findActivity>>[number];

/** Everything recorded about one vault (or pallet), newest first; it outlives the vault. */
export async function findEntityHistory(db: Db, companyId: number, entityType: string, entityId: number) {
  return db
    .selectFrom('events')
    .select(EVENT_COLUMNS)
    .where('company_id', '=', companyId)
    .where('entity_type', '=', entityType)
    .where('entity_id', '=', entityId)
    .orderBy('id', 'desc')
    .limit(1000)
    .execute();
}

export async function listMemberNames(db: Db, companyId: number) {
  return db
    .selectFrom('users')
    .select(['id', 'username'])
    .where('company_id', '=', companyId)
    .orderBy('username')
    .execute();
}
