import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { BackupsDtoSchema } from '@domain/schemas/backup.schema';
import { requireUser } from '../../auth/session.plugin';
import { BackupBusyError } from '../../backups/sqlite-backups';
import { HttpError, notFound } from '../../http/errors';
import { findInboxCompanyId } from '../contact/contact.repo';
import type { FeatureOptions } from '../feature-options';
import { presentBackups } from './backups.presenter';

const tags = ['Backups'];

/**
 * The installation's automatic backups hold every company's data, so they belong to its operator: the Managers of
 * the company that reads the landing page's messages (CONTACT_INBOX_COMPANY, or the first company). Any other
 * company is told nothing (404), as for the messages.
 */
export const backupsRoutes: FastifyPluginAsync<FeatureOptions> = async (
  plain,
  { config, database, backups },
) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();

  async function requireOperator(companyId: number) {
    if (companyId !== (await findInboxCompanyId(database.db, config.contactInboxCompany))) throw notFound();
  }

  app.get(
    '/api/backups',
    {
      schema: {
        tags,
        summary: "The installation's automatic backups (the operator's company only)",
        response: { 200: BackupsDtoSchema },
      },
    },
    async (request) => {
      await requireOperator(requireUser(request).companyId);
      return presentBackups(backups);
    },
  );

  // begins a backup and answers at once; the page follows it through GET /api/backups
  app.post(
    '/api/backups',
    {
      schema: {
        tags,
        summary: "Begin a backup now; answers at once, the backup runs on (the operator's company only)",
        response: { 202: BackupsDtoSchema },
      },
    },
    async (request, reply) => {
      await requireOperator(requireUser(request).companyId);
      if (!backups.on) throw new HttpError(409, [backups.reason]);
      try {
        await backups.service.begin();
      } catch (error) {
        if (error instanceof BackupBusyError) throw new HttpError(409, [error.message]);
        // the folder cannot be written (permissions, a missing disk): the operator's to fix, said in words
        request.log.error({ err: error }, 'backup could not begin');
        throw new HttpError(503, [`The backup could not begin: ${(error as Error).message}`]);
      }
      return reply.status(202).send(presentBackups(backups));
    },
  );
};
