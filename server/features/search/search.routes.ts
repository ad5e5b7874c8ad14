import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { SearchAnswerDtoSchema, SearchQuerySchema } from '@domain/schemas/search.schema';
import { requireUser } from '../../auth/session.plugin';
import type { FeatureOptions } from '../feature-options';
import { searchCompany } from './search.service';

/** Issue 27: the top bar's find, across every warehouse of the company. */
export const searchRoutes: FastifyPluginAsync<FeatureOptions> = async (plain, { database }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;

  app.get(
    '/api/search',
    {
      schema: {
        tags: ['Search'],
        summary: "Find the company's fields, vaults, customers, orders and pallets by the start of a name",
        querystring: SearchQuerySchema,
        response: { 200: SearchAnswerDtoSchema },
      },
    },
    async (request) => searchCompany(db, requireUser(request).companyId, request.query),
  );
};
