import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import {
  AddVaultSchema,
  MoveVaultSchema,
  StageVaultSchema,
  UpdateVaultSchema,
} from '@domain/schemas/vault.schema';
import { requireUser } from '../../auth/session.plugin';
import { badRequest, parseId, parseInput } from '../../http/errors';
import { MAX_UPLOAD_BYTES } from '@domain/rules/capacity';
import type { FeatureOptions } from '../feature-options';
import { actorOf } from '../../auth/actor';
import { ATTACHMENT_NOT_FOUND, downloadAttachment } from './attachments.download';
import { readForm } from '../../http/form-reader';
import { notModified, revalidateEveryTime } from '../../http/revalidation';
import {
  VAULT_NOT_FOUND,
  addAttachment,
  addVault,
  deleteAttachment,
  deleteVault,
  listStagedVaults,
  stageTag,
  loadVault,
  moveVault,
  stageVault,
  updateVault,
} from './vaults.service';

export const MISSING_FILE = 'Please choose a file to upload.';
export const MISSING_VAULT_ID = 'vault_id is required.';

/** the only routes that take a file: one attachment of at most 5 MB plus the form around it */
const UPLOAD_LIMIT = { bodyLimit: MAX_UPLOAD_BYTES + 256 * 1024 };

export const vaultsRoutes: FastifyPluginAsync<FeatureOptions> = async (app, { database }) => {
  const { db } = database;

  const add = async (request: FastifyRequest, reply: FastifyReply) => {
    const actor = actorOf(request);
    const form = await readForm(request);
    const input = parseInput(AddVaultSchema, form.fields);
    return reply.status(201).send(await addVault(db, actor, input, form.files.attachment));
  };
  app.post('/api/vaults/', UPLOAD_LIMIT, add);
  app.post('/api/vaults', UPLOAD_LIMIT, add);

  app.put('/api/vaults/move', async (request) => {
    const actor = actorOf(request);
    return moveVault(db, actor, parseInput(MoveVaultSchema, request.body));
  });

  app.post('/api/vaults/upload', UPLOAD_LIMIT, async (request, reply) => {
    const actor = actorOf(request);
    const form = await readForm(request);
    const file = form.files.attachment;
    const rawId = form.fields.vault_id;
    if (rawId === undefined || rawId === '') throw badRequest(MISSING_VAULT_ID);
    if (!file) throw badRequest(MISSING_FILE);
    return reply.status(201).send(await addAttachment(db, actor, parseId(rawId, VAULT_NOT_FOUND), file));
  });

  app.get<{ Params: { id: string } }>('/api/vaults/:id', async (request) => {
    const user = requireUser(request);
    return loadVault(db, user.companyId, parseId(request.params.id, VAULT_NOT_FOUND));
  });

  app.put<{ Params: { id: string } }>('/api/vaults/:id', async (request) => {
    const actor = actorOf(request);
    const vaultId = parseId(request.params.id, VAULT_NOT_FOUND);
    return updateVault(db, actor, vaultId, parseInput(UpdateVaultSchema, request.body));
  });

  app.delete<{ Params: { id: string } }>('/api/vaults/:id', async (request) => {
    const actor = actorOf(request);
    return deleteVault(db, actor, parseId(request.params.id, VAULT_NOT_FOUND));
  });

  // a cheap full read with an ETag (issue 11): the stage's revision moves with every staged vault written
  app.get('/api/stage/vaults', { onSend: revalidateEveryTime }, async (request, reply) => {
    const user = requireUser(request);
    const tag = await stageTag(db, user.companyId);
    if (notModified(request, reply, tag)) return reply;
    return listStagedVaults(db, user.companyId);
  });

  app.post<{ Params: { id: string } }>('/api/stage/vaults/:id', async (request) => {
    const actor = actorOf(request);
    const vaultId = parseId(request.params.id, VAULT_NOT_FOUND);
    // a queued stage names where the tablet saw the vault (issue 30)
    return stageVault(db, actor, vaultId, parseInput(StageVaultSchema, request.body).basis);
  });

  app.get<{ Params: { id: string } }>('/api/attachments/:id', async (request, reply) => {
    const user = requireUser(request);
    return downloadAttachment(db, user.companyId, parseId(request.params.id, ATTACHMENT_NOT_FOUND), reply);
  });

  app.delete<{ Params: { id: string } }>('/api/attachments/:id', async (request) => {
    const actor = actorOf(request);
    return deleteAttachment(db, actor, parseId(request.params.id, ATTACHMENT_NOT_FOUND));
  });
};
