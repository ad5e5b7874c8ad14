import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AgingDtoSchema,
  BillingOverviewDtoSchema,
  BillingRunDtoSchema,
  BillingRunSchema,
  BillingSettingsDtoSchema,
  BillingSettingsSchema,
  CreditNoteSchema,
  InvoiceDtoSchema,
  InvoiceListQuerySchema,
  PaymentDtoSchema,
  PaymentSchema,
  RateDtoSchema,
  RateSchema,
  StatementDtoSchema,
  VoidInvoiceSchema,
} from '@domain/schemas/billing.schema';
import { idParams } from '@domain/schemas/route-params';
import { actorOf } from '../../auth/actor';
import { requireUser } from '../../auth/session.plugin';
import { badRequest, notFound } from '../../http/errors';
import { attachment, fileAnswer, sendBytes, sendPdf } from '../../http/file-answers';
import { ACCOUNT_NOT_FOUND, getAccount, today } from '../accounts/accounts.service';
import {
  type ExportFile,
  exportCsv,
  exportTable,
  exportXlsx,
  invoiceFileName,
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
  deleteRateOf,
  editRate,
  creditInvoice,
  getInvoice,
  getSettings,
  getStatement,
  INVOICE_NOT_FOUND,
  listInvoices,
  listPayments,
  listRates,
  RATE_NOT_FOUND,
  recordPayment,
  saveSettings,
  voidInvoice,
} from './billing.service';

const tags = ['Billing'];
const accountTags = ['Storage accounts'];
const params = idParams(INVOICE_NOT_FOUND);
const accountParams = idParams(ACCOUNT_NOT_FOUND);
const rateParams = idParams(RATE_NOT_FOUND);
const invoice = { 200: InvoiceDtoSchema };

// Issue 28: billing settings, rates, billing runs, invoices, payments, statements and aging; Office and Managers.
export const billingRoutes: FastifyPluginAsync<FeatureOptions> = async (app, { database }) => {
  const { db } = database;
  // the billing day's automatic run, for the companies that turned it on (decision 051)
  startBillingDay(app, db);

  const declared = app.withTypeProvider<ZodTypeProvider>();
  declared.get(
    '/api/billing/settings',
    {
      schema: {
        tags,
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
        tags,
        summary: "Change the company's billing settings (automatic billing left as it is when not named)",
        body: BillingSettingsSchema,
        response: { 200: BillingSettingsDtoSchema },
      },
    },
    async (request) => saveSettings(db, actorOf(request).companyId, request.body),
  );

  declared.get(
    '/api/billing/rates',
    {
      schema: {
        tags,
        summary: 'Every rate: storage, handling and valuation, by unit type, warehouse or account',
        response: { 200: z.array(RateDtoSchema) },
      },
    },
    async (request) => listRates(db, requireUser(request).companyId),
  );
  declared.post(
    '/api/billing/rates',
    {
      schema: {
        tags,
        summary: 'Add a rate from a day on; the answer is every rate',
        body: RateSchema,
        response: { 201: z.array(RateDtoSchema) },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      return reply.status(201).send(await addRate(db, actor, request.body));
    },
  );
  declared.put(
    '/api/billing/rates/:id',
    {
      schema: {
        tags,
        summary:
          'Correct a rate no issued invoice used (409 once one did: add a new rate from a later day); the answer is every rate',
        params: rateParams,
        body: RateSchema,
        response: { 200: z.array(RateDtoSchema) },
      },
    },
    async (request) => editRate(db, actorOf(request), request.params.id, request.body),
  );
  declared.delete(
    '/api/billing/rates/:id',
    {
      schema: {
        tags,
        summary: 'Remove a rate no issued invoice used (409 once one did); the answer is every rate',
        params: rateParams,
        response: { 200: z.array(RateDtoSchema) },
      },
    },
    async (request) => deleteRateOf(db, actorOf(request), request.params.id),
  );

  declared.post(
    '/api/billing/runs/dry-run',
    {
      schema: {
        tags,
        summary: "A month's billing run as drafts, nothing issued",
        body: BillingRunSchema,
        response: { 200: BillingRunDtoSchema },
      },
    },
    async (request) => dryRun(db, requireUser(request).companyId, request.body.period),
  );
  declared.post(
    '/api/billing/runs',
    {
      schema: {
        tags,
        summary: "Issue a month's invoices (accounts already invoiced for it are left)",
        body: BillingRunSchema,
        response: { 201: BillingRunDtoSchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      return reply.status(201).send(await issueRun(db, actor, request.body.period));
    },
  );

  declared.get(
    '/api/invoices',
    {
      schema: {
        tags,
        summary: 'Invoices and credit notes, by status or account',
        querystring: InvoiceListQuerySchema,
        response: { 200: z.array(InvoiceDtoSchema) },
      },
    },
    async (request) => listInvoices(db, requireUser(request).companyId, request.query),
  );
  declared.get(
    '/api/invoices/:id',
    { schema: { tags, summary: 'One invoice or credit note with its lines', params, response: invoice } },
    async (request) => getInvoice(db, requireUser(request).companyId, request.params.id),
  );
  declared.post(
    '/api/invoices/:id/credit-notes',
    {
      schema: {
        tags,
        summary: 'Credit an issued invoice, in full or in part: the answer is the credit note',
        params,
        body: CreditNoteSchema,
        response: { 201: InvoiceDtoSchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      return reply.status(201).send(await creditInvoice(db, actor, request.params.id, request.body));
    },
  );
  declared.post(
    '/api/invoices/:id/void',
    {
      schema: {
        tags,
        summary: 'Void an invoice that nothing was paid or credited on',
        params,
        body: VoidInvoiceSchema,
        response: invoice,
      },
    },
    async (request) => voidInvoice(db, actorOf(request), request.params.id, request.body.reason),
  );

  declared.get(
    '/api/payments',
    {
      schema: {
        tags,
        summary: 'Every payment with the invoices it went to',
        response: { 200: z.array(PaymentDtoSchema) },
      },
    },
    async (request) => listPayments(db, requireUser(request).companyId),
  );
  declared.post(
    '/api/payments',
    {
      schema: {
        tags,
        summary: "Record a payment; it goes to the named invoices or the account's oldest open ones",
        body: PaymentSchema,
        response: { 201: PaymentDtoSchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      return reply.status(201).send(await recordPayment(db, actor, request.body));
    },
  );

  declared.get(
    '/api/storage-accounts/:id/statement',
    {
      schema: {
        tags: accountTags,
        summary: "An account's statement: invoices, credits and payments with the running balance",
        params: accountParams,
        response: { 200: StatementDtoSchema },
      },
    },
    async (request) => getStatement(db, requireUser(request).companyId, request.params.id),
  );

  declared.get(
    '/api/billing/overview',
    {
      schema: {
        tags,
        summary: 'Upcoming SIT conversions, overdue amounts, holds and monthly revenue per warehouse',
        response: { 200: BillingOverviewDtoSchema },
      },
    },
    async (request) => billingOverview(db, requireUser(request).companyId),
  );
  declared.get(
    '/api/billing/aging',
    {
      schema: {
        tags,
        summary: 'What each account owes, by days past due',
        response: { 200: AgingDtoSchema },
      },
    },
    async (request) => agingReport(db, requireUser(request).companyId),
  );

  const pdfFile = (name: string) => ({ 200: fileAnswer('application/pdf', name) });

  declared.get(
    '/api/invoices/:id/invoice.pdf',
    {
      schema: {
        tags,
        summary: 'An invoice or credit note as a PDF',
        params,
        response: pdfFile('invoice-{number}.pdf or credit-note-{number}.pdf'),
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const invoice = await getInvoice(db, user.companyId, request.params.id);
      return sendPdf(
        reply,
        invoiceFileName(invoice),
        await invoicePdf(invoice, user.company.name, user.company.locale),
      );
    },
  );

  declared.get(
    '/api/storage-accounts/:id/statement.pdf',
    {
      schema: {
        tags: accountTags,
        summary: "An account's statement as a PDF",
        params: accountParams,
        response: pdfFile('statement-{id}.pdf'),
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const statement = await getStatement(db, user.companyId, request.params.id);
      return sendPdf(
        reply,
        `statement-${statement.account_id}.pdf`,
        await statementPdf(statement, user.company.name, today(), user.company.locale),
      );
    },
  );

  declared.get(
    '/api/storage-accounts/:id/sit-notice.pdf',
    {
      schema: {
        tags: accountTags,
        summary: "A SIT account's conversion notice as a PDF (400 when it has no conversion date)",
        params: accountParams,
        response: pdfFile('sit-notice-{id}.pdf'),
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const account = await getAccount(db, user.companyId, request.params.id);
      const conversion = account.conversion_date ?? account.converted_on;
      if (!conversion)
        throw badRequest('This account is not in storage in transit: it has no conversion date.');
      return sendPdf(
        reply,
        `sit-notice-${account.id}.pdf`,
        await sitNoticePdf(account, user.company.name, conversion, user.company.locale),
      );
    },
  );

  const EXPORTS = /^(invoices|payments|journal)\.(csv|xlsx)$/;
  const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
  declared.get(
    '/api/billing/export/:file',
    {
      schema: {
        tags,
        summary: 'Invoices, payments or the journal for accounting software, as CSV or XLSX',
        // the file name is matched in the handler, which answers 404 with the exports it knows
        params: z.object({ file: z.string().describe('invoices, payments or journal, with .csv or .xlsx') }),
        response: {
          200: fileAnswer(['text/csv', XLSX], '{invoices|payments|journal}.{csv|xlsx}'),
        },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const match = EXPORTS.exec(request.params.file);
      if (!match) throw notFound('There is no such export: invoices, payments or journal, as .csv or .xlsx.');
      const [invoices, payments, settings] = await Promise.all([
        listInvoices(db, user.companyId, {}),
        listPayments(db, user.companyId),
        getSettings(db, user.companyId),
      ]);
      const table = exportTable(match[1] as ExportFile, { invoices, payments, currency: settings.currency });
      reply
        .header('Content-Disposition', attachment(request.params.file))
        .header('Cache-Control', 'no-store');
      if (match[2] === 'csv') return reply.type('text/csv; charset=utf-8').send(exportCsv(table));
      return sendBytes(reply.type(XLSX), await exportXlsx(table, match[1]!));
    },
  );
};
