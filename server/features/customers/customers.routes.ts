import type { FastifyPluginAsync } from 'fastify';
import { CustomerSchema, CustomerUpdateSchema } from '@domain/schemas/customer.schema';
import { requireUser } from '../../auth/session.plugin';
import { parseId, parseInput } from '../../http/errors';
import { publicOrigin } from '../../http/public-url';
import type { FeatureOptions } from '../feature-options';
import {
  CUSTOMER_NOT_FOUND,
  addCustomer,
  changeCustomer,
  createPortalLink,
  loadCustomers,
} from './customers.service';

/** The Customers page (Office and Managers, issue 29): customers, their addresses and their portal links. */
export const customersRoutes: FastifyPluginAsync<FeatureOptions> = async (app, { database, config }) => {
  const { db } = database;

  app.get('/api/customers', async (request) => loadCustomers(db, requireUser(request).companyId));

  app.post('/api/customers', async (request, reply) =>
    reply
      .status(201)
      .send(await addCustomer(db, requireUser(request), parseInput(CustomerSchema, request.body))),
  );

  app.patch<{ Params: { id: string } }>('/api/customers/:id', async (request) =>
    changeCustomer(
      db,
      requireUser(request),
      parseId(request.params.id, CUSTOMER_NOT_FOUND),
      parseInput(CustomerUpdateSchema, request.body),
    ),
  );

  app.post<{ Params: { id: string } }>('/api/customers/:id/portal-link', async (request, reply) => {
    const link = await createPortalLink(
      db,
      requireUser(request),
      parseId(request.params.id, CUSTOMER_NOT_FOUND),
      {
        origin: publicOrigin(config, request),
        mail: config.mail !== null,
      },
    );
    return reply.status(201).send(link);
  });
};
