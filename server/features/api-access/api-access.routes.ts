import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ApiTokenDtoSchema,
  CreateApiTokenSchema,
  CreateWebhookSchema,
  CreatedApiTokenDtoSchema,
  CreatedWebhookDtoSchema,
  UpdateWebhookSchema,
  WebhookDeliveryDtoSchema,
  WebhookEndpointDtoSchema,
} from '@domain/schemas/api-access.schema';
import { idParams } from '@domain/schemas/route-params';
import { requireUser } from '../../auth/session.plugin';
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

const tokenTags = ['API tokens'];
const webhookTags = ['Webhooks'];

/** The API tokens and webhook endpoints of the Managers' Team page (issue 31, decision 044). */
export const apiAccessRoutes: FastifyPluginAsync<FeatureOptions> = async (plain, { database, config }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;

  app.get(
    '/api/api-tokens',
    {
      schema: {
        tags: tokenTags,
        summary: "The company's API tokens (never their secrets), with when each was last used",
        response: { 200: z.array(ApiTokenDtoSchema) },
      },
    },
    async (request) => loadTokens(db, requireUser(request).companyId),
  );

  app.post(
    '/api/api-tokens',
    {
      schema: {
        tags: tokenTags,
        summary: 'Create a named token with a role and an optional expiry; its secret is shown this once',
        body: CreateApiTokenSchema,
        response: { 201: CreatedApiTokenDtoSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createToken(db, requireUser(request), request.body)),
  );

  app.delete(
    '/api/api-tokens/:id',
    {
      schema: {
        tags: tokenTags,
        summary: 'Revoke a token: refused from then on, on every server process',
        params: idParams(TOKEN_NOT_FOUND),
        response: { 200: ApiTokenDtoSchema },
      },
    },
    async (request) => revokeApiToken(db, requireUser(request), request.params.id),
  );

  app.get(
    '/api/webhooks',
    {
      schema: {
        tags: webhookTags,
        summary: "The company's webhook endpoints and the event kinds each is sent",
        response: { 200: z.array(WebhookEndpointDtoSchema) },
      },
    },
    async (request) => loadEndpoints(db, requireUser(request).companyId),
  );

  app.post(
    '/api/webhooks',
    {
      schema: {
        tags: webhookTags,
        summary: 'Register an HTTPS endpoint for chosen event kinds; its signing secret is shown this once',
        body: CreateWebhookSchema,
        response: { 201: CreatedWebhookDtoSchema },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await createEndpoint(db, requireUser(request), request.body, config.webhookLoopbackHttp)),
  );

  app.patch(
    '/api/webhooks/:id',
    {
      schema: {
        tags: webhookTags,
        summary: 'Switch an endpoint on or off, or change its event kinds',
        params: idParams(WEBHOOK_NOT_FOUND),
        body: UpdateWebhookSchema,
        response: { 200: WebhookEndpointDtoSchema },
      },
    },
    async (request) => changeEndpoint(db, requireUser(request), request.params.id, request.body),
  );

  app.delete(
    '/api/webhooks/:id',
    {
      schema: {
        tags: webhookTags,
        summary: 'Remove an endpoint and its deliveries',
        params: idParams(WEBHOOK_NOT_FOUND),
        response: { 204: z.undefined().describe('Removed: no content') },
      },
    },
    async (request, reply) => {
      await removeEndpoint(db, requireUser(request), request.params.id);
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/webhooks/:id/deliveries',
    {
      schema: {
        tags: webhookTags,
        summary: "An endpoint's latest deliveries with their answers",
        params: idParams(WEBHOOK_NOT_FOUND),
        response: { 200: z.array(WebhookDeliveryDtoSchema) },
      },
    },
    async (request) => loadDeliveries(db, requireUser(request).companyId, request.params.id),
  );

  app.post(
    '/api/webhooks/:id/test',
    {
      schema: {
        tags: webhookTags,
        summary: 'Queue a test event for an endpoint, sent like any other delivery',
        params: idParams(WEBHOOK_NOT_FOUND),
        response: { 202: z.object({ queued: z.literal(true) }) },
      },
    },
    async (request, reply) => {
      await queueTestEvent(db, requireUser(request).companyId, request.params.id);
      if (config.webhookPollMs > 0) app.webhookWorker.nudge();
      return reply.status(202).send({ queued: true });
    },
  );
};
