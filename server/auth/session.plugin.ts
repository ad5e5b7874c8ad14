import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isRole } from '../../domain/rules/roles';
import type { SessionUser } from '../../domain/schemas/auth.schema';
import type { Db } from '../db/database';
import { unauthorized } from '../http/errors';
import type { SessionCache } from './session-cache';
import { deleteSession, extendSession, findLiveSessionUser, insertSession } from './sessions.repo';

export const SESSION_COOKIE = 'wm_session';

declare module 'fastify' {
  interface FastifyRequest {
    sessionId: string | null;
    user: SessionUser | null;
  }
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

  app.addHook('onRequest', async (request, reply) => {
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
