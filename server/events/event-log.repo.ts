import type { Db } from '../db/database';
import { nowIso } from '../db/database';

export interface EventRecord {
  companyId: number;
  userId: number | null;
  actor?: string | null;
  /** what happened, e.g. 'vault.added', 'vault.moved', 'pallet.deleted' */
  kind: string;
  entityType: 'vault' | 'field' | 'warehouse' | 'rack' | 'pallet' | 'checklist';
  entityId: number | null;
  warehouseId?: number | null;
  payload?: unknown;
}

/**
 * Appends to the company's event log (history, and the feed for live updates). Call inside the write's transaction.
 * A trigger on the insert (migration 0005) moves the warehouse's revision on, so cached answers of the warehouse go
 * stale, and on PostgreSQL sends the NOTIFY on EVENTS_CHANNEL, delivered at commit: every server process learns of
 * the event only once it is real, without a round trip of its own.
 */
export async function recordEvent(db: Db, event: EventRecord): Promise<void> {
  await db
    .insertInto('events')
    .values({
      company_id: event.companyId,
      user_id: event.userId,
      actor: event.actor ?? null,
      kind: event.kind,
      entity_type: event.entityType,
      entity_id: event.entityId,
      warehouse_id: event.warehouseId ?? null,
      payload: event.payload === undefined ? null : JSON.stringify(event.payload),
      created_at: nowIso(),
    })
    .execute();
}

/** The channel the events trigger of migration 0005 notifies on (the migration spells it out). */
export const EVENTS_CHANNEL = 'wm_events';

export async function findEventsAfter(db: Db, afterId: number, limit: number) {
  return db
    .selectFrom('events')
    .select(['id', 'company_id', 'user_id', 'kind', 'entity_type', 'entity_id', 'warehouse_id', 'created_at'])
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

export async function findCompanyEventsAfter(db: Db, companyId: number, afterId: number, limit: number) {
  return db
    .selectFrom('events')
    .select(['id', 'company_id', 'user_id', 'kind', 'entity_type', 'entity_id', 'warehouse_id', 'created_at'])
    .where('company_id', '=', companyId)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

export async function latestEventId(db: Db): Promise<number> {
  const row = await db
    .selectFrom('events')
    .select((eb) => eb.fn.max('id').as('max'))
    .executeTakeFirst();
  return Number(row?.max ?? 0);
}
