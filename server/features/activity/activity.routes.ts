import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ActivityItemDtoSchema,
  ActivityPageDtoSchema,
  ActivityQuerySchema,
} from '@domain/schemas/activity.schema';
import { idParams } from '@domain/schemas/route-params';
import { requireUser } from '../../auth/session.plugin';
import type { FeatureOptions } from '../feature-options';
import {
  VAULT_HISTORY_NOT_FOUND,
  exportActivityCsv,
  loadActivity,
  loadVaultHistory,
} from './activity.service';
import { attachment } from '../../http/file-answers';

const tags = ['Activity'];

/** The company's history: the Activity page, its CSV export, and one vault's timeline. Read-only by design. */
export const activityRoutes: FastifyPluginAsync<FeatureOptions> = async (plain, { database }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;

  app.get(
    '/api/activity',
    {
      schema: {
        tags,
        summary: "One page of the company's history, newest first, filtered",
        querystring: ActivityQuerySchema,
        response: { 200: ActivityPageDtoSchema },
      },
    },
    async (request) => loadActivity(db, requireUser(request).companyId, request.query),
  );

  app.get(
    '/api/activity/export',
    {
      schema: {
        tags,
        summary: 'The filtered history as a CSV file',
        querystring: ActivityQuerySchema,
        produces: ['text/csv'],
        response: {
          200: {
            description: 'activity.csv',
            content: { 'text/csv': { schema: z.string().describe('CSV, UTF-8') } },
          },
        },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      // an export may lag a second behind the last writes: it may read a standby (READ_FROM_STANDBY, decision 034)
      const csv = await exportActivityCsv(database.readDb, user.companyId, request.query);
      return reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', attachment('activity.csv'))
        .send(csv);
    },
  );

  app.get(
    '/api/vaults/:id/history',
    {
      schema: {
        tags,
        summary: "One vault's timeline",
        params: idParams(VAULT_HISTORY_NOT_FOUND),
        response: { 200: z.array(ActivityItemDtoSchema) },
      },
    },
    async (request) => loadVaultHistory(db, requireUser(request).companyId, request.params.id),
  );
};
