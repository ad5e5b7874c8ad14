import { sql } from 'kysely';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { HealthAnswerSchema } from '@domain/schemas/backup.schema';
import { DATABASE_UNREACHABLE, DISK_FULL } from '../../http/errors';
import type { DatabaseHandle } from '../../db/database';
import { presentHealthBackups } from '../backups/backups.presenter';
import type { FeatureOptions } from '../feature-options';

interface ReplicationRow {
  synchronous_standby_names: string;
  synchronous_standbys: number;
  standbys: number;
}

/**
 * PostgreSQL: the node this process writes to and whether a write it acknowledges is on a second node too (a
 * synchronous standby is connected and named in synchronous_standby_names; decision 034).
 */
async function topology(database: DatabaseHandle) {
  if (database.engine !== 'postgres') return {};
  const { rows } = await sql<ReplicationRow>`
    select current_setting('synchronous_standby_names') as synchronous_standby_names,
           (select count(*) from pg_stat_replication where sync_state in ('sync', 'quorum')) as synchronous_standbys,
           (select count(*) from pg_stat_replication) as standbys`.execute(database.db);
  const row = rows[0]!;
  return {
    writesTo: database.writableNode?.() ?? null,
    replication: {
      synchronous: row.synchronous_standby_names !== '' && Number(row.synchronous_standbys) > 0,
      standbys: Number(row.standbys),
    },
  };
}

/**
 * For load balancers and monitoring: 200 when the database answers and writes work, 503 otherwise: while the
 * database is unreachable, and for a while after a write failed on a full disk. It also tells the last good
 * automatic backup (SQLite), or why there are none; an old backup does not fail the check (decision 029).
 */
export const healthRoutes: FastifyPluginAsync<FeatureOptions> = async (plain, { database, backups }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const schema = {
    tags: ['Health'],
    summary: 'Whether the database answers and writes work (for load balancers), and the last good backup',
    response: { 200: HealthAnswerSchema, 503: HealthAnswerSchema },
  };
  app.get('/api/health', { schema }, async (request, reply) => {
    let nodes: Awaited<ReturnType<typeof topology>>;
    try {
      await sql`select 1`.execute(database.db);
      nodes = await topology(database);
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
    return {
      status: 'ok' as const,
      database: database.engine,
      ...nodes,
      backups: presentHealthBackups(backups),
    };
  });
};
