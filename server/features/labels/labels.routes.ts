import type { FastifyPluginAsync } from 'fastify';
import { ScanMoveSchema, ScanQuerySchema } from '../../../domain/schemas/scan.schema';
import { actorOf } from '../../auth/actor';
import { requireUser } from '../../auth/session.plugin';
import { parseInput } from '../../http/errors';
import type { FeatureOptions } from '../feature-routes';
import { moveVault } from '../vaults/vaults.service';
import { resolveScan, scannedVault } from './scan.service';

export const labelsRoutes: FastifyPluginAsync<FeatureOptions> = async (app, { database }) => {
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
};
