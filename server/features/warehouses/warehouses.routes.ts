import type { FastifyPluginAsync } from 'fastify';
import { AddWarehouseSchema } from '../../../domain/schemas/warehouse.schema';
import { requireUser } from '../../auth/session.plugin';
import { notFound, parseId, parseInput } from '../../http/errors';
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

export const warehousesRoutes: FastifyPluginAsync<FeatureOptions> = async (app, { database }) => {
  const { db } = database;

  // Cheap full reads (issue 11): ETag from revisions the database moves on with every write, answered with a 304
  // without building the answer; `Cache-Control: private, no-cache` so browsers revalidate (see revalidation.ts).
  app.get<{ Params: { companyId: string } }>(
    '/api/warehouse/company/:companyId',
    { onSend: revalidateEveryTime },
    async (request, reply) => {
      const user = requireUser(request);
      const companyId = parseId(request.params.companyId, 'Company not found');
      if (companyId !== user.companyId) throw notFound('Company not found');
      const list = await listCompanyWarehousesTagged(db, companyId);
      if (notModified(request, reply, list.tag)) return reply;
      return list.present();
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/warehouse/:id',
    { onSend: revalidateEveryTime },
    async (request, reply) => {
      const user = requireUser(request);
      const warehouseId = parseId(request.params.id, WAREHOUSE_NOT_FOUND);
      // the tag is read before the data, so it is never newer than what it is sent with
      const tag = await warehouseTag(db, user.companyId, warehouseId, 'warehouse');
      if (tag && notModified(request, reply, tag)) return reply;
      return loadWarehouse(db, user.companyId, warehouseId);
    },
  );

  app.post('/api/warehouse/add-warehouse', async (request, reply) => {
    const actor = actorOf(request);
    const input = parseInput(AddWarehouseSchema, request.body);
    return reply.status(201).send(await createWarehouse(db, actor, input));
  });

  app.delete<{ Params: { id: string } }>('/api/warehouse/:id', async (request) => {
    const actor = actorOf(request);
    return deleteWarehouse(db, actor, parseId(request.params.id, WAREHOUSE_NOT_FOUND));
  });
};
