import type { ActivityQuery } from '@domain/schemas/activity.schema';
import type { Db } from '../../db/database';
import { naturalCompare } from '@domain/rules/text';

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
 * The company's search keys (migration 0017: every filter is an equality on an indexed column ending in the event's
 * id). Complete once `indexEventTail` ran (the service does).
 */
const searchKeys = (db: Db, companyId: number) =>
  db.selectFrom('event_search').select('event_id').where('company_id', '=', companyId);

/**
 * The events a newest-first, limited search of the keys found, newest first. The ids are found first and the rows
 * read by primary key after, so neither engine can plan a walk along the events' primary key instead.
 */
const eventsOf = (db: Db, companyId: number, found: ReturnType<typeof searchKeys>) =>
  db
    .selectFrom('events')
    .select(EVENT_COLUMNS)
    .where('company_id', '=', companyId)
    .where('id', 'in', found)
    .orderBy('id', 'desc');

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
  let keys = searchKeys(db, companyId);
  if (query.warehouse !== undefined) keys = keys.where('warehouse_id', '=', query.warehouse);
  if (query.member !== undefined) keys = keys.where('user_id', '=', query.member);
  if (query.kind !== undefined)
    keys = query.kind.includes('.')
      ? keys.where('kind', '=', query.kind)
      : keys.where('entity_type', '=', query.kind);
  if (query.from !== undefined) keys = keys.where('created_at', '>=', startOf(query.from));
  if (query.to !== undefined) keys = keys.where('created_at', '<=', endOf(query.to));
  if (ids.low !== undefined) keys = keys.where('event_id', '>=', ids.low);
  if (ids.high !== undefined) keys = keys.where('event_id', '<=', ids.high);
  if (query.q !== undefined) {
    const q = query.q;
    keys = keys.where((eb) => eb.or([eb('subject', '=', q), eb('customer', '=', q.toUpperCase())]));
  }
  if (query.cursor !== undefined) keys = keys.where('event_id', '<', query.cursor);
  return eventsOf(db, companyId, keys.orderBy('event_id', 'desc').limit(limit));
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
  return eventsOf(
    db,
    companyId,
    searchKeys(db, companyId)
      .where('entity_type', '=', entityType)
      .where('entity_id', '=', entityId)
      .orderBy('event_id', 'desc')
      .limit(1000),
  ).execute();
}

export async function listMemberNames(db: Db, companyId: number) {
  return db
    .selectFrom('users')
    .select(['id', 'username'])
    .where('company_id', '=', companyId)
    .orderBy('username')
    .execute();
}

/** The company's warehouses, and those it deleted as their 'warehouse.deleted' event names them. */
export async function listWarehouseNames(db: Db, companyId: number) {
  const [current, deleted] = await Promise.all([
    db.selectFrom('warehouses').select(['id', 'name']).where('company_id', '=', companyId).execute(),
    db
      .selectFrom('events')
      .select(['warehouse_id', 'warehouse_name'])
      .where('company_id', '=', companyId)
      .where(
        'id',
        'in',
        searchKeys(db, companyId)
          .where('kind', '=', 'warehouse.deleted')
          .orderBy('event_id', 'desc')
          .limit(500),
      )
      .execute(),
  ]);
  const list = current.map((w) => ({ id: Number(w.id), name: w.name, deleted: false }));
  const known = new Set(list.map((w) => w.id));
  for (const row of deleted) {
    if (row.warehouse_id === null || known.has(Number(row.warehouse_id))) continue;
    known.add(Number(row.warehouse_id));
    list.push({
      id: Number(row.warehouse_id),
      name: row.warehouse_name ?? `Warehouse ${row.warehouse_id}`,
      deleted: true,
    });
  }
  return list.sort((a, b) => Number(a.deleted) - Number(b.deleted) || naturalCompare(a.name, b.name));
}
