import type { FastifyPluginAsync } from 'fastify';
import { LoginSchema } from '../../domain/schemas/auth.schema';
import type { Db } from '../db/database';
import { endSessionStreams } from '../events/live-streams';
import { parseInput } from '../http/errors';
import { authenticate } from './auth.service';
import { requireUser } from './session.plugin';

export const authRoutes: FastifyPluginAsync<{ db: Db; loginRateLimit: number }> = async (
  app,
  { db, loginRateLimit },
) => {
  app.get('/api/auth/', async (request) => requireUser(request));

  app.post(
    '/api/auth/login',
    {
      config: {
        rateLimit: {
          max: loginRateLimit,
          timeWindow: '1 minute',
          errorResponseBuilder: () => ({
            statusCode: 429,
            errors: ['Too many sign-in attempts from this address. Please wait a minute and try again.'],
          }),
        },
      },
    },
    async (request, reply) => {
      const { email, password } = parseInput(LoginSchema, request.body);
      const user = await authenticate(db, email, password, request.ip);
      // rotate: whatever session the browser had is ended before the new one starts
      await app.sessions.end(request, reply);
      await app.sessions.start(reply, { id: user.id, companyId: user.companyId });
      return user;
    },
  );

  app.get('/api/auth/logout', async (request, reply) => {
    endSessionStreams(request.sessionId);
    await app.sessions.end(request, reply);
    return { message: 'User logged out' };
  });
};
