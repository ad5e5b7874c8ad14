import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CompanyFileJobDtoSchema, LatestCompanyFileJobSchema } from '@domain/schemas/company-file.schema';
import { idParams } from '@domain/schemas/route-params';
import { requireUser } from '../../auth/session.plugin';
import { attachment, fileAnswer } from '../../http/file-answers';
import type { FeatureOptions } from '../feature-options';
import { CompanyFileJobs, JOB_NOT_FOUND } from './company-file-jobs.service';

const tags = ['Company file'];

/**
 * The Backups page's download of the company file (issue 25): a Manager starts a job, the page follows its progress
 * and downloads the file when it is ready. Any server process answers each call: the job is a row of the database.
 */
export const companyFileRoutes: FastifyPluginAsync<FeatureOptions> = async (plain, { database }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const jobs = new CompanyFileJobs(database);
  app.addHook('onClose', async () => jobs.close());

  app.post(
    '/api/company-file/jobs',
    {
      schema: {
        tags,
        summary: "Start making the company file (or answer the one being made); follow it with 'latest'",
        response: { 202: CompanyFileJobDtoSchema },
      },
    },
    async (request, reply) => reply.status(202).send(await jobs.start(requireUser(request))),
  );

  app.get(
    '/api/company-file/jobs/latest',
    {
      schema: {
        tags,
        summary: "The company file's latest download and its progress",
        response: { 200: LatestCompanyFileJobSchema },
      },
    },
    async (request) => ({ job: await jobs.latest(requireUser(request)) }),
  );

  app.get(
    '/api/company-file/jobs/:id/download',
    {
      schema: {
        tags,
        summary: "The ready company file: a tar archive of the company's rows and attachments",
        params: idParams(JOB_NOT_FOUND),
        produces: ['application/x-tar'],
        response: {
          200: fileAnswer(
            ['application/x-tar'],
            "the company file: a tar archive of the company's rows and files",
          ),
        },
      },
    },
    async (request, reply) => {
      const { job, stream } = await jobs.download(requireUser(request), request.params.id);
      return reply
        .header('Content-Type', 'application/x-tar')
        .header('Content-Length', String(job.bytes))
        .header('Content-Disposition', attachment(job.fileName))
        .header('Cache-Control', 'no-store')
        .send(stream);
    },
  );
};
