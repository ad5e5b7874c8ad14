import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PrintVaultDtoSchema } from '@domain/schemas/vault.schema';
import { requireUser } from '../../auth/session.plugin';
import { sendBytes } from '../../http/file-answers';
import type { FeatureOptions } from '../feature-options';
import { printListStream } from './print.service';

export const printRoutes: FastifyPluginAsync<FeatureOptions> = async (plain, { database }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  // streamed (issue 11): ten Print Studios opening at once must not hold ten whole answers in memory
  app.get(
    '/api/vaults/all',
    {
      schema: {
        tags: ['Vaults'],
        summary: "The company's vaults in print order (Print Studio), streamed",
        response: {
          200: {
            description: 'a JSON array, written in chunks as it is read',
            content: { 'application/json': { schema: z.array(PrintVaultDtoSchema) } },
          },
        },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const body = await printListStream(database.db, user.companyId);
      return sendBytes(reply.type('application/json; charset=utf-8'), body);
    },
  );
};
