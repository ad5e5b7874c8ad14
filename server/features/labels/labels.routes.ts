import { Readable } from 'node:stream';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { FieldLabelsSchema, PosterQuerySchema, VaultLabelsSchema } from '@domain/schemas/label.schema';
import { ScanMoveSchema, ScanQuerySchema } from '@domain/schemas/scan.schema';
import { actorOf } from '../../auth/actor';
import { requireUser } from '../../auth/session.plugin';
import { parseId, parseInput } from '../../http/errors';
import { publicOrigin } from '../../http/public-url';
import {
  CHECKLIST_NOT_FOUND,
  buildChecklistPoster,
  buildFieldLabels,
  buildVaultLabels,
} from './labels.service';
import type { FeatureOptions } from '../feature-options';
import { moveVault } from '../vaults/vaults.service';
import { resolveScan, scannedVault } from './scan.service';

/**
 * A finished PDF, or one drawn as it is sent (chunked, no length): by then every check has passed, so the answer is
 * 200; should drawing fail after the first bytes, the connection is cut and the client sees a broken download.
 */
function sendPdf(reply: FastifyReply, fileName: string, pdf: Uint8Array | AsyncIterable<Uint8Array>) {
  return reply
    .type('application/pdf')
    .header('Content-Disposition', `attachment; filename="${fileName}"`)
    .header('Cache-Control', 'no-store')
    .send(
      pdf instanceof Uint8Array
        ? Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength)
        : Readable.from(pdf, { objectMode: false }),
    );
}

export const labelsRoutes: FastifyPluginAsync<FeatureOptions> = async (app, { database, config }) => {
  const { db } = database;

  // what a scanned label or typed label text names, within the signed-in user's company
  app.get('/api/scan', async (request) => {
    const user = requireUser(request);
    return resolveScan(db, user.companyId, parseInput(ScanQuerySchema, request.query));
  });

  // scan a vault, then a field: into the field's next free slot, by the same rules as any move
  app.post('/api/scan/move', async (request) => {
    const actor = actorOf(request);
    const input = parseInput(ScanMoveSchema, request.body);
    await moveVault(db, actor, { ...input, position: 'next' });
    return scannedVault(db, actor.companyId, input.vaultId);
  });

  // label PDFs (the selection can be thousands of vaults, hence POST with a body)
  app.post('/api/labels/vaults', async (request, reply) => {
    const user = requireUser(request);
    const input = parseInput(VaultLabelsSchema, request.body);
    return sendPdf(
      reply,
      'vault-labels.pdf',
      await buildVaultLabels(db, user.companyId, publicOrigin(config, request), input),
    );
  });

  app.post('/api/labels/fields', async (request, reply) => {
    const user = requireUser(request);
    const input = parseInput(FieldLabelsSchema, request.body);
    return sendPdf(
      reply,
      'field-labels.pdf',
      await buildFieldLabels(db, user.companyId, publicOrigin(config, request), input),
    );
  });

  app.get<{ Params: { id: string } }>('/api/labels/checklist-poster/:id', async (request, reply) => {
    const user = requireUser(request);
    const id = parseId(request.params.id, CHECKLIST_NOT_FOUND);
    const { format } = parseInput(PosterQuerySchema, request.query);
    const pdf = await buildChecklistPoster(db, user.companyId, publicOrigin(config, request), id, format);
    return sendPdf(reply, 'checklist-poster.pdf', pdf);
  });
};
