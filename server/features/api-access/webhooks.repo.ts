import { sql } from 'kysely';
import type { Db, Engine } from '../../db/database';

// Webhooks (issue 31, decision 044): endpoints, their event kinds and the outbox of deliveries. Every query names the
// company, except the worker's, which works through the whole installation's outbox.

const ENDPOINT_COLUMNS = [
  'id',
  'url',
  'description',
  'enabled',
  'failing_since',
  'disabled_reason',
  'created_at',
  'created_by',
] as const;

export async function listEndpoints(db: Db, companyId: number) {
  return db
    .selectFrom('webhook_endpoints')
    .select(ENDPOINT_COLUMNS)
    .where('company_id', '=', companyId)
    .orderBy('id')
    .execute();
}

export type EndpointRow = Awaited<ReturnType<typeof listEndpoints>>[number];

export async function findEndpoint(db: Db, companyId: number, id: number): Promise<EndpointRow | undefined> {
  return db
    .selectFrom('webhook_endpoints')
    .select(ENDPOINT_COLUMNS)
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The kinds of the company's endpoints, by endpoint id. */
export async function subscriptionsOf(db: Db, companyId: number): Promise<Map<number, string[]>> {
  const rows = await db
    .selectFrom('webhook_subscriptions')
    .select(['endpoint_id', 'kind'])
    .where('company_id', '=', companyId)
    .orderBy('kind')
    .execute();
  const kinds = new Map<number, string[]>();
  for (const row of rows) kinds.set(row.endpoint_id, [...(kinds.get(row.endpoint_id) ?? []), row.kind]);
  return kinds;
}

export async function insertEndpoint(
  db: Db,
  endpoint: {
    companyId: number;
    url: string;
    description: string | null;
    secret: string;
    createdBy: string;
    at: string;
  },
): Promise<number> {
  const row = await db
    .insertInto('webhook_endpoints')
    .values({
      company_id: endpoint.companyId,
      url: endpoint.url,
      description: endpoint.description,
      secret: endpoint.secret,
      created_by: endpoint.createdBy,
      created_at: endpoint.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function replaceSubscriptions(
  db: Db,
  companyId: number,
  endpointId: number,
  kinds: readonly string[],
): Promise<void> {
  await db
    .deleteFrom('webhook_subscriptions')
    .where('company_id', '=', companyId)
    .where('endpoint_id', '=', endpointId)
    .execute();
  if (kinds.length > 0)
    await db
      .insertInto('webhook_subscriptions')
      .values(kinds.map((kind) => ({ company_id: companyId, endpoint_id: endpointId, kind })))
      .execute();
}

/** Switches the endpoint on (its run of failures forgotten) or off by a Manager. */
export async function setEndpointEnabled(db: Db, companyId: number, id: number, enabled: boolean) {
  await db
    .updateTable('webhook_endpoints')
    .set(
      enabled
        ? { enabled: 1, failing_since: null, disabled_reason: null }
        : { enabled: 0, disabled_reason: null },
    )
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .execute();
}

export async function deleteEndpoint(db: Db, companyId: number, id: number): Promise<boolean> {
  const result = await db
    .deleteFrom('webhook_endpoints')
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function recentDeliveries(db: Db, companyId: number, endpointId: number, limit = 50) {
  return db
    .selectFrom('webhook_deliveries')
    .select([
      'id',
      'kind',
      'status',
      'attempts',
      'last_status_code',
      'last_error',
      'last_attempt_at',
      'next_attempt_at',
      'created_at',
    ])
    .where('company_id', '=', companyId)
    .where('endpoint_id', '=', endpointId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** A test delivery (no event behind it), due now. */
export async function insertTestDelivery(db: Db, companyId: number, endpointId: number, at: string) {
  await db
    .insertInto('webhook_deliveries')
    .values({
      company_id: companyId,
      endpoint_id: endpointId,
      event_id: null,
      kind: 'webhook.test',
      next_attempt_at: at,
      created_at: at,
    })
    .execute();
}

// --- the worker's side: the whole installation's outbox

/**
 * Claims up to `limit` due deliveries of enabled endpoints for this worker until `leaseUntil`, counting the attempt,
 * in one statement: no other worker sends them before the lease ends. On PostgreSQL the candidate rows are locked
 * with SKIP LOCKED, so two processes claiming at once take different rows; SQLite has one writer at a time.
 */
export async function claimDueDeliveries(
  db: Db,
  engine: Engine,
  now: string,
  leaseUntil: string,
  limit: number,
) {
  let due = db
    .selectFrom('webhook_deliveries')
    .select('webhook_deliveries.id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]))
    .where('endpoint_id', 'in', (eb) =>
      eb.selectFrom('webhook_endpoints').select('id').where('enabled', '=', sql.lit(1)),
    )
    .orderBy('next_attempt_at')
    .limit(limit);
  if (engine === 'postgres') due = due.forUpdate().skipLocked();
  return db
    .updateTable('webhook_deliveries')
    .set({ claimed_until: leaseUntil, attempts: sql`attempts + 1`, last_attempt_at: now })
    .where('id', 'in', due)
    .where('status', '=', 'pending')
    .returning(['id', 'company_id', 'endpoint_id', 'event_id', 'kind', 'attempts', 'created_at'])
    .execute();
}

export type ClaimedDelivery = Awaited<ReturnType<typeof claimDueDeliveries>>[number];

export async function endpointForSending(db: Db, id: number) {
  return db
    .selectFrom('webhook_endpoints')
    .select(['id', 'company_id', 'url', 'secret', 'enabled'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function eventForSending(db: Db, companyId: number, eventId: number) {
  return db
    .selectFrom('events')
    .select([
      'id',
      'kind',
      'entity_type',
      'entity_id',
      'warehouse_id',
      'warehouse_name',
      'subject',
      'customer',
      'actor',
      'payload',
      'created_at',
    ])
    .where('company_id', '=', companyId)
    .where('id', '=', eventId)
    .executeTakeFirst();
}

/** A delivery the receiver accepted; its endpoint answers again. */
export async function markSent(db: Db, delivery: ClaimedDelivery, statusCode: number) {
  await db
    .updateTable('webhook_deliveries')
    .set({ status: 'sent', claimed_until: null, last_status_code: statusCode, last_error: null })
    .where('id', '=', delivery.id)
    .execute();
  await db
    .updateTable('webhook_endpoints')
    .set({ failing_since: null })
    .where('id', '=', delivery.endpoint_id)
    .where('failing_since', 'is not', null)
    .execute();
}

/**
 * A failed attempt: tried again at `nextAttemptAt`, or given up (`nextAttemptAt` null). Answers when the endpoint's
 * run of failures began.
 */
export async function markFailed(
  db: Db,
  delivery: ClaimedDelivery,
  outcome: { statusCode: number | null; error: string | null; nextAttemptAt: string | null; now: string },
): Promise<string> {
  await db
    .updateTable('webhook_deliveries')
    .set({
      status: outcome.nextAttemptAt ? 'pending' : 'failed',
      claimed_until: null,
      last_status_code: outcome.statusCode,
      last_error: outcome.error,
      ...(outcome.nextAttemptAt ? { next_attempt_at: outcome.nextAttemptAt } : {}),
    })
    .where('id', '=', delivery.id)
    .execute();
  const row = await db
    .updateTable('webhook_endpoints')
    .set({ failing_since: sql`coalesce(failing_since, ${outcome.now})` })
    .where('id', '=', delivery.endpoint_id)
    .returning('failing_since')
    .executeTakeFirst();
  return row?.failing_since ?? outcome.now;
}

/**
 * Switches off an endpoint that has failed since before `failingBefore`, and gives up its pending deliveries; true
 * for the one worker that switched it off.
 */
export async function switchOffFailingEndpoint(
  db: Db,
  endpointId: number,
  failingBefore: string,
  reason: string,
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_endpoints')
    .set({ enabled: 0, disabled_reason: reason })
    .where('id', '=', endpointId)
    .where('enabled', '=', 1)
    .where('failing_since', '<=', failingBefore)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return false;
  await db
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', claimed_until: null, last_error: reason })
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .execute();
  return true;
}
