import type { FastifyPluginAsync } from 'fastify';
import { PortalTokenSchema } from '@domain/schemas/customer.schema';
import { parseInput } from '../../http/errors';
import type { FeatureOptions } from '../feature-options';
import { requirePortalCustomer } from './portal-session';
import { portalInvoices, portalMe, portalUnits, useLinkToSignIn } from './portal.service';

// one-time links are guessed at no faster than this per address (their tokens are 256 bits)
const linkRateLimit = { rateLimit: { max: 30, timeWindow: '1 minute' } };

/**
 * The customer portal (issue 29): a customer signs in with a one-time link and reads their own units and invoices.
 * Every read is scoped to the session's customer; no route takes an id.
 */
export const portalRoutes: FastifyPluginAsync<FeatureOptions> = async (app, { database }) => {
  const { db } = database;

  // the token travels in the body, never in an address a log could keep
  app.post('/api/portal/sign-in', { config: linkRateLimit }, async (request, reply) => {
    const customer = await useLinkToSignIn(db, parseInput(PortalTokenSchema, request.body).token);
    await app.portalSessions.end(request, reply);
    await app.portalSessions.start(reply, customer);
    return portalMe(db, { ...customer, sessionId: '' });
  });

  app.post('/api/portal/sign-out', async (request, reply) => {
    await app.portalSessions.end(request, reply);
    return reply.status(204).send();
  });

  app.get('/api/portal/me', async (request) => portalMe(db, requirePortalCustomer(request)));
  app.get('/api/portal/units', async (request) => portalUnits(db, requirePortalCustomer(request)));
  app.get('/api/portal/invoices', async (request) => portalInvoices(db, requirePortalCustomer(request)));
};
