import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isRole } from '@domain/rules/roles';
import type { SessionUser } from '@domain/schemas/auth.schema';
import type { Db } from '../db/database';
import { unauthorized } from '../http/errors';
import { findLiveToken, noteTokenUse } from './api-tokens.repo';
import type { SessionCache } from './session-cache';
import { deleteSession, extendSession, findLiveSessionUser, insertSession } from './sessions.repo';

export const SESSION_COOKIE = 'wm_session';

declare module 'fastify' {
  interface FastifyRequest {
    sessionId: string | null;
    user: SessionUser | null;
    /** the API token the request came with (decision 044), null for a browser session */
    apiToken: { id: number; name: string } | null;
  }
}

/**
 * Routes an API token never opens (decision 044): signing in and out, who-am-I, one-time links and the member's own
 * profile and password (a token is no member), the live stream (browsers' own; programs are sent webhooks) and a
 * customer portal.
 */
const TOKEN_REFUSED = [
  /^\/api\/auth(\/|$)/,
  /^\/api\/team\/link(\/|$)/,
  /^\/api\/profile$/,
  /^\/api\/events$/,
  /^\/api\/portal(\/|$)/,
];

export function tokenRefusedOn(url: string): boolean {
  return TOKEN_REFUSED.some((pattern) => pattern.test(url));
}

export const TOKEN_NOT_ACCEPTED = 'API tokens do not work on this route. Sign in instead.';
export const TOKEN_INVALID = 'The API token is not valid: it is unknown, expired or revoked.';
/** A token's last use is written at most this often. */
const TOKEN_USE_WRITE_MS = 60_000;

/** The token of an `Authorization: Bearer` header; undefined without one. */
function bearerOf(header: string | undefined): string | undefined {
  if (!header || !/^Bearer(\s|$)/i.test(header)) return undefined;
  const match = /^Bearer\s+(\S*)\s*$/i.exec(header);
  return match ? match[1]! : '';
}

export interface SessionOptions {
  db: Db;
  /** sliding lifetime: renewed while the session is used */
  ttlMs: number;
  /** absolute lifetime from sign-in, however busy the session */
  maxAgeMs: number;
  secureCookie: boolean;
  /** PostgreSQL: the sessions this process looked up lately (decision 024) */
  cache?: SessionCache;
}

const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

/** The signed-in user, or a 401 for the route. */
export function requireUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw unauthorized();
  return request.user;
}

export function presentSessionUser(row: {
  id: number;
  email: string;
  username: string;
  role: string;
  company_id: number;
  company_name: string;
  company_locale: string;
}): SessionUser {
  return {
    id: row.id,
    email: row.email,
    username: row.username,
    role: isRole(row.role) ? row.role : 'viewer',
    companyId: row.company_id,
    company: { id: row.company_id, name: row.company_name, locale: row.company_locale },
  };
}

export interface SessionManager {
  start(reply: FastifyReply, user: { id: number; companyId: number }): Promise<void>;
  end(request: FastifyRequest, reply: FastifyReply): Promise<void>;
}

/** Sessions live in the database behind an httpOnly, SameSite=Lax cookie holding a random token. */
export const sessionPlugin = fp<SessionOptions>(async (app, options) => {
  const { db, ttlMs, maxAgeMs, secureCookie, cache } = options;
  const expiryFrom = (startedAt: number) => new Date(Math.min(Date.now() + ttlMs, startedAt + maxAgeMs));
  const cookieOptions = { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: secureCookie };

  app.decorateRequest('sessionId', null);
  app.decorateRequest('user', null);
  app.decorateRequest('apiToken', null);

  app.addHook('onRequest', async (request, reply) => {
    const url = request.routeOptions.url;
    const bearer = url?.startsWith('/api/') ? bearerOf(request.headers.authorization) : undefined;
    // an API token (decision 044): the request acts with the token's role in its company; its cookie is not read
    if (bearer !== undefined) {
      if (tokenRefusedOn(url!)) throw unauthorized(TOKEN_NOT_ACCEPTED);
      if (!bearer || bearer.length > 200) throw unauthorized(TOKEN_INVALID);
      const row = await findLiveToken(db, hashToken(bearer));
      if (!row) throw unauthorized(TOKEN_INVALID);
      request.user = { ...presentSessionUser(row), role: isRole(row.token_role) ? row.token_role : 'viewer' };
      request.apiToken = { id: row.token_id, name: row.token_name };
      const now = Date.now();
      if (!row.last_used_at || now - Date.parse(row.last_used_at) >= TOKEN_USE_WRITE_MS)
        await noteTokenUse(db, row.token_id, new Date(now).toISOString());
      return;
    }
    const token = request.cookies[SESSION_COOKIE];
    if (!token || token.length > 200) return;
    const id = hashToken(token);
    const startedAfter = new Date(Date.now() - maxAgeMs).toISOString();
    let session = cache?.get(id, new Date().toISOString(), startedAfter);
    if (!session) {
      const mark = cache?.mark() ?? 0;
      session = await findLiveSessionUser(db, id, startedAfter);
      if (!session) return;
      cache?.keep(id, session, mark);
    }
    request.sessionId = id;
    request.user = presentSessionUser(session);
    // sliding expiry: renew once less than half the lifetime is left, never past the absolute lifetime
    const renewed = expiryFrom(Date.parse(session.created_at));
    if (
      Date.parse(session.expires_at) - Date.now() < ttlMs / 2 &&
      renewed.getTime() > Date.parse(session.expires_at)
    ) {
      const mark = cache?.mark() ?? 0;
      await extendSession(db, id, renewed.toISOString());
      cache?.keep(id, { ...session, expires_at: renewed.toISOString() }, mark);
      reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions, expires: renewed });
    }
  });

  const manager: SessionManager = {
    async start(reply, user) {
      const token = crypto.randomBytes(32).toString('base64url');
      const expiresAt = expiryFrom(Date.now());
      await insertSession(db, {
        id: hashToken(token),
        userId: user.id,
        companyId: user.companyId,
        expiresAt: expiresAt.toISOString(),
      });
      reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions, expires: expiresAt });
    },
    async end(request, reply) {
      if (request.sessionId) {
        await deleteSession(db, request.sessionId);
        cache?.forget(request.sessionId);
      }
      request.sessionId = null;
      request.user = null;
      reply.clearCookie(SESSION_COOKIE, cookieOptions);
    },
  };
  app.decorate('sessions', manager);
});

declare module 'fastify' {
  interface FastifyInstance {
    sessions: SessionManager;
  }
}
