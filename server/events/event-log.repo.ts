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

/** Appends to the company's event log (history, and the feed for live updates). Call inside the write's transaction. */
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
