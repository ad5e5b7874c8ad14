import { sql } from 'kysely';
import type { FastifyPluginAsync } from 'fastify';
import type { FeatureOptions } from '../feature-routes';

/** For load balancers and monitoring: answers 200 when the database answers, 503 otherwise. */
export const healthRoutes: FastifyPluginAsync<FeatureOptions> = async (app, { database }) => {
  app.get('/api/health', async (request, reply) => {
    try {
      await sql`select 1`.execute(database.db);
      return { status: 'ok', database: database.engine };
    } catch (error) {
      request.log.error({ err: error }, 'health check failed');
      return reply.status(503).send({ errors: ['The database is not reachable.'] });
    }
  });
};
