import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AddVaultSchema,
  AttachmentAnswerSchema,
  AttachmentDeletedAnswerSchema,
  DeleteVaultAnswerSchema,
  MoveVaultSchema,
  StageVaultSchema,
  StagedVaultAnswerSchema,
  StagedVaultDtoSchema,
  UpdateVaultSchema,
  UploadAttachmentFormSchema,
} from '@domain/schemas/vault.schema';
import { idParams } from '@domain/schemas/route-params';
import { VaultDtoSchema } from '@domain/schemas/warehouse.schema';
import { requireUser } from '../../auth/session.plugin';
import { badRequest, parseId, parseInput } from '../../http/errors';
import { MAX_UPLOAD_BYTES } from '@domain/rules/capacity';
import type { FeatureOptions } from '../feature-options';
import { actorOf } from '../../auth/actor';
import { ATTACHMENT_NOT_FOUND, downloadAttachment } from './attachments.download';
import { readForm } from '../../http/form-reader';
import { formBody } from '../../http/declared-routes';
import { fileAnswer } from '../../http/file-answers';
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
const UPLOAD_LIMIT = MAX_UPLOAD_BYTES + 256 * 1024;

const tags = ['Vaults'];
const vaultParams = idParams(VAULT_NOT_FOUND);
const attachmentParams = idParams(ATTACHMENT_NOT_FOUND);

export const vaultsRoutes: FastifyPluginAsync<FeatureOptions> = async (plain, { database }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;

  // a multipart form (with an optional `attachment` file) or JSON: read and checked by the handler
  const add = async (request: FastifyRequest, reply: FastifyReply) => {
    const actor = actorOf(request);
    const form = await readForm(request);
    const input = parseInput(AddVaultSchema, form.fields);
    return reply.status(201).send(await addVault(db, actor, input, form.files.attachment));
  };
  for (const url of ['/api/vaults/', '/api/vaults']) {
    app.post(
      url,
      {
        bodyLimit: UPLOAD_LIMIT,
        schema: {
          tags,
          summary: 'Add a vault to a field slot, with an optional attachment',
          consumes: ['multipart/form-data', 'application/json'],
          body: formBody(
            AddVaultSchema,
            'vault_id carries the vault number; a multipart form may add a file',
          ),
          response: { 201: VaultDtoSchema },
        },
      },
      add,
    );
  }

  app.put(
    '/api/vaults/move',
    {
      schema: {
        tags,
        summary: 'Move a vault into a field slot, by the slot rules',
        body: MoveVaultSchema,
        response: { 200: VaultDtoSchema },
      },
    },
    async (request) => moveVault(db, actorOf(request), request.body),
  );

  app.post(
    '/api/vaults/upload',
    {
      bodyLimit: UPLOAD_LIMIT,
      schema: {
        tags,
        summary: 'Attach a file to a vault',
        consumes: ['multipart/form-data'],
        body: formBody(UploadAttachmentFormSchema, 'a multipart form: vault_id and the attachment file'),
        response: { 201: AttachmentAnswerSchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const form = await readForm(request);
      const file = form.files.attachment;
      const rawId = form.fields.vault_id;
      if (rawId === undefined || rawId === '') throw badRequest(MISSING_VAULT_ID);
      if (!file) throw badRequest(MISSING_FILE);
      return reply.status(201).send(await addAttachment(db, actor, parseId(rawId, VAULT_NOT_FOUND), file));
    },
  );

  app.get(
    '/api/vaults/:id',
    { schema: { tags, summary: 'One vault', params: vaultParams, response: { 200: VaultDtoSchema } } },
    async (request) => loadVault(db, requireUser(request).companyId, request.params.id),
  );

  app.put(
    '/api/vaults/:id',
    {
      schema: {
        tags,
        summary: "Edit a vault's number, customer, order, note or type",
        params: vaultParams,
        body: UpdateVaultSchema,
        response: { 200: VaultDtoSchema },
      },
    },
    async (request) => updateVault(db, actorOf(request), request.params.id, request.body),
  );

  app.delete(
    '/api/vaults/:id',
    {
      schema: {
        tags,
        summary: 'Delete a vault with its attachments',
        params: vaultParams,
        response: { 200: DeleteVaultAnswerSchema },
      },
    },
    async (request) => deleteVault(db, actorOf(request), request.params.id),
  );

  // a cheap full read with an ETag (issue 11): the stage's revision moves with every staged vault written
  app.get(
    '/api/stage/vaults',
    {
      onSend: revalidateEveryTime,
      schema: {
        tags: ['Stage'],
        summary: 'The vaults on the stage, by id',
        response: { 200: z.record(z.string(), StagedVaultDtoSchema).describe('the staged vaults, by id') },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const tag = await stageTag(db, user.companyId);
      if (notModified(request, reply, tag)) return reply;
      return listStagedVaults(db, user.companyId);
    },
  );

  app.post(
    '/api/stage/vaults/:id',
    {
      schema: {
        tags: ['Stage'],
        summary: 'Take the topmost vault of a field onto the stage',
        params: vaultParams,
        body: StageVaultSchema,
        response: { 200: StagedVaultAnswerSchema },
      },
    },
    // a queued stage names where the tablet saw the vault (issue 30)
    async (request) => stageVault(db, actorOf(request), request.params.id, request.body.basis),
  );

  app.get(
    '/api/attachments/:id',
    {
      schema: {
        tags,
        summary: "An attachment's file, as uploaded (types a browser could run are sent as octet-stream)",
        params: attachmentParams,
        response: { 200: fileAnswer('*/*', "the attachment's file") },
      },
    },
    async (request, reply) =>
      downloadAttachment(db, requireUser(request).companyId, request.params.id, reply),
  );

  app.delete(
    '/api/attachments/:id',
    {
      schema: {
        tags,
        summary: 'Delete an attachment of a vault',
        params: attachmentParams,
        response: { 200: AttachmentDeletedAnswerSchema },
      },
    },
    async (request) => deleteAttachment(db, actorOf(request), request.params.id),
  );
};
