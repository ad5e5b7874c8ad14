import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams, pathId } from '@domain/schemas/route-params';
import {
  AddWarehouseSchema,
  DeletedAnswerSchema,
  WarehouseDtoSchema,
  WarehouseSummaryDtoSchema,
} from '@domain/schemas/warehouse.schema';
import { requireUser } from '../../auth/session.plugin';
import { notFound } from '../../http/errors';
import type { FeatureOptions } from '../feature-options';
import { actorOf } from '../../auth/actor';
import {
  createWarehouse,
  deleteWarehouse,
  listCompanyWarehousesTagged,
  loadWarehouse,
  warehouseTag,
} from './warehouses.service';
import { notModified, revalidateEveryTime } from '../../http/revalidation';
import { WAREHOUSE_NOT_FOUND } from './warehouse-access';

const tags = ['Warehouses'];

export const warehousesRoutes: FastifyPluginAsync<FeatureOptions> = async (plain, { database }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;

  // Cheap full reads (issue 11): ETag from revisions the database moves on with every write, answered with a 304
  // without building the answer; `Cache-Control: private, no-cache` so browsers revalidate (see revalidation.ts).
  app.get(
    '/api/warehouse/company/:companyId',
    {
      onSend: revalidateEveryTime,
      schema: {
        tags,
        summary: "The company's warehouses with their counts (no fields)",
        params: z.object({ companyId: pathId('Company not found') }),
        response: { 200: z.array(WarehouseSummaryDtoSchema) },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { companyId } = request.params;
      if (companyId !== user.companyId) throw notFound('Company not found');
      const list = await listCompanyWarehousesTagged(db, companyId);
      if (notModified(request, reply, list.tag)) return reply;
      return list.present();
    },
  );

  app.get(
    '/api/warehouse/:id',
    {
      onSend: revalidateEveryTime,
      schema: {
        tags,
        summary: 'One warehouse with its fields and their vaults',
        params: idParams(WAREHOUSE_NOT_FOUND),
        response: { 200: WarehouseDtoSchema },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const warehouseId = request.params.id;
      // the tag is read before the data, so it is never newer than what it is sent with
      const tag = await warehouseTag(db, user.companyId, warehouseId, 'warehouse');
      if (tag && notModified(request, reply, tag)) return reply;
      return loadWarehouse(db, user.companyId, warehouseId);
    },
  );

  app.post(
    '/api/warehouse/add-warehouse',
    {
      schema: {
        tags,
        summary: 'Add a warehouse with its grid of fields',
        body: AddWarehouseSchema,
        response: { 201: WarehouseDtoSchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      return reply.status(201).send(await createWarehouse(db, actor, request.body));
    },
  );

  app.delete(
    '/api/warehouse/:id',
    {
      schema: {
        tags,
        summary: 'Delete a warehouse with everything in it',
        params: idParams(WAREHOUSE_NOT_FOUND),
        response: { 200: DeletedAnswerSchema },
      },
    },
    async (request) => deleteWarehouse(db, actorOf(request), request.params.id),
  );
};
