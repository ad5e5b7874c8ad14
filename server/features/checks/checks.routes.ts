import type { FastifyPluginAsync } from 'fastify';
import {
  CheckScanSchema,
  ReportQuerySchema,
  ResolveCheckSchema,
  StartCheckSchema,
} from '@domain/schemas/check.schema';
import { actorOf } from '../../auth/actor';
import { requireUser } from '../../auth/session.plugin';
import { parseId, parseInput } from '../../http/errors';
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

// Issue 15 part 3. Reading a check and its report: viewer. Starting, scanning, finishing, resolving: floor.
export const checksRoutes: FastifyPluginAsync<FeatureOptions> = async (app, { database, config }) => {
  const { db } = database;

  app.get('/api/checks', async (request) => {
    const user = requireUser(request);
    return listChecks(db, user.companyId);
  });

  app.post('/api/checks', async (request, reply) => {
    const actor = actorOf(request);
    return reply.status(201).send(await startCheck(db, actor, parseInput(StartCheckSchema, request.body)));
  });

  app.get<{ Params: { id: string } }>('/api/checks/:id', async (request) => {
    const user = requireUser(request);
    return loadCheck(db, user.companyId, parseId(request.params.id, CHECK_NOT_FOUND));
  });

  app.post<{ Params: { id: string } }>('/api/checks/:id/scans', async (request) => {
    const actor = actorOf(request);
    const checkId = parseId(request.params.id, CHECK_NOT_FOUND);
    return scanInCheck(db, actor, checkId, parseInput(CheckScanSchema, request.body));
  });

  app.post<{ Params: { id: string } }>('/api/checks/:id/finish', async (request) => {
    const actor = actorOf(request);
    return finishCheck(db, actor, parseId(request.params.id, CHECK_NOT_FOUND));
  });

  app.post<{ Params: { id: string } }>('/api/checks/:id/cancel', async (request) => {
    const actor = actorOf(request);
    return cancelCheck(db, actor, parseId(request.params.id, CHECK_NOT_FOUND));
  });

  app.post<{ Params: { id: string; fieldId: string } }>(
    '/api/checks/:id/fields/:fieldId/recount',
    async (request) => {
      const actor = actorOf(request);
      const checkId = parseId(request.params.id, CHECK_NOT_FOUND);
      return recountField(db, actor, checkId, parseId(request.params.fieldId, CHECK_FIELD_NOT_FOUND));
    },
  );

  app.post<{ Params: { id: string } }>('/api/checks/:id/resolve', async (request) => {
    const actor = actorOf(request);
    const checkId = parseId(request.params.id, CHECK_NOT_FOUND);
    return resolveDiscrepancy(db, actor, checkId, parseInput(ResolveCheckSchema, request.body));
  });

  app.get<{ Params: { id: string } }>('/api/checks/:id/report.csv', async (request, reply) => {
    const user = requireUser(request);
    const check = await loadCheck(db, user.companyId, parseId(request.params.id, CHECK_NOT_FOUND));
    return reply
      .header('Content-Type', 'text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="warehouse-check-${check.id}.csv"`)
      .header('Cache-Control', 'no-store')
      .send(checkReportCsv(check));
  });

  app.get<{ Params: { id: string } }>('/api/checks/:id/report.pdf', async (request, reply) => {
    const user = requireUser(request);
    const check = await loadCheck(db, user.companyId, parseId(request.params.id, CHECK_NOT_FOUND));
    // the browser names its time zone (?tz=Europe/Berlin); otherwise REPORT_TIME_ZONE, UTC by default. Dates are
    // written as the company writes them (its locale).
    const { tz } = parseInput(ReportQuerySchema, request.query);
    const bytes = await checkReportPdf(check, tz ?? config.reportTimeZone, user.company.locale);
    return reply
      .type('application/pdf')
      .header('Content-Disposition', `attachment; filename="warehouse-check-${check.id}.pdf"`)
      .header('Cache-Control', 'no-store')
      .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  });
};
