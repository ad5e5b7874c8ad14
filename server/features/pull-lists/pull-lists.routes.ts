import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreatePullListSchema,
  PullListDtoSchema,
  PullListSummaryDtoSchema,
  PullStepSchema,
  ReleasePullListSchema,
  ReleasedVaultDtoSchema,
  ReleasedVaultQuerySchema,
} from '@domain/schemas/pull-list.schema';
import { idParams } from '@domain/schemas/route-params';
import { actorOf } from '../../auth/actor';
import { requireUser } from '../../auth/session.plugin';
import type { FeatureOptions } from '../feature-options';
import {
  PULL_LIST_NOT_FOUND,
  cancelPullList,
  createPullList,
  doPullStep,
  listPullLists,
  loadPullList,
  releasePullList,
  searchReleasedVaults,
} from './pull-lists.service';

const tags = ['Pull lists'];
const params = idParams(PULL_LIST_NOT_FOUND);

// Issue 16. Reads: GET routes. Floor work: create, steps. Release: management or floor, as the lead decides.
export const pullListsRoutes: FastifyPluginAsync<FeatureOptions> = async (plain, { database }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;

  app.get(
    '/api/pull-lists',
    {
      schema: {
        tags,
        summary: "The company's pull lists, newest first",
        response: { 200: z.array(PullListSummaryDtoSchema) },
      },
    },
    async (request) => listPullLists(db, requireUser(request).companyId),
  );

  app.post(
    '/api/pull-lists',
    {
      schema: {
        tags,
        summary: 'Make a pull list of the vaults of one order or one customer',
        body: CreatePullListSchema,
        response: { 201: PullListDtoSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createPullList(db, actorOf(request), request.body)),
  );

  app.get(
    '/api/pull-lists/:id',
    {
      schema: {
        tags,
        summary: 'One pull list with its vaults and the plan of what to take off',
        params,
        response: { 200: PullListDtoSchema },
      },
    },
    async (request) => loadPullList(db, requireUser(request).companyId, request.params.id),
  );

  app.post(
    '/api/pull-lists/:id/steps',
    {
      schema: {
        tags,
        summary: 'Pull a vault of the list, set one aside, or put one back',
        params,
        body: PullStepSchema,
        response: { 200: PullListDtoSchema },
      },
    },
    async (request) => {
      const actor = { ...actorOf(request), role: requireUser(request).role };
      return doPullStep(db, actor, request.params.id, request.body);
    },
  );

  app.get(
    '/api/released-vaults',
    {
      schema: {
        tags,
        summary: 'Released vaults whose number, customer or order contains the search text',
        querystring: ReleasedVaultQuerySchema,
        response: { 200: z.array(ReleasedVaultDtoSchema) },
      },
    },
    async (request) => searchReleasedVaults(db, requireUser(request).companyId, request.query),
  );

  app.delete(
    '/api/pull-lists/:id',
    {
      schema: {
        tags,
        summary: 'Cancel a pull list that is not released',
        params,
        response: { 204: z.null().describe('Cancelled') },
      },
    },
    async (request, reply) => {
      await cancelPullList(db, actorOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/pull-lists/:id/release',
    {
      schema: {
        tags,
        summary: 'Release the vaults of a pull list: they leave the warehouse',
        params,
        body: ReleasePullListSchema,
        response: { 200: PullListDtoSchema },
      },
    },
    async (request) => {
      const actor = { ...actorOf(request), role: requireUser(request).role };
      return releasePullList(db, actor, request.params.id, request.body);
    },
  );
};
