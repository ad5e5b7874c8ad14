import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  PortalInvoicesDtoSchema,
  PortalMeDtoSchema,
  PortalTokenSchema,
  PortalUnitDtoSchema,
} from '@domain/schemas/customer.schema';
import { PortalRequestDtoSchema, PortalRequestSchema } from '@domain/schemas/request.schema';
import { idParams } from '@domain/schemas/route-params';
import { fileAnswer, sendPdf } from '../../http/file-answers';
import { publicOrigin } from '../../http/public-url';
import type { FeatureOptions } from '../feature-options';
import {
  REQUEST_NOT_FOUND,
  cancelRequest,
  createRequest,
  listPortalRequests,
} from '../requests/requests.service';
import { requirePortalCustomer } from './portal-session';
import {
  PORTAL_INVOICE_NOT_FOUND,
  portalInvoicePdf,
  portalInvoices,
  portalMe,
  portalUnits,
  useLinkToSignIn,
} from './portal.service';

// one-time links are guessed at no faster than this per address (their tokens are 256 bits)
const linkRateLimit = { rateLimit: { max: 30, timeWindow: '1 minute' } };
const tags = ['Customer portal'];

/**
 * The customer portal (issue 29): a customer signs in with a one-time link and reads their own units, invoices and
 * requests. Every read and change is scoped to the session's customer; the only id a route takes is of one of the
 * customer's own requests (another's answers 404, as one that does not exist).
 */
export const portalRoutes: FastifyPluginAsync<FeatureOptions> = async (plain, { database, config }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;

  // the token travels in the body, never in an address a log could keep
  app.post(
    '/api/portal/sign-in',
    {
      config: linkRateLimit,
      schema: {
        tags,
        summary: 'Sign in to the portal with a one-time link',
        body: PortalTokenSchema,
        response: { 200: PortalMeDtoSchema },
      },
    },
    async (request, reply) => {
      const customer = await useLinkToSignIn(db, request.body.token);
      await app.portalSessions.end(request, reply);
      await app.portalSessions.start(reply, customer);
      return portalMe(db, { ...customer, sessionId: '' });
    },
  );

  app.post(
    '/api/portal/sign-out',
    {
      schema: { tags, summary: 'Sign out of the portal', response: { 204: z.null().describe('Signed out') } },
    },
    async (request, reply) => {
      await app.portalSessions.end(request, reply);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/portal/me',
    { schema: { tags, summary: 'Who is signed in to the portal', response: { 200: PortalMeDtoSchema } } },
    async (request) => portalMe(db, requirePortalCustomer(request)),
  );
  app.get(
    '/api/portal/units',
    {
      schema: {
        tags,
        summary: "The customer's units in storage",
        response: { 200: z.array(PortalUnitDtoSchema) },
      },
    },
    async (request) => portalUnits(db, requirePortalCustomer(request)),
  );
  app.get(
    '/api/portal/invoices',
    {
      schema: {
        tags,
        summary: "The customer's invoices and balance",
        response: { 200: PortalInvoicesDtoSchema },
      },
    },
    async (request) => portalInvoices(db, requirePortalCustomer(request)),
  );
  app.get(
    '/api/portal/invoices/:id/invoice.pdf',
    {
      schema: {
        tags,
        summary: "One of the customer's invoices as a PDF",
        params: idParams(PORTAL_INVOICE_NOT_FOUND),
        response: { 200: fileAnswer('application/pdf', 'invoice-{number}.pdf') },
      },
    },
    async (request, reply) => {
      const pdf = await portalInvoicePdf(db, requirePortalCustomer(request), request.params.id);
      return sendPdf(reply, pdf.name, pdf.bytes);
    },
  );

  // requests (issue 29, point 3; decision 048)
  const mailFor = (request: Parameters<typeof publicOrigin>[1]) => ({
    on: config.mail !== null,
    portalUrl: `${publicOrigin(config, request)}/portal`,
  });
  app.get(
    '/api/portal/requests',
    {
      schema: {
        tags,
        summary: "The customer's requests with each step's date",
        response: { 200: z.array(PortalRequestDtoSchema) },
      },
    },
    async (request) => listPortalRequests(db, requirePortalCustomer(request)),
  );
  app.post(
    '/api/portal/requests',
    {
      schema: {
        tags,
        summary: 'Ask for a delivery, an access visit or a partial pickup of own units',
        body: PortalRequestSchema,
        response: { 201: PortalRequestDtoSchema },
      },
    },
    async (request, reply) => {
      const customer = requirePortalCustomer(request);
      const created = await createRequest(
        db,
        { kind: 'customer', companyId: customer.companyId, customerId: customer.customerId },
        customer.customerId,
        request.body,
        mailFor(request),
      );
      const all = await listPortalRequests(db, customer);
      return reply.status(201).send(all.find((r) => r.id === created.id)!);
    },
  );
  app.post(
    '/api/portal/requests/:id/cancel',
    {
      schema: {
        tags,
        summary: 'Cancel an own request while it is Requested',
        params: idParams(REQUEST_NOT_FOUND),
        response: { 200: PortalRequestDtoSchema },
      },
    },
    async (request) => {
      const customer = requirePortalCustomer(request);
      const cancelled = await cancelRequest(
        db,
        { kind: 'customer', companyId: customer.companyId, customerId: customer.customerId },
        request.params.id,
        mailFor(request),
      );
      const all = await listPortalRequests(db, customer);
      return all.find((r) => r.id === cancelled.id)!;
    },
  );
};
