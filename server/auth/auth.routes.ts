import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { LoginSchema } from '@domain/schemas/auth.schema';
import type { Db } from '../db/database';
import { endSessionStreams } from '../events/live-streams';
import { forbidden, parseInput } from '../http/errors';
import { isSameOriginRequest } from '../http/security';
import { type SignInLimits, authenticate } from './auth.service';
import { requireUser } from './session.plugin';

export const LOGOUT_FROM_ELSEWHERE =
  'Sign out from the app itself; a link from another site cannot sign you out.';

export const authRoutes: FastifyPluginAsync<{ db: Db; limits: SignInLimits }> = async (
  app,
  { db, limits },
) => {
  app.get('/api/auth/', async (request) => requireUser(request));

  app.post('/api/auth/login', { bodyLimit: 16 * 1024 }, async (request, reply) => {
    const { email, password } = parseInput(LoginSchema, request.body);
    const user = await authenticate(db, email, password, request.ip, limits);
    // rotate: whatever session the browser had is ended before the new one starts
    await app.sessions.end(request, reply);
    await app.sessions.start(reply, { id: user.id, companyId: user.companyId });
    return user;
  });

  // the spec's GET stays, but only from this site: another site's link or redirect must not sign anyone out
  async function logout(request: FastifyRequest, reply: FastifyReply) {
    if (!isSameOriginRequest(request)) throw forbidden(LOGOUT_FROM_ELSEWHERE);
    endSessionStreams(request.sessionId);
    await app.sessions.end(request, reply);
    return { message: 'User logged out' };
  }
  app.get('/api/auth/logout', logout);
  app.post('/api/auth/logout', logout);
};
