import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { FieldLabelsSchema, PosterQuerySchema, VaultLabelsSchema } from '@domain/schemas/label.schema';
import { idParams } from '@domain/schemas/route-params';
import {
  ScanAnswerSchema,
  ScanMoveSchema,
  ScanQuerySchema,
  ScannedVaultDtoSchema,
} from '@domain/schemas/scan.schema';
import { actorOf } from '../../auth/actor';
import { requireUser } from '../../auth/session.plugin';
import { fileAnswer, sendPdf } from '../../http/file-answers';
import { publicOrigin } from '../../http/public-url';
import {
  CHECKLIST_NOT_FOUND,
  buildChecklistPoster,
  buildFieldLabels,
  buildVaultLabels,
} from './labels.service';
import type { FeatureOptions } from '../feature-options';
import { moveVault } from '../vaults/vaults.service';
import { VAULT_NOT_FOUND } from '../vaults/vault-loader';
import { resolveScan, scannedVault } from './scan.service';

const pdf = (fileName: string) => ({ 200: fileAnswer('application/pdf', fileName) });

export const labelsRoutes: FastifyPluginAsync<FeatureOptions> = async (plain, { database, config }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;

  // what a scanned label or typed label text names, within the signed-in user's company
  app.get(
    '/api/scan',
    {
      schema: {
        tags: ['Scan'],
        summary: 'What a scanned label or typed label text names: a vault or a field',
        querystring: ScanQuerySchema,
        response: { 200: ScanAnswerSchema },
      },
    },
    async (request) => resolveScan(db, requireUser(request).companyId, request.query),
  );

  // one of several vaults that share a scanned number, as the person chose it
  app.get(
    '/api/scan/vaults/:id',
    {
      schema: {
        tags: ['Scan'],
        summary: 'One vault as a scan shows it: the choice among vaults that share a scanned number',
        params: idParams(VAULT_NOT_FOUND),
        response: { 200: ScanAnswerSchema },
      },
    },
    async (request) => ({
      kind: 'vault' as const,
      vault: await scannedVault(db, requireUser(request).companyId, request.params.id, VAULT_NOT_FOUND),
    }),
  );

  // scan a vault, then a field: into the field's next free slot, by the same rules as any move
  app.post(
    '/api/scan/move',
    {
      schema: {
        tags: ['Scan'],
        summary: "Move a scanned vault into a scanned field's next free slot",
        body: ScanMoveSchema,
        response: { 200: ScannedVaultDtoSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      await moveVault(db, actor, { ...request.body, position: 'next' });
      return scannedVault(db, actor.companyId, request.body.vaultId);
    },
  );

  // label PDFs (the selection can be thousands of vaults, hence POST with a body)
  app.post(
    '/api/labels/vaults',
    {
      schema: {
        tags: ['Labels'],
        summary: 'A PDF of labels for these vaults, in this order',
        body: VaultLabelsSchema,
        response: pdf('vault-labels.pdf'),
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const origin = publicOrigin(config, request);
      return sendPdf(
        reply,
        'vault-labels.pdf',
        await buildVaultLabels(db, user.companyId, origin, request.body),
      );
    },
  );

  app.post(
    '/api/labels/fields',
    {
      schema: {
        tags: ['Labels'],
        summary: "A PDF of labels for a warehouse's fields, all or a block of them",
        body: FieldLabelsSchema,
        response: pdf('field-labels.pdf'),
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const origin = publicOrigin(config, request);
      return sendPdf(
        reply,
        'field-labels.pdf',
        await buildFieldLabels(db, user.companyId, origin, request.body),
      );
    },
  );

  app.get(
    '/api/labels/checklist-poster/:id',
    {
      schema: {
        tags: ['Labels'],
        summary: "A poster with the QR code of a checklist's fill-in link",
        params: idParams(CHECKLIST_NOT_FOUND),
        querystring: PosterQuerySchema,
        response: pdf('checklist-poster.pdf'),
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const origin = publicOrigin(config, request);
      const poster = await buildChecklistPoster(
        db,
        user.companyId,
        origin,
        request.params.id,
        request.query.format,
      );
      return sendPdf(reply, 'checklist-poster.pdf', poster);
    },
  );
};
