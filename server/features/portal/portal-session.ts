import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { PORTAL_SESSION_DAYS } from '@domain/schemas/customer.schema';
import { type Db, nowIso } from '../../db/database';
import { unauthorized } from '../../http/errors';
import { deletePortalSession, findLivePortalSession, insertPortalSession } from './portal.repo';

/** The portal's own cookie: a staff cookie (wm_session) is never read as one, nor this as a staff session. */
export const PORTAL_COOKIE = 'wm_portal';

/** The customer a portal session belongs to. */
export interface PortalCustomer {
  sessionId: string;
  customerId: number;
  companyId: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    portalCustomer: PortalCustomer | null;
  }
  interface FastifyInstance {
    portalSessions: {
      start(reply: FastifyReply, customer: { customerId: number; companyId: number }): Promise<void>;
      end(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    };
  }
}

export const hashPortalToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

/** The signed-in portal customer, or a 401. */
export function requirePortalCustomer(request: FastifyRequest): PortalCustomer {
  if (!request.portalCustomer) throw unauthorized();
  return request.portalCustomer;
}

/** Portal sessions in their own table behind their own httpOnly cookie, limited to the portal's paths. */
export const portalSessionPlugin = fp<{ db: Db; secureCookie: boolean }>(
  async (app, { db, secureCookie }) => {
    const cookieOptions = { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: secureCookie };
    app.decorateRequest('portalCustomer', null);
    app.addHook('onRequest', async (request) => {
      // only the portal's calls read the cookie: it opens nothing else
      if (!request.url.startsWith('/api/portal/')) return;
      const token = request.cookies[PORTAL_COOKIE];
      if (!token || token.length > 200) return;
      const id = hashPortalToken(token);
      const session = await findLivePortalSession(db, id, nowIso());
      if (session)
        request.portalCustomer = {
          sessionId: id,
          customerId: session.customer_id,
          companyId: session.company_id,
        };
    });
    app.decorate('portalSessions', {
      async start(reply, customer) {
        const token = crypto.randomBytes(32).toString('base64url');
        const expiresAt = new Date(Date.now() + PORTAL_SESSION_DAYS * 24 * 3_600_000);
        await insertPortalSession(db, {
          id: hashPortalToken(token),
          customerId: customer.customerId,
          companyId: customer.companyId,
          expiresAt: expiresAt.toISOString(),
        });
        reply.setCookie(PORTAL_COOKIE, token, { ...cookieOptions, expires: expiresAt });
      },
      async end(request, reply) {
        if (request.portalCustomer) await deletePortalSession(db, request.portalCustomer.sessionId);
        request.portalCustomer = null;
        reply.clearCookie(PORTAL_COOKIE, cookieOptions);
      },
    });
  },
);
