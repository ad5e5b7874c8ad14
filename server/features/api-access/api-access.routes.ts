import type { FastifyPluginAsync } from 'fastify';
import {
  CreateApiTokenSchema,
  CreateWebhookSchema,
  UpdateWebhookSchema,
} from '@domain/schemas/api-access.schema';
import { requireUser } from '../../auth/session.plugin';
import { parseId, parseInput } from '../../http/errors';
import type { FeatureOptions } from '../feature-options';
import {
  TOKEN_NOT_FOUND,
  WEBHOOK_NOT_FOUND,
  changeEndpoint,
  createEndpoint,
  createToken,
  loadDeliveries,
  loadEndpoints,
  loadTokens,
  queueTestEvent,
  removeEndpoint,
  revokeApiToken,
} from './api-access.service';

/** The Managers' API page (issue 31, decision 044): API tokens and webhook endpoints. */
export const apiAccessRoutes: FastifyPluginAsync<FeatureOptions> = async (app, { database, config }) => {
  const { db } = database;

  app.get('/api/api-tokens', async (request) => loadTokens(db, requireUser(request).companyId));

  app.post('/api/api-tokens', async (request, reply) =>
    reply
      .status(201)
      .send(await createToken(db, requireUser(request), parseInput(CreateApiTokenSchema, request.body))),
  );

  app.delete<{ Params: { id: string } }>('/api/api-tokens/:id', async (request) =>
    revokeApiToken(db, requireUser(request), parseId(request.params.id, TOKEN_NOT_FOUND)),
  );

  app.get('/api/webhooks', async (request) => loadEndpoints(db, requireUser(request).companyId));

  app.post('/api/webhooks', async (request, reply) =>
    reply
      .status(201)
      .send(
        await createEndpoint(
          db,
          requireUser(request),
          parseInput(CreateWebhookSchema, request.body),
          config.webhookLoopbackHttp,
        ),
      ),
  );

  app.patch<{ Params: { id: string } }>('/api/webhooks/:id', async (request) =>
    changeEndpoint(
      db,
      requireUser(request),
      parseId(request.params.id, WEBHOOK_NOT_FOUND),
      parseInput(UpdateWebhookSchema, request.body),
    ),
  );

  app.delete<{ Params: { id: string } }>('/api/webhooks/:id', async (request, reply) => {
    await removeEndpoint(db, requireUser(request), parseId(request.params.id, WEBHOOK_NOT_FOUND));
    return reply.status(204).send();
  });

  app.get<{ Params: { id: string } }>('/api/webhooks/:id/deliveries', async (request) =>
    loadDeliveries(db, requireUser(request).companyId, parseId(request.params.id, WEBHOOK_NOT_FOUND)),
  );

  app.post<{ Params: { id: string } }>('/api/webhooks/:id/test', async (request, reply) => {
    await queueTestEvent(db, requireUser(request).companyId, parseId(request.params.id, WEBHOOK_NOT_FOUND));
    if (config.webhookPollMs > 0) app.webhookWorker.nudge();
    return reply.status(202).send({ queued: true });
  });
};
