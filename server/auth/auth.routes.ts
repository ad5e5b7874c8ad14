import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { LoginSchema, SessionUserSchema } from '@domain/schemas/auth.schema';
import { MessageAnswerSchema } from '@domain/schemas/route-params';
import type { Db } from '../db/database';
import { endSessionStreams } from '../events/live-streams';
import { forbidden } from '../http/errors';
import { isSameOriginRequest } from '../http/security';
import { type SignInLimits, authenticate } from './auth.service';
import { requireUser } from './session.plugin';

export const LOGOUT_FROM_ELSEWHERE =
  'Sign out from the app itself; a link from another site cannot sign you out.';

const tags = ['Sign-in'];

export const authRoutes: FastifyPluginAsync<{ db: Db; limits: SignInLimits }> = async (
  plain,
  { db, limits },
) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/auth/',
    {
      schema: {
        tags,
        summary: 'Who is signed in, with their role and company',
        response: { 200: SessionUserSchema },
      },
    },
    async (request) => requireUser(request),
  );

  app.post(
    '/api/auth/login',
    {
      bodyLimit: 16 * 1024,
      schema: {
        tags,
        summary: 'Sign in with email and password (starts a session cookie; API tokens do not work here)',
        body: LoginSchema,
        response: { 200: SessionUserSchema },
      },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      const user = await authenticate(db, email, password, request.ip, limits);
      // rotate: whatever session the browser had is ended before the new one starts
      await app.sessions.end(request, reply);
      await app.sessions.start(reply, { id: user.id, companyId: user.companyId });
      return user;
    },
  );

  // the spec's GET stays, but only from this site: another site's link or redirect must not sign anyone out
  async function logout(request: FastifyRequest, reply: FastifyReply) {
    if (!isSameOriginRequest(request)) throw forbidden(LOGOUT_FROM_ELSEWHERE);
    endSessionStreams(request.sessionId);
    await app.sessions.end(request, reply);
    return { message: 'User logged out' };
  }
  const logoutSchema = {
    tags,
    summary: 'Sign out: ends this session (only from this site, never from a link elsewhere)',
    response: { 200: MessageAnswerSchema },
  };
  app.get('/api/auth/logout', { schema: logoutSchema }, logout);
  app.post('/api/auth/logout', { schema: logoutSchema }, logout);
};
