import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CustomerDtoSchema,
  CustomerSchema,
  CustomerUpdateSchema,
  PortalLinkDtoSchema,
  PortalUnitDtoSchema,
} from '@domain/schemas/customer.schema';
import { idParams } from '@domain/schemas/route-params';
import { requireUser } from '../../auth/session.plugin';
import { notFound } from '../../http/errors';
import { publicOrigin } from '../../http/public-url';
import type { FeatureOptions } from '../feature-options';
import { portalUnits } from '../portal/portal.service';
import { findCustomerRecord } from './customer-records.repo';
import {
  CUSTOMER_NOT_FOUND,
  addCustomer,
  changeCustomer,
  createPortalLink,
  loadCustomers,
} from './customers.service';

const tags = ['Customers'];
const params = idParams(CUSTOMER_NOT_FOUND);

/** The Customers page (Office and Managers, issue 29): customers, their addresses and their portal links. */
export const customersRoutes: FastifyPluginAsync<FeatureOptions> = async (plain, { database, config }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;

  app.get(
    '/api/customers',
    {
      schema: {
        tags,
        summary: "The company's customers with their addresses and units in storage",
        response: { 200: z.array(CustomerDtoSchema) },
      },
    },
    async (request) => loadCustomers(db, requireUser(request).companyId),
  );

  app.post(
    '/api/customers',
    {
      schema: {
        tags,
        summary: 'Add a customer, or give an address to the customer of that name',
        body: CustomerSchema,
        response: { 201: CustomerDtoSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await addCustomer(db, requireUser(request), request.body)),
  );

  app.patch(
    '/api/customers/:id',
    {
      schema: {
        tags,
        summary: "Change a customer's name or address",
        params,
        body: CustomerUpdateSchema,
        response: { 200: CustomerDtoSchema },
      },
    },
    async (request) => changeCustomer(db, requireUser(request), request.params.id, request.body),
  );

  app.post(
    '/api/customers/:id/portal-link',
    {
      schema: {
        tags,
        summary: 'A one-time portal link for the customer: mailed, or shown to copy',
        params,
        response: { 201: PortalLinkDtoSchema },
      },
    },
    async (request, reply) => {
      const link = await createPortalLink(db, requireUser(request), request.params.id, {
        origin: publicOrigin(config, request),
        mail: config.mail !== null,
      });
      return reply.status(201).send(link);
    },
  );

  // the units a request entered by the office may name (issue 29, point 3)
  app.get(
    '/api/customers/:id/units',
    {
      schema: {
        tags,
        summary: "The customer's units in storage",
        params,
        response: { 200: z.array(PortalUnitDtoSchema) },
      },
    },
    async (request) => {
      const { companyId } = requireUser(request);
      if (!(await findCustomerRecord(db, companyId, request.params.id))) throw notFound(CUSTOMER_NOT_FOUND);
      return portalUnits(db, { companyId, customerId: request.params.id, sessionId: '' });
    },
  );
};
