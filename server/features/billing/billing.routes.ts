import type { FastifyPluginAsync } from 'fastify';
import {
  BillingRunSchema,
  BillingSettingsSchema,
  CreditNoteSchema,
  InvoiceListQuerySchema,
  PaymentSchema,
  RateSchema,
  VoidInvoiceSchema,
} from '../../../domain/schemas/billing.schema';
import { actorOf } from '../../auth/actor';
import { requireUser } from '../../auth/session.plugin';
import { parseId, parseInput } from '../../http/errors';
import { ACCOUNT_NOT_FOUND } from '../accounts/accounts.service';
import type { FeatureOptions } from '../feature-options';
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

  app.get('/api/billing/settings', async (request) => getSettings(db, requireUser(request).companyId));
  app.put('/api/billing/settings', async (request) => {
    const actor = actorOf(request);
    return saveSettings(db, actor.companyId, parseInput(BillingSettingsSchema, request.body));
  });

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

  app.get('/api/billing/aging', async (request) => agingReport(db, requireUser(request).companyId));
};
