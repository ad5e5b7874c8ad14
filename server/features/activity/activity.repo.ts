import type { ActivityQuery } from '../../../domain/schemas/activity.schema';
import type { Db } from '../../db/database';

const EVENT_COLUMNS = [
  'e.id',
  'e.created_at',
  'e.kind',
  'e.entity_type',
  'e.entity_id',
  'e.user_id',
  'e.actor',
  'e.warehouse_id',
  'e.warehouse_name',
  'e.subject',
  'e.customer',
  'e.payload',
] as const;

/**
 * The company's events found through their search keys (migration 0017: every filter is an equality on an indexed
 * column ending in the event's id), each joined to its row. Complete once `indexEventTail` ran (the service does).
 */
const searchEvents = (db: Db, companyId: number) =>
  db
    .selectFrom('event_search as s')
    .innerJoin('events as e', 'e.id', 's.event_id')
    .select(EVENT_COLUMNS)
    .where('s.company_id', '=', companyId);

/** One page of the company's history, newest first, after `cursor` (an event id): about as many rows read as shown. */
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
  let select = searchEvents(db, companyId);
  if (query.warehouse !== undefined) select = select.where('s.warehouse_id', '=', query.warehouse);
  if (query.member !== undefined) select = select.where('s.user_id', '=', query.member);
  if (query.kind !== undefined)
    select = query.kind.includes('.')
      ? select.where('s.kind', '=', query.kind)
      : select.where('s.entity_type', '=', query.kind);
  if (query.from !== undefined) select = select.where('s.created_at', '>=', startOf(query.from));
  if (query.to !== undefined) select = select.where('s.created_at', '<=', endOf(query.to));
  if (ids.low !== undefined) select = select.where('s.event_id', '>=', ids.low);
  if (ids.high !== undefined) select = select.where('s.event_id', '<=', ids.high);
  if (query.q !== undefined) {
    const q = query.q;
    select = select.where((eb) => eb.or([eb('s.subject', '=', q), eb('s.customer', '=', q.toUpperCase())]));
  }
  if (query.cursor !== undefined) select = select.where('s.event_id', '<', query.cursor);
  return select.orderBy('s.event_id', 'desc').limit(limit);
}
const startOf = (day: string) => `${day}T00:00:00.000Z`;
const endOf = (day: string) => `${day}T23:59:59.999Z`;

/**
 * The ids a date range spans, read through the (company, created_at) index of the search keys: the log is appended in time order, so
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
      .selectFrom('event_search')
      .select('event_id')
      .where('company_id', '=', companyId)
      .where('created_at', '>=', startOf(query.from))
      .orderBy('created_at')
      .orderBy('event_id')
      .limit(1)
      .executeTakeFirst();
    if (!first) return null;
    range.low = Number(first.event_id);
  }
  if (query.to !== undefined) {
    const last = await db
      .selectFrom('event_search')
      .select('event_id')
      .where('company_id', '=', companyId)
      .where('created_at', '<=', endOf(query.to))
      .orderBy('created_at', 'desc')
      .orderBy('event_id', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!last) return null;
    range.high = Number(last.event_id);
  }
  return range;
}

export type ActivityRow = Awaited<ReturnType<typeof findActivity>>[number];

/** Everything recorded about one vault (or pallet), newest first; it outlives the vault. */
export async function findEntityHistory(db: Db, companyId: number, entityType: string, entityId: number) {
  return searchEvents(db, companyId)
    .where('s.entity_type', '=', entityType)
    .where('s.entity_id', '=', entityId)
    .orderBy('s.event_id', 'desc')
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
