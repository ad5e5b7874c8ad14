import type { FastifyPluginAsync } from 'fastify';
import { requireUser } from '../../auth/session.plugin';
import type { FeatureOptions } from '../feature-options';
import { printListStream } from './print.service';

export const printRoutes: FastifyPluginAsync<FeatureOptions> = async (app, { database }) => {
  // streamed (issue 11): ten Print Studios opening at once must not hold ten whole answers in memory
  app.get('/api/vaults/all', async (request, reply) => {
    const user = requireUser(request);
    const body = await printListStream(database.db, user.companyId);
    return reply.type('application/json; charset=utf-8').send(body);
  });
};
