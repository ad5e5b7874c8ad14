import type { FastifyPluginAsync } from 'fastify';
import { ActivityQuerySchema } from '../../../domain/schemas/activity.schema';
import { requireUser } from '../../auth/session.plugin';
import { parseId, parseInput } from '../../http/errors';
import type { FeatureOptions } from '../feature-options';
import {
  VAULT_HISTORY_NOT_FOUND,
  exportActivityCsv,
  loadActivity,
  loadVaultHistory,
} from './activity.service';

/** The company's history: the Activity page, its CSV export, and one vault's timeline. Read-only by design. */
export const activityRoutes: FastifyPluginAsync<FeatureOptions> = async (app, { database }) => {
  const { db } = database;

  app.get('/api/activity', async (request) =>
    loadActivity(db, requireUser(request).companyId, parseInput(ActivityQuerySchema, request.query)),
  );

  app.get('/api/activity/export', async (request, reply) => {
    const user = requireUser(request);
    // an export may lag a second behind the last writes: it may read a standby (READ_FROM_STANDBY, decision 034)
    const query = parseInput(ActivityQuerySchema, request.query);
    const csv = await exportActivityCsv(database.readDb, user.companyId, query);
    return reply
      .header('Content-Type', 'text/csv; charset=utf-8')
      .header('Content-Disposition', 'attachment; filename="activity.csv"')
      .send(csv);
  });

  app.get<{ Params: { id: string } }>('/api/vaults/:id/history', async (request) =>
    loadVaultHistory(db, requireUser(request).companyId, parseId(request.params.id, VAULT_HISTORY_NOT_FOUND)),
  );
};
