import crypto from 'node:crypto';
import type { SessionUser } from '@domain/schemas/auth.schema';
import {
  type ApiTokenDto,
  type CreateApiTokenSchema,
  type CreateWebhookSchema,
  type CreatedApiTokenDto,
  type CreatedWebhookDto,
  type UpdateWebhookSchema,
  WEBHOOK_EVENT_KINDS,
  type WebhookDeliveryDto,
  type WebhookEndpointDto,
  type WebhookEventKind,
  webhookUrlProblem,
} from '@domain/schemas/api-access.schema';
import { isRole } from '@domain/rules/roles';
import type { z } from 'zod';
import { findToken, insertToken, listTokens, revokeToken, type TokenRow } from '../../auth/api-tokens.repo';
import type { Db } from '../../db/database';
import { nowIso } from '../../db/database';
import { recordEvent } from '../../events/event-log.repo';
import { badRequest, notFound } from '../../http/errors';
import {
  type EndpointRow,
  deleteEndpoint,
  findEndpoint,
  insertEndpoint,
  insertTestDelivery,
  listEndpoints,
  recentDeliveries,
  replaceSubscriptions,
  setEndpointEnabled,
  subscriptionsOf,
} from './webhooks.repo';

// API tokens and webhooks (issue 31, decision 044): Managers' work, each change in the history.

export const TOKEN_NOT_FOUND = 'API token not found';
export const WEBHOOK_NOT_FOUND = 'Webhook endpoint not found';
/** Every token starts so, which secret scanners and people recognise. */
const TOKEN_PREFIX = 'wmt_';

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

function presentToken(row: TokenRow, now = nowIso()): ApiTokenDto {
  return {
    id: row.id,
    name: row.name,
    role: isRole(row.role) ? row.role : 'viewer',
    hint: row.hint,
    created_at: row.created_at,
    created_by: row.created_by,
    expires_at: row.expires_at,
    last_used_at: row.last_used_at,
    revoked_at: row.revoked_at,
    status: row.revoked_at ? 'revoked' : row.expires_at && row.expires_at <= now ? 'expired' : 'active',
  };
}

export async function loadTokens(db: Db, companyId: number): Promise<ApiTokenDto[]> {
  const now = nowIso();
  return (await listTokens(db, companyId)).map((row) => presentToken(row, now));
}

export async function createToken(
  db: Db,
  user: SessionUser,
  input: z.output<typeof CreateApiTokenSchema>,
): Promise<CreatedApiTokenDto> {
  // the end of the chosen day, UTC
  const expiresAt = input.expires_on ? `${input.expires_on}T23:59:59.999Z` : null;
  if (expiresAt && expiresAt <= nowIso()) throw badRequest('Expiry must be today or later.');
  // 256 bits from the system's random source: a hash without salt or stretching keeps it safe (decision 044)
  const secret = TOKEN_PREFIX + crypto.randomBytes(32).toString('base64url');
  const id = await db.transaction().execute(async (trx) => {
    const tokenId = await insertToken(trx, {
      companyId: user.companyId,
      name: input.name,
      role: input.role,
      secretHash: sha256(secret),
      hint: secret.slice(-4),
      userId: user.id,
      expiresAt,
    });
    await recordEvent(trx, {
      companyId: user.companyId,
      userId: user.id,
      kind: 'api-token.created',
      entityType: 'api-token',
      entityId: tokenId,
      payload: { name: input.name, role: input.role, expires_at: expiresAt },
    });
    return tokenId;
  });
  const row = await findToken(db, user.companyId, id);
  return { token: presentToken(row!), secret };
}

export async function revokeApiToken(db: Db, user: SessionUser, id: number): Promise<ApiTokenDto> {
  return db.transaction().execute(async (trx) => {
    const row = await findToken(trx, user.companyId, id);
    if (!row) throw notFound(TOKEN_NOT_FOUND);
    if (!row.revoked_at) {
      await revokeToken(trx, user.companyId, id, user.username);
      await recordEvent(trx, {
        companyId: user.companyId,
        userId: user.id,
        kind: 'api-token.revoked',
        entityType: 'api-token',
        entityId: id,
        payload: { name: row.name },
      });
    }
    return presentToken((await findToken(trx, user.companyId, id))!);
  });
}

const KNOWN_KINDS = new Set(Object.keys(WEBHOOK_EVENT_KINDS));

function presentEndpoint(row: EndpointRow, kinds: readonly string[]): WebhookEndpointDto {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    kinds: kinds.filter((kind): kind is WebhookEventKind => KNOWN_KINDS.has(kind)),
    enabled: row.enabled === 1,
    failing_since: row.failing_since,
    disabled_reason: row.disabled_reason,
    created_at: row.created_at,
    created_by: row.created_by,
  };
}

export async function loadEndpoints(db: Db, companyId: number): Promise<WebhookEndpointDto[]> {
  const [rows, kinds] = await Promise.all([listEndpoints(db, companyId), subscriptionsOf(db, companyId)]);
  return rows.map((row) => presentEndpoint(row, kinds.get(row.id) ?? []));
}

async function loadEndpoint(db: Db, companyId: number, id: number): Promise<WebhookEndpointDto> {
  const row = await findEndpoint(db, companyId, id);
  if (!row) throw notFound(WEBHOOK_NOT_FOUND);
  return presentEndpoint(row, (await subscriptionsOf(db, companyId)).get(id) ?? []);
}

export async function createEndpoint(
  db: Db,
  user: SessionUser,
  input: z.output<typeof CreateWebhookSchema>,
  allowLoopbackHttp: boolean,
): Promise<CreatedWebhookDto> {
  const problem = webhookUrlProblem(input.url, allowLoopbackHttp);
  if (problem) throw badRequest(problem);
  const secret = `whsec_${crypto.randomBytes(32).toString('base64url')}`;
  const id = await db.transaction().execute(async (trx) => {
    const endpointId = await insertEndpoint(trx, {
      companyId: user.companyId,
      url: input.url,
      description: input.description || null,
      secret,
      createdBy: user.username,
      at: nowIso(),
    });
    await replaceSubscriptions(trx, user.companyId, endpointId, input.kinds);
    await recordEvent(trx, {
      companyId: user.companyId,
      userId: user.id,
      kind: 'webhook.added',
      entityType: 'webhook',
      entityId: endpointId,
      payload: { url: input.url, kinds: input.kinds },
    });
    return endpointId;
  });
  return { endpoint: await loadEndpoint(db, user.companyId, id), secret };
}

export async function changeEndpoint(
  db: Db,
  user: SessionUser,
  id: number,
  input: z.output<typeof UpdateWebhookSchema>,
): Promise<WebhookEndpointDto> {
  return db.transaction().execute(async (trx) => {
    const row = await findEndpoint(trx, user.companyId, id);
    if (!row) throw notFound(WEBHOOK_NOT_FOUND);
    if (input.kinds) await replaceSubscriptions(trx, user.companyId, id, input.kinds);
    if (input.enabled !== undefined && input.enabled !== (row.enabled === 1)) {
      await setEndpointEnabled(trx, user.companyId, id, input.enabled);
      await recordEvent(trx, {
        companyId: user.companyId,
        userId: user.id,
        kind: input.enabled ? 'webhook.enabled' : 'webhook.disabled',
        entityType: 'webhook',
        entityId: id,
        payload: { url: row.url },
      });
    }
    return loadEndpoint(trx, user.companyId, id);
  });
}

export async function removeEndpoint(db: Db, user: SessionUser, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await findEndpoint(trx, user.companyId, id);
    if (!row || !(await deleteEndpoint(trx, user.companyId, id))) throw notFound(WEBHOOK_NOT_FOUND);
    await recordEvent(trx, {
      companyId: user.companyId,
      userId: user.id,
      kind: 'webhook.deleted',
      entityType: 'webhook',
      entityId: id,
      payload: { url: row.url },
    });
  });
}

export async function loadDeliveries(db: Db, companyId: number, id: number): Promise<WebhookDeliveryDto[]> {
  if (!(await findEndpoint(db, companyId, id))) throw notFound(WEBHOOK_NOT_FOUND);
  return (await recentDeliveries(db, companyId, id)).map((row) => ({
    id: row.id,
    kind: row.kind,
    status: row.status === 'sent' || row.status === 'failed' ? row.status : 'pending',
    attempts: row.attempts,
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    last_attempt_at: row.last_attempt_at,
    next_attempt_at: row.status === 'pending' ? row.next_attempt_at : null,
    created_at: row.created_at,
  }));
}

/** Queues a test event for the endpoint, sent like any other delivery. */
export async function queueTestEvent(db: Db, companyId: number, id: number): Promise<void> {
  const row = await findEndpoint(db, companyId, id);
  if (!row) throw notFound(WEBHOOK_NOT_FOUND);
  if (row.enabled !== 1) throw badRequest('Switch the endpoint on to send it a test event.');
  await insertTestDelivery(db, companyId, id, nowIso());
}
