import { sql } from 'kysely';
import type { FastifyPluginAsync } from 'fastify';
import { DATABASE_UNREACHABLE, DISK_FULL } from '../../http/errors';
import { presentHealthBackups } from '../backups/backups.presenter';
import type { FeatureOptions } from '../feature-options';

/**
 * For load balancers and monitoring: 200 when the database answers and writes work, 503 otherwise: while the
 * database is unreachable, and for a while after a write failed on a full disk. It also tells the last good
 * automatic backup (SQLite), or why there are none; an old backup does not fail the check (decision 029).
 */
export const healthRoutes: FastifyPluginAsync<FeatureOptions> = async (app, { database, backups }) => {
  app.get('/api/health', async (request, reply) => {
    try {
      await sql`select 1`.execute(database.db);
    } catch (error) {
      request.log.warn({ err: error }, 'health check failed: the database is not reachable');
      return reply
        .status(503)
        .send({ status: 'unavailable', database: database.engine, errors: [DATABASE_UNREACHABLE] });
    }
    const reason = database.faults.writesFailing();
    if (reason) {
      return reply.status(503).send({
        status: 'degraded',
        database: database.engine,
        writes: 'failing',
        reason,
        errors: [DISK_FULL],
      });
    }
    return { status: 'ok', database: database.engine, backups: presentHealthBackups(backups) };
  });
};
