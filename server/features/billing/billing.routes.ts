import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  BillingRunSchema,
  BillingSettingsDtoSchema,
  BillingSettingsSchema,
  CreditNoteSchema,
  InvoiceListQuerySchema,
  PaymentSchema,
  RateSchema,
  VoidInvoiceSchema,
} from '@domain/schemas/billing.schema';
import { actorOf } from '../../auth/actor';
import { requireUser } from '../../auth/session.plugin';
import { badRequest, notFound, parseId, parseInput } from '../../http/errors';
import { ACCOUNT_NOT_FOUND, getAccount, today } from '../accounts/accounts.service';
import {
  type ExportFile,
  exportCsv,
  exportTable,
  exportXlsx,
  invoicePdf,
  sitNoticePdf,
  statementPdf,
} from './billing-documents';
import type { FeatureOptions } from '../feature-options';
import { billingOverview } from './billing-overview.service';
import { startBillingDay } from './billing-day';
import { dryRun, issueRun } from './billing-run.service';
import {
  addRate,
  agingReport,
  creditInvoice,
  getInvoice,
  getSettings,
  getStatement,
  INVOICE_NOT_FOUND,
  listInvoices,
  listPayments,
  listRates,
  recordPayment,
  saveSettings,
  voidInvoice,
} from './billing.service';

// Issue 28: billing settings, rates, billing runs, invoices, payments, statements and aging; Office and Managers.
export const billingRoutes: FastifyPluginAsync<FeatureOptions> = async (app, { database }) => {
  const { db } = database;
  type WithId = { Params: { id: string } };
  // the billing day's automatic run, for the companies that turned it on (decision 051)
  startBillingDay(app, db);

  const declared = app.withTypeProvider<ZodTypeProvider>();
  declared.get(
    '/api/billing/settings',
    {
      schema: {
        tags: ['Billing'],
        summary: "The company's billing settings: currency, tax, SIT days, terms, holds, automatic billing",
        response: { 200: BillingSettingsDtoSchema },
      },
    },
    async (request) => getSettings(db, requireUser(request).companyId),
  );
  declared.put(
    '/api/billing/settings',
    {
      schema: {
        tags: ['Billing'],
        summary: "Change the company's billing settings (automatic billing left as it is when not named)",
        body: BillingSettingsSchema,
        response: { 200: BillingSettingsDtoSchema },
      },
    },
    async (request) => saveSettings(db, actorOf(request).companyId, request.body),
  );

  app.get('/api/billing/rates', async (request) => listRates(db, requireUser(request).companyId));
  app.post('/api/billing/rates', async (request, reply) => {
    const actor = actorOf(request);
    return reply.status(201).send(await addRate(db, actor, parseInput(RateSchema, request.body)));
  });

  app.post('/api/billing/runs/dry-run', async (request) => {
    const user = requireUser(request);
    return dryRun(db, user.companyId, parseInput(BillingRunSchema, request.body).period);
  });
  app.post('/api/billing/runs', async (request, reply) => {
    const actor = actorOf(request);
    return reply
      .status(201)
      .send(await issueRun(db, actor, parseInput(BillingRunSchema, request.body).period));
  });

  app.get('/api/invoices', async (request) => {
    const user = requireUser(request);
    return listInvoices(db, user.companyId, parseInput(InvoiceListQuerySchema, request.query));
  });
  app.get<WithId>('/api/invoices/:id', async (request) => {
    const user = requireUser(request);
    return getInvoice(db, user.companyId, parseId(request.params.id, INVOICE_NOT_FOUND));
  });
  app.post<WithId>('/api/invoices/:id/credit-notes', async (request, reply) => {
    const actor = actorOf(request);
    const id = parseId(request.params.id, INVOICE_NOT_FOUND);
    return reply
      .status(201)
      .send(await creditInvoice(db, actor, id, parseInput(CreditNoteSchema, request.body)));
  });
  app.post<WithId>('/api/invoices/:id/void', async (request) => {
    const actor = actorOf(request);
    const id = parseId(request.params.id, INVOICE_NOT_FOUND);
    return voidInvoice(db, actor, id, parseInput(VoidInvoiceSchema, request.body).reason);
  });

  app.get('/api/payments', async (request) => listPayments(db, requireUser(request).companyId));
  app.post('/api/payments', async (request, reply) => {
    const actor = actorOf(request);
    return reply.status(201).send(await recordPayment(db, actor, parseInput(PaymentSchema, request.body)));
  });

  app.get<WithId>('/api/storage-accounts/:id/statement', async (request) => {
    const user = requireUser(request);
    return getStatement(db, user.companyId, parseId(request.params.id, ACCOUNT_NOT_FOUND));
  });

  app.get('/api/billing/overview', async (request) => billingOverview(db, requireUser(request).companyId));
  app.get('/api/billing/aging', async (request) => agingReport(db, requireUser(request).companyId));

  const pdf = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const download = (name: string) => `attachment; filename="${name}"`;

  app.get<WithId>('/api/invoices/:id/invoice.pdf', async (request, reply) => {
    const user = requireUser(request);
    const invoice = await getInvoice(db, user.companyId, parseId(request.params.id, INVOICE_NOT_FOUND));
    const name = `${invoice.kind === 'credit' ? 'credit-note' : 'invoice'}-${invoice.number}.pdf`;
    return reply
      .type('application/pdf')
      .header('Content-Disposition', download(name))
      .header('Cache-Control', 'no-store')
      .send(pdf(await invoicePdf(invoice, user.company.name)));
  });

  app.get<WithId>('/api/storage-accounts/:id/statement.pdf', async (request, reply) => {
    const user = requireUser(request);
    const statement = await getStatement(db, user.companyId, parseId(request.params.id, ACCOUNT_NOT_FOUND));
    return reply
      .type('application/pdf')
      .header('Content-Disposition', download(`statement-${statement.account_id}.pdf`))
      .header('Cache-Control', 'no-store')
      .send(pdf(await statementPdf(statement, user.company.name, today())));
  });

  app.get<WithId>('/api/storage-accounts/:id/sit-notice.pdf', async (request, reply) => {
    const user = requireUser(request);
    const account = await getAccount(db, user.companyId, parseId(request.params.id, ACCOUNT_NOT_FOUND));
    const conversion = account.conversion_date ?? account.converted_on;
    if (!conversion)
      throw badRequest('This account is not in storage in transit: it has no conversion date.');
    return reply
      .type('application/pdf')
      .header('Content-Disposition', download(`sit-notice-${account.id}.pdf`))
      .header('Cache-Control', 'no-store')
      .send(pdf(await sitNoticePdf(account, user.company.name, conversion)));
  });

  const EXPORTS = /^(invoices|payments|journal)\.(csv|xlsx)$/;
  app.get<{ Params: { file: string } }>('/api/billing/export/:file', async (request, reply) => {
    const user = requireUser(request);
    const match = EXPORTS.exec(request.params.file);
    if (!match) throw notFound('There is no such export: invoices, payments or journal, as .csv or .xlsx.');
    const [invoices, payments, settings] = await Promise.all([
      listInvoices(db, user.companyId, {}),
      listPayments(db, user.companyId),
      getSettings(db, user.companyId),
    ]);
    const table = exportTable(match[1] as ExportFile, { invoices, payments, currency: settings.currency });
    reply.header('Content-Disposition', download(request.params.file)).header('Cache-Control', 'no-store');
    if (match[2] === 'csv') return reply.type('text/csv; charset=utf-8').send(exportCsv(table));
    return reply
      .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .send(await exportXlsx(table, match[1]!));
  });
};
