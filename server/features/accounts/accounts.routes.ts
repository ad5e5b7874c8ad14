import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  BulkAccountsSchema,
  CreateAccountSchema,
  HoldsDtoSchema,
  UpdateAccountSchema,
} from '@domain/schemas/billing.schema';
import { actorOf } from '../../auth/actor';
import { requireUser } from '../../auth/session.plugin';
import { parseId, parseInput } from '../../http/errors';
import type { FeatureOptions } from '../feature-options';
import {
  ACCOUNT_NOT_FOUND,
  createAccount,
  createAccountsInBulk,
  editAccount,
  getAccount,
  listAccounts,
  listNotBilled,
} from './accounts.service';
import { liftHold, listHolds, putOnHold } from './holds.service';

// Issue 28: storage accounts, for the Office role and Managers (route-roles.ts).
export const accountsRoutes: FastifyPluginAsync<FeatureOptions> = async (app, { database }) => {
  const { db } = database;

  app.get('/api/storage-accounts', async (request) => listAccounts(db, requireUser(request).companyId));

  app.get('/api/storage-accounts/not-billed', async (request) =>
    listNotBilled(db, requireUser(request).companyId),
  );

  app.post('/api/storage-accounts', async (request, reply) => {
    const actor = actorOf(request);
    return reply
      .status(201)
      .send(await createAccount(db, actor, parseInput(CreateAccountSchema, request.body)));
  });

  app.post('/api/storage-accounts/bulk', async (request, reply) => {
    const actor = actorOf(request);
    return reply
      .status(201)
      .send(await createAccountsInBulk(db, actor, parseInput(BulkAccountsSchema, request.body)));
  });

  app.get<{ Params: { id: string } }>('/api/storage-accounts/:id', async (request) => {
    const user = requireUser(request);
    return getAccount(db, user.companyId, parseId(request.params.id, ACCOUNT_NOT_FOUND));
  });

  // holds (decision 039): an overdue account put on hold, and lifted; its units' badge for every member
  app.post<{ Params: { id: string } }>('/api/storage-accounts/:id/hold', async (request) => {
    const actor = actorOf(request);
    return putOnHold(db, actor, parseId(request.params.id, ACCOUNT_NOT_FOUND));
  });

  app.delete<{ Params: { id: string } }>('/api/storage-accounts/:id/hold', async (request) => {
    const actor = actorOf(request);
    return liftHold(db, actor, parseId(request.params.id, ACCOUNT_NOT_FOUND));
  });

  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/holds',
    {
      schema: {
        tags: ['Billing'],
        summary: 'The units of accounts on hold, for the hold badge (no amounts: every member reads it)',
        response: { 200: HoldsDtoSchema },
      },
    },
    async (request) => listHolds(db, requireUser(request).companyId),
  );

  app.patch<{ Params: { id: string } }>('/api/storage-accounts/:id', async (request) => {
    const actor = actorOf(request);
    const id = parseId(request.params.id, ACCOUNT_NOT_FOUND);
    return editAccount(db, actor, id, parseInput(UpdateAccountSchema, request.body));
  });
};
