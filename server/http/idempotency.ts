import crypto from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/database';
import { HttpError, badRequest, conflict } from './errors';
import { readFormEarly } from './form-reader';
import { claimKey, completeClaim, findKey, releaseClaim, takeOverClaim } from './idempotency-keys.repo';

/**
 * Idempotency-Key on every write of the API (issue 30, decision 043). A tablet that lost its answer sends the same
 * change again with the same key; the table `idempotency_keys` decides, across processes and on both engines:
 * - the first request claims the key (a unique insert), runs, and keeps its answer when it succeeded;
 * - a repeat answers that kept answer (with `Idempotency-Replayed: true`) and writes nothing;
 * - a repeat that arrives while the first still runs waits for its answer (polling the row briefly);
 * - a refusal (4xx) or a failure (5xx) wrote nothing, so its claim is given up and a repeat runs afresh;
 * - the same key with another method, address or body is refused with 422.
 * A multipart form (an add with its attachment) is read here, before its route, so its files are in the fingerprint.
 */

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotency-replayed';
/** rows are kept at least this long (the housekeeping deletes older ones) */
export const IDEMPOTENCY_KEEP_MS = 24 * 60 * 60_000;

export const KEY_MISUSED =
  'This Idempotency-Key was already used for a different change. Nothing was saved; send a new key for a new change.';
export const KEY_INVALID = 'The Idempotency-Key header must be 1 to 200 visible characters.';
export const KEY_BUSY =
  'The same change is still being saved by an earlier request. Nothing more was saved; please try again in a moment.';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const KEY_TEXT = /^[\x21-\x7e]{1,200}$/;

export interface IdempotencyOptions {
  /** how long a repeat waits for the first request's answer before it answers 409 */
  waitMs?: number;
  /** a claim without an answer after this long lost its request (a stopped process) and may be taken over */
  staleClaimMs?: number;
}

interface Claim {
  id: number;
  token: string;
  /** true once the answer is a kept one being sent again */
  replaying: boolean;
}

/** Sign-in and sign-out set or clear the session cookie, which a kept answer cannot carry: the key is ignored there. */
const covers = (request: FastifyRequest): boolean => {
  const url = request.routeOptions.url;
  return (
    WRITES.has(request.method) &&
    url !== undefined &&
    url.startsWith('/api/') &&
    !url.startsWith('/api/auth/') &&
    request.headers[IDEMPOTENCY_HEADER] !== undefined
  );
};

/**
 * The request as a key must always stand for: method, address (with its query) and the body as read; a multipart
 * form by its text fields (sorted by name) and each file's field, name, type and a hash of its bytes.
 */
async function fingerprintOf(request: FastifyRequest): Promise<string> {
  const hash = crypto.createHash('sha256').update(`${request.method} ${request.url}\n`);
  if (!request.isMultipart()) return hash.update(JSON.stringify(request.body ?? null)).digest('hex');
  const form = await readFormEarly(request);
  const byName = <T>(record: Record<string, T>) =>
    Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const files = byName(form.files).map(([field, file]) => [
    field,
    file.fileName,
    file.contentType,
    crypto.createHash('sha256').update(file.content).digest('hex'),
  ]);
  return hash.update(JSON.stringify({ fields: byName(form.fields), files })).digest('hex');
}

export function idempotencyKeys(app: FastifyInstance, db: Db, options: IdempotencyOptions = {}): void {
  const waitMs = options.waitMs ?? 15_000;
  const staleClaimMs = options.staleClaimMs ?? 120_000;
  const claims = new WeakMap<FastifyRequest, Claim>();
  const now = () => new Date().toISOString();

  app.addHook('preHandler', async (request, reply) => {
    if (!covers(request)) return;
    const key = request.headers[IDEMPOTENCY_HEADER];
    if (typeof key !== 'string' || !KEY_TEXT.test(key)) throw badRequest(KEY_INVALID);
    const companyId = request.user?.companyId ?? null;
    const scope = companyId === null ? 'public' : `company:${companyId}`;
    const fingerprint = await fingerprintOf(request);
    const token = crypto.randomBytes(16).toString('hex');
    const deadline = Date.now() + waitMs;
    for (let round = 0; ; round++) {
      const id = await claimKey(db, { companyId, scope, key, fingerprint, token, now: now() });
      if (id !== undefined) {
        claims.set(request, { id, token, replaying: false });
        return;
      }
      const kept = await findKey(db, scope, key);
      // given up between the insert and the read: claim it again
      if (!kept) continue;
      if (kept.fingerprint !== fingerprint) throw new HttpError(422, [KEY_MISUSED]);
      if (kept.status !== null) {
        claims.set(request, { id: kept.id, token, replaying: true });
        reply.status(kept.status).header(REPLAYED_HEADER, 'true');
        if (kept.content_type) reply.header('content-type', kept.content_type);
        return reply.send(kept.body ?? '');
      }
      if (Date.parse(kept.claimed_at) < Date.now() - staleClaimMs) {
        if (await takeOverClaim(db, kept.id, kept.claim_token, token, now())) {
          claims.set(request, { id: kept.id, token, replaying: false });
          return;
        }
        continue;
      }
      if (Date.now() >= deadline) throw conflict(KEY_BUSY);
      await sleep(Math.min(20 * (round + 1), 200));
    }
  });

  // runs before compression (registered earlier), so the answer is kept as the route gave it
  app.addHook('onSend', async (request, reply, payload) => {
    const claim = claims.get(request);
    if (!claim || claim.replaying) return payload;
    claims.delete(request);
    const kept =
      reply.statusCode < 400 && typeof payload === 'string' && reply.getHeader('set-cookie') === undefined;
    try {
      if (kept) {
        const contentType = reply.getHeader('content-type');
        await completeClaim(db, claim.id, claim.token, {
          status: reply.statusCode,
          contentType: typeof contentType === 'string' ? contentType : null,
          body: payload,
          now: now(),
        });
      } else {
        await releaseClaim(db, claim.id, claim.token);
      }
    } catch (error) {
      // the change itself is done; a repeat waits until the claim is stale and then runs again
      request.log.warn({ err: error }, 'the answer for an Idempotency-Key could not be kept');
    }
    return payload;
  });
}
