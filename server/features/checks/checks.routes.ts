import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CheckDtoSchema,
  CheckScanAnswerSchema,
  CheckScanSchema,
  CheckSummaryDtoSchema,
  ReportQuerySchema,
  ResolveCheckSchema,
  StartCheckSchema,
} from '@domain/schemas/check.schema';
import { idParams, pathId } from '@domain/schemas/route-params';
import { actorOf } from '../../auth/actor';
import { requireUser } from '../../auth/session.plugin';
import { attachment, fileAnswer, sendPdf } from '../../http/file-answers';
import type { FeatureOptions } from '../feature-options';
import { checkReportCsv, checkReportPdf } from './check-report';
import {
  cancelCheck,
  CHECK_FIELD_NOT_FOUND,
  CHECK_NOT_FOUND,
  recountField,
  finishCheck,
  listChecks,
  loadCheck,
  resolveDiscrepancy,
  scanInCheck,
  startCheck,
} from './checks.service';

const tags = ['Warehouse checks'];
const params = idParams(CHECK_NOT_FOUND);
const answer = { 200: CheckDtoSchema };

// Issue 15 part 3. Reading a check and its report: viewer. Starting, scanning, finishing, resolving: floor.
export const checksRoutes: FastifyPluginAsync<FeatureOptions> = async (plain, { database, config }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;

  app.get(
    '/api/checks',
    {
      schema: {
        tags,
        summary: "The company's warehouse checks, open and finished",
        response: { 200: z.array(CheckSummaryDtoSchema) },
      },
    },
    async (request) => listChecks(db, requireUser(request).companyId),
  );

  app.post(
    '/api/checks',
    {
      schema: {
        tags,
        summary: 'Start a check of a whole warehouse or of some of its fields',
        body: StartCheckSchema,
        response: { 201: CheckDtoSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await startCheck(db, actorOf(request), request.body)),
  );

  app.get(
    '/api/checks/:id',
    { schema: { tags, summary: 'One check with its fields and their vaults', params, response: answer } },
    async (request) => loadCheck(db, requireUser(request).companyId, request.params.id),
  );

  app.post(
    '/api/checks/:id/scans',
    {
      schema: {
        tags,
        summary: 'A scanned label: a field label opens the field, a vault label counts the vault as found',
        params,
        body: CheckScanSchema,
        response: { 200: CheckScanAnswerSchema },
      },
    },
    async (request) => scanInCheck(db, actorOf(request), request.params.id, request.body),
  );

  app.post(
    '/api/checks/:id/finish',
    { schema: { tags, summary: 'Finish a check: its report of discrepancies', params, response: answer } },
    async (request) => finishCheck(db, actorOf(request), request.params.id),
  );

  app.post(
    '/api/checks/:id/cancel',
    { schema: { tags, summary: 'Give up a check before it is finished', params, response: answer } },
    async (request) => cancelCheck(db, actorOf(request), request.params.id),
  );

  app.post(
    '/api/checks/:id/fields/:fieldId/recount',
    {
      schema: {
        tags,
        summary: 'Count a field of the check again from the start',
        params: z.object({ id: pathId(CHECK_NOT_FOUND), fieldId: pathId(CHECK_FIELD_NOT_FOUND) }),
        response: answer,
      },
    },
    async (request) => recountField(db, actorOf(request), request.params.id, request.params.fieldId),
  );

  app.post(
    '/api/checks/:id/resolve',
    {
      schema: {
        tags,
        summary: 'Resolve one discrepancy of a finished check',
        params,
        body: ResolveCheckSchema,
        response: answer,
      },
    },
    async (request) => resolveDiscrepancy(db, actorOf(request), request.params.id, request.body),
  );

  app.get(
    '/api/checks/:id/report.csv',
    {
      schema: {
        tags,
        summary: "The check's report as a CSV file",
        params,
        produces: ['text/csv'],
        response: { 200: fileAnswer('text/csv', 'warehouse-check-{id}.csv, UTF-8') },
      },
    },
    async (request, reply) => {
      const check = await loadCheck(db, requireUser(request).companyId, request.params.id);
      return reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', attachment(`warehouse-check-${check.id}.csv`))
        .header('Cache-Control', 'no-store')
        .send(checkReportCsv(check));
    },
  );

  app.get(
    '/api/checks/:id/report.pdf',
    {
      schema: {
        tags,
        summary: "The check's report as a PDF, its times in the given time zone",
        params,
        querystring: ReportQuerySchema,
        produces: ['application/pdf'],
        response: { 200: fileAnswer('application/pdf', 'warehouse-check-{id}.pdf') },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const check = await loadCheck(db, user.companyId, request.params.id);
      // the browser names its time zone (?tz=Europe/Berlin); otherwise REPORT_TIME_ZONE, UTC by default. Dates are
      // written as the company writes them (its locale).
      const bytes = await checkReportPdf(
        check,
        request.query.tz ?? config.reportTimeZone,
        user.company.locale,
      );
      return sendPdf(reply, `warehouse-check-${check.id}.pdf`, bytes);
    },
  );
};
