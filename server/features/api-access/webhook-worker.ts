import crypto from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { INTERNAL_RECEIVER, isInternalHost } from '@domain/schemas/api-access.schema';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Engine } from '../../db/database';
import { readOrCreateInstallationSecret } from '../../db/installation-secrets.repo';
import { recordEvent } from '../../events/event-log.repo';
import {
  type ClaimedDelivery,
  claimDueDeliveries,
  endpointForSending,
  eventForSending,
  markFailed,
  markSent,
  switchOffFailingEndpoint,
} from './webhooks.repo';
import {
  EVENT_ID_HEADER,
  EVENT_KIND_HEADER,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  signWebhook,
} from './webhook-signature';

// The webhook worker (issue 31, decision 044): one per server process. Each tick claims the due deliveries of the
// outbox (an atomic claim with a lease; SKIP LOCKED on PostgreSQL), sends them signed, and records the answer. A
// process that stops mid-send leaves its claim to run out: the next worker sends that delivery once more, never
// zero times. Retries back off from 30 seconds to an hour, for 24 hours; an endpoint failing for 24 hours is
// switched off and the Managers are told in the history.

export const RETRY_FOR_MS = 24 * 3600_000;
/** No other worker sends a claimed delivery before this has passed. */
export const LEASE_MS = 120_000;
const SEND_TIMEOUT_MS = 15_000;
const BATCH = 20;

/** The wait before attempt `attempts + 1`: 30 s, doubling, at most an hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(3600_000, 30_000 * 2 ** Math.max(0, attempts - 1));
}

export type WebhookSend = (
  url: string,
  init: { headers: Record<string, string>; body: string; signal: AbortSignal },
) => Promise<{ status: number }>;

/** Refused before sending: the receiver's name leads to this machine, a private network or a metadata service. */
class InternalReceiver extends Error {}

/**
 * Sends over HTTP. Unless the installation allows receivers on this machine (WEBHOOK_LOOPBACK_HTTP), a host whose
 * name now leads to an internal address is not contacted: its address was checked when it was added, but a name can
 * be pointed elsewhere later.
 */
function fetchSend(allowInternal: boolean): WebhookSend {
  return async (url, { headers, body, signal }) => {
    if (!allowInternal) {
      const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
      const addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
      if (addresses.some(isInternalHost)) throw new InternalReceiver(INTERNAL_RECEIVER);
    }
    const res = await fetch(url, { method: 'POST', headers, body, signal, redirect: 'manual' });
    // the answer's body is not kept; read it so the connection is freed
    await res.arrayBuffer().catch(() => undefined);
    return { status: res.status };
  };
}

export interface WebhookWorkerOptions {
  db: Db;
  engine: Engine;
  log: FastifyBaseLogger;
  /** the clock (tests move it on instead of sleeping) */
  now?: () => number;
  send?: WebhookSend;
  /** receivers on this machine or a private network are allowed (WEBHOOK_LOOPBACK_HTTP: tests, a local receiver) */
  allowInternal?: boolean;
}

export const SWITCHED_OFF_REASON =
  'Switched off after failing for 24 hours. Check the receiver, then switch it on again.';

export class WebhookWorker {
  private readonly db: Db;
  private readonly engine: Engine;
  private readonly log: FastifyBaseLogger;
  private readonly now: () => number;
  private readonly send: WebhookSend;
  private readonly stopping = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;
  private again = false;
  private idKey: Buffer | undefined;

  constructor(options: WebhookWorkerOptions) {
    this.db = options.db;
    this.engine = options.engine;
    this.log = options.log;
    this.now = options.now ?? Date.now;
    this.send = options.send ?? fetchSend(options.allowInternal ?? false);
  }

  /** Ticks every `intervalMs` until `stop`. */
  start(intervalMs: number): void {
    this.timer = setInterval(() => this.nudge(), intervalMs);
    this.timer.unref();
  }

  /** A write may have filled the outbox: tick soon (ticks never overlap within a process). */
  nudge(): void {
    if (this.stopping.signal.aborted) return;
    if (this.running) {
      this.again = true;
      return;
    }
    void this.tick().catch((error: unknown) => this.log.warn({ err: error }, 'webhook worker tick failed'));
  }

  /** Stops ticking and abandons the sends under way (their claims run out; another worker sends them). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.stopping.abort();
    await this.running?.catch(() => undefined);
  }

  /** Sends every due delivery it can claim; answers how many were attempted. */
  tick(): Promise<number> {
    if (this.running) return this.running.then(() => this.tick());
    const run = this.sendDue().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.nudge();
      }
    });
    this.running = run;
    return run;
  }

  private async sendDue(): Promise<number> {
    let attempted = 0;
    for (;;) {
      if (this.stopping.signal.aborted) return attempted;
      const now = this.now();
      const claimed = await claimDueDeliveries(
        this.db,
        this.engine,
        new Date(now).toISOString(),
        new Date(now + LEASE_MS).toISOString(),
        BATCH,
      );
      if (claimed.length === 0) return attempted;
      await Promise.all(claimed.map((delivery) => this.deliver(delivery)));
      attempted += claimed.length;
      if (claimed.length < BATCH) return attempted;
    }
  }

  private async deliver(delivery: ClaimedDelivery): Promise<void> {
    const endpoint = await endpointForSending(this.db, delivery.endpoint_id);
    if (!endpoint) return;
    const body = await this.bodyOf(delivery);
    const timestamp = Math.floor(this.now() / 1000);
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'WarehouseManager-Webhooks/1',
      [EVENT_ID_HEADER]: body.id,
      [EVENT_KIND_HEADER]: delivery.kind,
      [TIMESTAMP_HEADER]: String(timestamp),
    };
    const text = JSON.stringify(body);
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      const signal = AbortSignal.any([this.stopping.signal, AbortSignal.timeout(SEND_TIMEOUT_MS)]);
      const res = await this.send(endpoint.url, {
        headers: { ...headers, [SIGNATURE_HEADER]: signWebhook(endpoint.secret, timestamp, text) },
        body: text,
        signal,
      });
      statusCode = res.status;
    } catch (caught) {
      // the process is stopping: record nothing, as if it had stopped; the claim runs out and another worker sends it
      if (this.stopping.signal.aborted) return;
      error = describeFailure(caught);
    }
    const now = this.now();
    if (statusCode !== null && statusCode >= 200 && statusCode < 300) {
      await markSent(this.db, delivery, statusCode);
      return;
    }
    const givesUp = now - Date.parse(delivery.created_at) >= RETRY_FOR_MS;
    const failingSince = await markFailed(this.db, delivery, {
      statusCode,
      error: error ?? `The receiver answered ${statusCode}.`,
      nextAttemptAt: givesUp ? null : new Date(now + retryDelayMs(delivery.attempts)).toISOString(),
      now: new Date(now).toISOString(),
    });
    if (now - Date.parse(failingSince) >= RETRY_FOR_MS) await this.switchOff(delivery, now);
  }

  private async switchOff(delivery: ClaimedDelivery, now: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const switched = await switchOffFailingEndpoint(
        trx,
        delivery.endpoint_id,
        new Date(now - RETRY_FOR_MS).toISOString(),
        SWITCHED_OFF_REASON,
      );
      if (!switched) return;
      const endpoint = await endpointForSending(trx, delivery.endpoint_id);
      // the Managers see it in the history and in the Team page's webhooks
      await recordEvent(trx, {
        companyId: delivery.company_id,
        userId: null,
        actor: 'Webhooks',
        kind: 'webhook.disabled',
        entityType: 'webhook',
        entityId: delivery.endpoint_id,
        payload: { url: endpoint?.url, reason: SWITCHED_OFF_REASON },
      });
    });
    this.log.warn(
      { endpoint: delivery.endpoint_id },
      'webhook endpoint switched off after failing for 24 hours',
    );
  }

  /** The JSON a delivery sends: the same on every attempt. */
  private async bodyOf(delivery: ClaimedDelivery) {
    const id = await this.publicEventId(
      delivery.company_id,
      delivery.event_id === null ? `test.${delivery.id}` : String(delivery.event_id),
    );
    const event =
      delivery.event_id === null
        ? undefined
        : await eventForSending(this.db, delivery.company_id, delivery.event_id);
    if (!event)
      return {
        id,
        kind: delivery.kind,
        created_at: delivery.created_at,
        data: { message: 'A test event from Warehouse Manager.' },
      };
    return {
      id,
      kind: event.kind,
      created_at: event.created_at,
      actor: event.actor,
      warehouse: event.warehouse_id === null ? null : { id: event.warehouse_id, name: event.warehouse_name },
      entity: { type: event.entity_type, id: event.entity_id },
      subject: event.subject,
      customer: event.customer,
      data: event.payload === null ? null : (JSON.parse(event.payload) as unknown),
    };
  }

  /**
   * The id a receiver sees for an event: the same on every attempt, different per company, and saying nothing of the
   * log's global numbering (an HMAC under an installation key).
   */
  private async publicEventId(companyId: number, eventKey: string): Promise<string> {
    this.idKey ??= Buffer.from(
      await readOrCreateInstallationSecret(this.db, 'webhook-event-id-key', () =>
        crypto.randomBytes(32).toString('base64'),
      ),
      'base64',
    );
    const mac = crypto
      .createHmac('sha256', this.idKey)
      .update(`${companyId}.${eventKey}`)
      .digest('base64url');
    return `evt_${mac.slice(0, 24)}`;
  }
}

function describeFailure(error: unknown): string {
  if (error instanceof InternalReceiver) return error.message;
  if (error instanceof Error && error.name === 'TimeoutError') return 'The receiver did not answer in time.';
  const cause = error instanceof Error ? (error.cause as { code?: string } | undefined) : undefined;
  if (cause?.code) return `The receiver could not be reached (${cause.code}).`;
  return 'The receiver could not be reached.';
}
