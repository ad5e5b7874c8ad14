import type { FastifyPluginAsync } from 'fastify';
import { SearchQuerySchema } from '../../../domain/schemas/search.schema';
import { requireUser } from '../../auth/session.plugin';
import { parseInput } from '../../http/errors';
import type { FeatureOptions } from '../feature-options';
import { searchCompany } from './search.service';

/** Issue 27: the top bar's find, across every warehouse of the company. */
export const searchRoutes: FastifyPluginAsync<FeatureOptions> = async (app, { database }) => {
  const { db } = database;

  app.get('/api/search', async (request) => {
    const user = requireUser(request);
    return searchCompany(db, user.companyId, parseInput(SearchQuerySchema, request.query));
  });
};
