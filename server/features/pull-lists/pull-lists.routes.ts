import type { FastifyPluginAsync } from 'fastify';
import {
  CreatePullListSchema,
  PullStepSchema,
  ReleasePullListSchema,
  ReleasedVaultQuerySchema,
} from '@domain/schemas/pull-list.schema';
import { actorOf } from '../../auth/actor';
import { requireUser } from '../../auth/session.plugin';
import { parseId, parseInput } from '../../http/errors';
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

// Issue 16. Reads: GET routes. Floor work: create, steps. Release: management or floor, as the lead decides.
export const pullListsRoutes: FastifyPluginAsync<FeatureOptions> = async (app, { database }) => {
  const { db } = database;

  app.get('/api/pull-lists', async (request) => {
    const user = requireUser(request);
    return listPullLists(db, user.companyId);
  });

  app.post('/api/pull-lists', async (request, reply) => {
    const actor = actorOf(request);
    return reply
      .status(201)
      .send(await createPullList(db, actor, parseInput(CreatePullListSchema, request.body)));
  });

  app.get<{ Params: { id: string } }>('/api/pull-lists/:id', async (request) => {
    const user = requireUser(request);
    return loadPullList(db, user.companyId, parseId(request.params.id, PULL_LIST_NOT_FOUND));
  });

  app.post<{ Params: { id: string } }>('/api/pull-lists/:id/steps', async (request) => {
    const actor = { ...actorOf(request), role: requireUser(request).role };
    const listId = parseId(request.params.id, PULL_LIST_NOT_FOUND);
    return doPullStep(db, actor, listId, parseInput(PullStepSchema, request.body));
  });

  app.get('/api/released-vaults', async (request) => {
    const user = requireUser(request);
    return searchReleasedVaults(db, user.companyId, parseInput(ReleasedVaultQuerySchema, request.query));
  });

  app.delete<{ Params: { id: string } }>('/api/pull-lists/:id', async (request, reply) => {
    const actor = actorOf(request);
    await cancelPullList(db, actor, parseId(request.params.id, PULL_LIST_NOT_FOUND));
    return reply.status(204).send();
  });

  app.post<{ Params: { id: string } }>('/api/pull-lists/:id/release', async (request) => {
    const actor = { ...actorOf(request), role: requireUser(request).role };
    const listId = parseId(request.params.id, PULL_LIST_NOT_FOUND);
    return releasePullList(db, actor, listId, parseInput(ReleasePullListSchema, request.body));
  });
};
