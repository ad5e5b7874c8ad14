import type { FastifyPluginAsync } from 'fastify';
import { requireUser } from '../../auth/session.plugin';
import { parseId } from '../../http/errors';
import type { FeatureOptions } from '../feature-options';
import { CompanyFileJobs, JOB_NOT_FOUND } from './company-file-jobs.service';

/**
 * The Backups page's download of the company file (issue 25): a Manager starts a job, the page follows its progress
 * and downloads the file when it is ready. Any server process answers each call: the job is a row of the database.
 */
export const companyFileRoutes: FastifyPluginAsync<FeatureOptions> = async (app, { database }) => {
  const jobs = new CompanyFileJobs(database);
  app.addHook('onClose', async () => jobs.close());

  app.post('/api/company-file/jobs', async (request, reply) =>
    reply.status(202).send(await jobs.start(requireUser(request))),
  );

  app.get('/api/company-file/jobs/latest', async (request) => ({
    job: await jobs.latest(requireUser(request)),
  }));

  app.get<{ Params: { id: string } }>('/api/company-file/jobs/:id/download', async (request, reply) => {
    const { job, stream } = await jobs.download(
      requireUser(request),
      parseId(request.params.id, JOB_NOT_FOUND),
    );
    return reply
      .header('Content-Type', 'application/x-tar')
      .header('Content-Length', String(job.bytes))
      .header('Content-Disposition', `attachment; filename="${job.fileName}"`)
      .header('Cache-Control', 'no-store')
      .send(stream);
  });
};
