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
  let select = db.selectFrom('events').select(EVENT_COLUMNS).where('company_id', '=', companyId);
  if (query.warehouse !== undefined) select = select.where('warehouse_id', '=', query.warehouse);
  if (query.member !== undefined) select = select.where('user_id', '=', query.member);
  if (query.kind !== undefined)
    select = query.kind.includes('.')
      ? select.where('kind', '=', query.kind)
      : select.where('entity_type', '=', query.kind);
  if (query.from !== undefined) select = select.where('created_at', '>=', `${query.from}T00:00:00.000Z`);
  if (query.to !== undefined) select = select.where('created_at', '<=', `${query.to}T23:59:59.999Z`);
  if (query.q !== undefined) {
    const q = query.q;
    select = select.where((eb) => eb.or([eb('subject', '=', q), eb('customer', '=', q.toUpperCase())]));
  }
  if (query.cursor !== undefined) select = select.where('id', '<', query.cursor);
  return select.orderBy('id', 'desc').limit(limit).execute();
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
