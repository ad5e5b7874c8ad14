import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AddPalletSchema,
  AddRackSchema,
  DeletePalletQuerySchema,
  EditPalletSchema,
  EditRackSchema,
  MovePalletSchema,
  MoveRackSchema,
  PalletDtoSchema,
  RackDtoSchema,
} from '@domain/schemas/rack.schema';
import { idParams, pathId } from '@domain/schemas/route-params';
import { DeletedAnswerSchema } from '@domain/schemas/warehouse.schema';
import { requireUser } from '../../auth/session.plugin';
import type { FeatureOptions } from '../feature-options';
import { actorOf } from '../../auth/actor';
import { notModified, revalidateEveryTime } from '../../http/revalidation';
import { warehouseTag } from '../warehouses/warehouses.service';
import { addPallet, deletePallet, editPallet, movePallet, PALLET_NOT_FOUND } from './pallets.service';
import { addRack, deleteRack, editRack, listRacks, moveRack, RACK_NOT_FOUND } from './racks.service';
import { WAREHOUSE_NOT_FOUND } from '../warehouses/warehouse-access';

const tags = ['Racks and pallets'];
const warehouseParams = idParams(WAREHOUSE_NOT_FOUND);
const rackParams = z.object({ warehouseId: pathId(WAREHOUSE_NOT_FOUND), rackId: pathId(RACK_NOT_FOUND) });
const palletParams = idParams(PALLET_NOT_FOUND);

export const racksRoutes: FastifyPluginAsync<FeatureOptions> = async (plain, { database }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;

  // a cheap full read with an ETag (issue 11): rack and pallet writes record events that move the revision on
  app.get(
    '/api/racks/warehouse/:id',
    {
      onSend: revalidateEveryTime,
      schema: {
        tags,
        summary: 'The racks of a warehouse with their shelves and pallets',
        params: warehouseParams,
        response: { 200: z.array(RackDtoSchema) },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const warehouseId = request.params.id;
      const tag = await warehouseTag(db, user.companyId, warehouseId, 'racks');
      if (tag && notModified(request, reply, tag)) return reply;
      return listRacks(db, user.companyId, warehouseId);
    },
  );

  app.post(
    '/api/racks/warehouse/:id/add',
    {
      schema: {
        tags,
        summary: 'Add a rack to the floor of a warehouse',
        params: warehouseParams,
        body: AddRackSchema,
        response: { 201: RackDtoSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await addRack(db, actorOf(request), request.params.id, request.body)),
  );

  app.put(
    '/api/racks/:warehouseId/rack/:rackId',
    {
      schema: {
        tags,
        summary: 'Move a rack on the floor, and maybe turn it',
        params: rackParams,
        body: MoveRackSchema,
        response: { 200: RackDtoSchema },
      },
    },
    async (request) => {
      const { warehouseId, rackId } = request.params;
      return moveRack(db, actorOf(request), warehouseId, rackId, request.body);
    },
  );

  app.patch(
    '/api/racks/:warehouseId/rack/:rackId',
    {
      schema: {
        tags,
        summary: "Edit a rack's name, size, shelves or capacity",
        params: rackParams,
        body: EditRackSchema,
        response: { 200: RackDtoSchema },
      },
    },
    async (request) => {
      const { warehouseId, rackId } = request.params;
      return editRack(db, actorOf(request), warehouseId, rackId, request.body);
    },
  );

  app.delete(
    '/api/racks/:warehouseId/rack/:rackId/delete',
    {
      schema: {
        tags,
        summary: 'Delete an empty rack',
        params: rackParams,
        response: { 200: DeletedAnswerSchema },
      },
    },
    async (request) => deleteRack(db, actorOf(request), request.params.warehouseId, request.params.rackId),
  );

  app.post(
    '/api/racks/pallets',
    {
      schema: {
        tags,
        summary: 'Put a pallet on a shelf',
        body: AddPalletSchema,
        response: { 201: PalletDtoSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await addPallet(db, actorOf(request), request.body)),
  );

  app.put(
    '/api/racks/pallets/:id/edit',
    {
      schema: {
        tags,
        summary: 'Edit a pallet',
        params: palletParams,
        body: EditPalletSchema,
        response: { 200: PalletDtoSchema },
      },
    },
    async (request) => editPallet(db, actorOf(request), request.params.id, request.body),
  );

  app.put(
    '/api/racks/pallets/:id/move',
    {
      schema: {
        tags,
        summary: 'Move a pallet to another shelf or slot of its warehouse',
        description:
          'Without `slot_index` the pallet goes to the first run of free slots long enough for it. The spaces must be free there, not counting the pallet itself (400 otherwise); a shelf of another warehouse is refused.',
        params: palletParams,
        body: MovePalletSchema,
        response: { 200: PalletDtoSchema },
      },
    },
    async (request) => movePallet(db, actorOf(request), request.params.id, request.body),
  );

  app.delete(
    '/api/pallets/:id/delete',
    {
      schema: {
        tags,
        summary: 'Delete a pallet',
        description:
          "A pallet of a storage account on hold is deleted only by a Manager with `override_reason` (403 for other roles, 409 without a reason); the reason is kept in the pallet's and the account's history.",
        params: palletParams,
        querystring: DeletePalletQuerySchema,
        response: { 200: DeletedAnswerSchema },
      },
    },
    async (request) =>
      deletePallet(
        db,
        { ...actorOf(request), role: requireUser(request).role },
        request.params.id,
        request.query.override_reason,
      ),
  );
};
