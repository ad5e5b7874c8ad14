import type { FastifyPluginAsync } from 'fastify';
import {
  AddPalletSchema,
  AddRackSchema,
  EditPalletSchema,
  EditRackSchema,
  MoveRackSchema,
} from '@domain/schemas/rack.schema';
import { requireUser } from '../../auth/session.plugin';
import { parseId, parseInput } from '../../http/errors';
import type { FeatureOptions } from '../feature-options';
import { actorOf } from '../../auth/actor';
import { notModified, revalidateEveryTime } from '../../http/revalidation';
import { warehouseTag } from '../warehouses/warehouses.service';
import { addPallet, deletePallet, editPallet, PALLET_NOT_FOUND } from './pallets.service';
import { addRack, deleteRack, editRack, listRacks, moveRack, RACK_NOT_FOUND } from './racks.service';
import { WAREHOUSE_NOT_FOUND } from '../warehouses/warehouse-access';

interface WarehouseParams {
  id: string;
}
interface RackParams {
  warehouseId: string;
  rackId: string;
}
interface PalletParams {
  id: string;
}

export const racksRoutes: FastifyPluginAsync<FeatureOptions> = async (app, { database }) => {
  const { db } = database;

  // a cheap full read with an ETag (issue 11): rack and pallet writes record events that move the revision on
  app.get<{ Params: WarehouseParams }>(
    '/api/racks/warehouse/:id',
    { onSend: revalidateEveryTime },
    async (request, reply) => {
      const user = requireUser(request);
      const warehouseId = parseId(request.params.id, WAREHOUSE_NOT_FOUND);
      const tag = await warehouseTag(db, user.companyId, warehouseId, 'racks');
      if (tag && notModified(request, reply, tag)) return reply;
      return listRacks(db, user.companyId, warehouseId);
    },
  );

  app.post<{ Params: WarehouseParams }>('/api/racks/warehouse/:id/add', async (request, reply) => {
    const actor = actorOf(request);
    const warehouseId = parseId(request.params.id, WAREHOUSE_NOT_FOUND);
    const input = parseInput(AddRackSchema, request.body);
    return reply.status(201).send(await addRack(db, actor, warehouseId, input));
  });

  app.put<{ Params: RackParams }>('/api/racks/:warehouseId/rack/:rackId', async (request) => {
    const actor = actorOf(request);
    const warehouseId = parseId(request.params.warehouseId, WAREHOUSE_NOT_FOUND);
    const rackId = parseId(request.params.rackId, RACK_NOT_FOUND);
    return moveRack(db, actor, warehouseId, rackId, parseInput(MoveRackSchema, request.body));
  });

  app.patch<{ Params: RackParams }>('/api/racks/:warehouseId/rack/:rackId', async (request) => {
    const actor = actorOf(request);
    const warehouseId = parseId(request.params.warehouseId, WAREHOUSE_NOT_FOUND);
    const rackId = parseId(request.params.rackId, RACK_NOT_FOUND);
    return editRack(db, actor, warehouseId, rackId, parseInput(EditRackSchema, request.body));
  });

  app.delete<{ Params: RackParams }>('/api/racks/:warehouseId/rack/:rackId/delete', async (request) => {
    const actor = actorOf(request);
    const warehouseId = parseId(request.params.warehouseId, WAREHOUSE_NOT_FOUND);
    return deleteRack(db, actor, warehouseId, parseId(request.params.rackId, RACK_NOT_FOUND));
  });

  app.post('/api/racks/pallets', async (request, reply) => {
    const actor = actorOf(request);
    return reply.status(201).send(await addPallet(db, actor, parseInput(AddPalletSchema, request.body)));
  });

  app.put<{ Params: PalletParams }>('/api/racks/pallets/:id/edit', async (request) => {
    const actor = actorOf(request);
    const palletId = parseId(request.params.id, PALLET_NOT_FOUND);
    return editPallet(db, actor, palletId, parseInput(EditPalletSchema, request.body));
  });

  app.delete<{ Params: PalletParams }>('/api/pallets/:id/delete', async (request) => {
    const actor = actorOf(request);
    return deletePallet(db, actor, parseId(request.params.id, PALLET_NOT_FOUND));
  });
};
