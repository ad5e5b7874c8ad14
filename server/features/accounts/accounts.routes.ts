import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AccountDtoSchema,
  AccountSummaryDtoSchema,
  BulkAccountsAnswerSchema,
  BulkAccountsSchema,
  CreateAccountSchema,
  HoldsDtoSchema,
  NotBilledOrderDtoSchema,
  UpdateAccountSchema,
} from '@domain/schemas/billing.schema';
import { idParams } from '@domain/schemas/route-params';
import { actorOf } from '../../auth/actor';
import { requireUser } from '../../auth/session.plugin';
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

const tags = ['Storage accounts'];
const params = idParams(ACCOUNT_NOT_FOUND);
const account = { 200: AccountDtoSchema };

// Issue 28: storage accounts, for the Office role and Managers (route-roles.ts).
export const accountsRoutes: FastifyPluginAsync<FeatureOptions> = async (app, { database }) => {
  const { db } = database;
  const declared = app.withTypeProvider<ZodTypeProvider>();

  declared.get(
    '/api/storage-accounts',
    {
      schema: {
        tags,
        summary: 'Every storage account with its units, balance and hold',
        response: { 200: z.array(AccountSummaryDtoSchema) },
      },
    },
    async (request) => listAccounts(db, requireUser(request).companyId),
  );

  declared.get(
    '/api/storage-accounts/not-billed',
    {
      schema: {
        tags,
        summary: 'Orders with units in storage that no account bills yet',
        response: { 200: z.array(NotBilledOrderDtoSchema) },
      },
    },
    async (request) => listNotBilled(db, requireUser(request).companyId),
  );

  declared.post(
    '/api/storage-accounts',
    {
      schema: {
        tags,
        summary: 'Open a storage account (Permanent or SIT) for orders of one customer',
        body: CreateAccountSchema,
        response: { 201: AccountDtoSchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      return reply.status(201).send(await createAccount(db, actor, request.body));
    },
  );

  declared.post(
    '/api/storage-accounts/bulk',
    {
      schema: {
        tags,
        summary: "One Permanent account per order, billed to the order's customer",
        body: BulkAccountsSchema,
        response: { 201: BulkAccountsAnswerSchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      return reply.status(201).send(await createAccountsInBulk(db, actor, request.body));
    },
  );

  declared.get(
    '/api/storage-accounts/:id',
    {
      schema: { tags, summary: 'One storage account with its terms and history', params, response: account },
    },
    async (request) => getAccount(db, requireUser(request).companyId, request.params.id),
  );

  // holds (decision 039): an overdue account put on hold, and lifted; its units' badge for every member
  declared.post(
    '/api/storage-accounts/:id/hold',
    { schema: { tags, summary: 'Put an overdue account on hold', params, response: account } },
    async (request) => putOnHold(db, actorOf(request), request.params.id),
  );

  declared.delete(
    '/api/storage-accounts/:id/hold',
    { schema: { tags, summary: "Lift an account's hold", params, response: account } },
    async (request) => liftHold(db, actorOf(request), request.params.id),
  );

  declared.get(
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

  declared.patch(
    '/api/storage-accounts/:id',
    {
      schema: {
        tags,
        summary: "Change an account's terms (its version must be the one read)",
        params,
        body: UpdateAccountSchema,
        response: account,
      },
    },
    async (request) => editAccount(db, actorOf(request), request.params.id, request.body),
  );
};
