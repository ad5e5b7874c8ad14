import { type Expression, type RawBuilder, sql } from 'kysely';
import { statementText } from '../db/statement-text';
import type { Db } from '../db/database';
import { nowIso } from '../db/database';
import { currentActorName } from './event-actor';
import { noteEventRecorded } from './event-indexing';
import { indexEventTail } from './event-search.repo';

export interface EventRecord {
  companyId: number;
  userId: number | null;
  actor?: string | null;
  /** what happened, e.g. 'vault.added', 'vault.moved', 'pallet.deleted' */
  kind: string;
  entityType:
    | 'vault'
    | 'field'
    | 'warehouse'
    | 'rack'
    | 'pallet'
    | 'checklist'
    | 'member'
    | 'pull-list'
    | 'check'
    | 'request'
    | 'invoice'
    | 'api-token'
    | 'webhook'
    | 'customer';
  /** a one-statement write names a row it creates in the same statement by a subquery */
  entityId: number | null | RawBuilder<number>;
  warehouseId?: number | null;
  payload?: unknown;
  /** the vault or pallet number it is about (the Activity page's search) */
  subject?: string | null;
  /** the customer it is about */
  customer?: string | null;
  /** the warehouse's name, when the warehouse is gone by the time the event is written (read from it otherwise) */
  warehouseName?: string;
}

let recordingEvents = true;

/**
 * Benchmark only (`npm run bench -- --history`): turns event recording off in this process, to measure what recording
 * adds to a vault write against the same write without it. No request, setting or environment variable reaches it.
 */
export function setEventRecordingForBench(on: boolean): void {
  recordingEvents = on;
}

/**
 * Appends to the company's event log (history, and the feed for live updates). Call inside the write's transaction.
 * A trigger on the insert (migration 0005) moves the warehouse's revision on, so cached answers of the warehouse go
 * stale. The live feed of the process that wrote it reads it once the request is answered, and on PostgreSQL tells the
 * other processes then (`EventFeed.noteWrite`, decision 026).
 */
export async function recordEvent(db: Db, event: EventRecord): Promise<void> {
  if (!recordingEvents) return;
  await eventStatement(db, eventParams(event));
  // its search keys are written after the commit (decision 021)
  noteEventRecorded();
}

/**
 * Appends many events of one write at once (a deleted warehouse's removals), in multi-row inserts of 200, so a big
 * warehouse costs a few statements rather than one per vault. Call inside the write's transaction.
 */
export async function recordEvents(db: Db, events: readonly EventRecord[]): Promise<void> {
  if (!recordingEvents || events.length === 0) return;
  for (let start = 0; start < events.length; start += 200) {
    const rows = events.slice(start, start + 200).map((event) => {
      const e = eventParams(event);
      return {
        company_id: e.eventCompanyId,
        user_id: e.eventUserId,
        actor: sql<
          string | null
        >`coalesce(${e.eventActor}, (select username from users where id = ${e.eventUserId}))`,
        warehouse_name: sql<
          string | null
        >`coalesce(${e.eventWarehouseName}, (select name from warehouses where id = ${e.eventWarehouseId}))`,
        subject: e.eventSubject,
        customer: e.eventCustomer,
        kind: e.eventKind,
        entity_type: e.eventEntityType,
        entity_id: e.eventEntityId as number | null,
        warehouse_id: e.eventWarehouseId,
        payload: e.eventPayload,
        created_at: e.eventCreatedAt,
      };
    });
    await db.insertInto('events').values(rows).execute();
  }
  noteEventRecorded();
}

/** Whether events are recorded (off only in the bench's measurement of what recording costs). */
export function recordsEvents(): boolean {
  return recordingEvents;
}

/** An event as the parameters of its insert (`eventInsert`). */
export function eventParams(event: EventRecord) {
  return {
    eventCompanyId: event.companyId,
    eventUserId: event.userId,
    // a change through an API token names it (decision 044)
    eventActor: event.actor ?? currentActorName(),
    eventWarehouseName: event.warehouseName ?? null,
    eventSubject: event.subject ?? null,
    eventCustomer: event.customer ?? null,
    eventKind: event.kind,
    eventEntityType: event.entityType,
    eventEntityId: event.entityId,
    eventWarehouseId: event.warehouseId ?? null,
    eventPayload: event.payload === undefined ? null : JSON.stringify(event.payload),
    eventCreatedAt: nowIso(),
  };
}

export type EventParams = ReturnType<typeof eventParams>;

/**
 * The insert of an event, for `recordEvent` and for a one-statement write (decision 014) that makes it part of its
 * statement; `entityId` there may name a row the same statement creates. The member's and the warehouse's names are
 * read as they are now, in the same statement: the history keeps them after a rename or a delete.
 */
export function eventInsert(
  db: Db,
  e: EventParams,
  entityId: Expression<number | null> = sql`${e.eventEntityId}`,
) {
  return db.insertInto('events').values({
    company_id: e.eventCompanyId,
    user_id: e.eventUserId,
    actor: sql`coalesce(${e.eventActor}, (select username from users where id = ${e.eventUserId}))`,
    warehouse_name: sql`coalesce(${e.eventWarehouseName}, (select name from warehouses where id = ${e.eventWarehouseId}))`,
    subject: e.eventSubject,
    customer: e.eventCustomer,
    kind: e.eventKind,
    entity_type: e.eventEntityType,
    entity_id: entityId,
    warehouse_id: e.eventWarehouseId,
    payload: e.eventPayload,
    created_at: e.eventCreatedAt,
  });
}

const eventStatement = statementText((db: Db, params: EventParams) => eventInsert(db, params));

/** The channel the events trigger of migration 0005 notifies on (the migration spells it out). */
export const EVENTS_CHANNEL = 'wm_events';

/** PostgreSQL: tells every server process that events were committed (`from`: the process's own mark). */
export async function announceEvents(db: Db, from: string): Promise<void> {
  await sql`select pg_notify(${EVENTS_CHANNEL}, ${from})`.execute(db);
}

// what the feed and a stream's catch-up read of an event
const LIVE_EVENT_COLUMNS = [
  'id',
  'company_id',
  'user_id',
  'kind',
  'entity_type',
  'entity_id',
  'warehouse_id',
  'payload',
  'created_at',
] as const;

export async function findEventsAfter(db: Db, afterId: number, limit: number) {
  return db
    .selectFrom('events')
    .select(LIVE_EVENT_COLUMNS)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

export async function findCompanyEventsAfter(db: Db, companyId: number, afterId: number, limit: number) {
  return db
    .selectFrom('events')
    .select(LIVE_EVENT_COLUMNS)
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
  return row?.max ?? 0;
}

/** Ids of the company's events in (afterId, upToId]: what was already in the log when a stream started. */
export async function findCompanyEventIdsBetween(
  db: Db,
  companyId: number,
  afterId: number,
  upToId: number,
): Promise<number[]> {
  const rows = await db
    .selectFrom('events')
    .select('id')
    .where('company_id', '=', companyId)
    .where('id', '>', afterId)
    .where('id', '<=', upToId)
    .execute();
  return rows.map((row) => row.id);
}

/** Per entity, the latest event of one kind in the company's log (its payload parsed and its time). */
export async function findLatestEvents(
  db: Db,
  companyId: number,
  kind: string,
  entityIds: readonly number[],
): Promise<Map<number, { payload: unknown; createdAt: string }>> {
  const latest = new Map<number, { payload: unknown; createdAt: string }>();
  const CHUNK = 500;
  // found through the search keys (migration 0017), complete up to the latest event
  await indexEventTail(db);
  for (let start = 0; start < entityIds.length; start += CHUNK) {
    const rows = await db
      .selectFrom('events')
      .select(['entity_id', 'payload', 'created_at'])
      .where('company_id', '=', companyId)
      .where(
        'id',
        'in',
        db
          .selectFrom('event_search')
          .select('event_id')
          .where('company_id', '=', companyId)
          .where('kind', '=', kind)
          .where('entity_id', 'in', entityIds.slice(start, start + CHUNK)),
      )
      .orderBy('id')
      .execute();
    for (const row of rows) {
      if (row.entity_id === null) continue;
      let payload: unknown = null;
      try {
        payload = row.payload === null ? null : JSON.parse(row.payload);
      } catch {
        payload = null;
      }
      const at = row.created_at as unknown;
      latest.set(row.entity_id, {
        payload,
        createdAt: at instanceof Date ? at.toISOString() : String(at),
      });
    }
  }
  return latest;
}
