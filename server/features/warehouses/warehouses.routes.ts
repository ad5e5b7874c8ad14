import type { FastifyPluginAsync } from 'fastify';
import { AddWarehouseSchema } from '../../../domain/schemas/warehouse.schema';
import { requireUser } from '../../auth/session.plugin';
import { notFound, parseId, parseInput } from '../../http/errors';
import type { FeatureOptions } from '../feature-routes';
import { loadFieldOfWarehouse } from '../fields/fields.service';
import { FIELD_NOT_FOUND } from '../fields/field-loader';
import { actorOf } from '../../auth/actor';
import {
  WAREHOUSE_NOT_FOUND,
  createWarehouse,
  deleteWarehouse,
  listCompanyWarehouses,
  loadWarehouse,
} from './warehouses.service';

export const warehousesRoutes: FastifyPluginAsync<FeatureOptions> = async (app, { database }) => {
  const { db } = database;

  app.get<{ Params: { companyId: string } }>('/api/warehouse/company/:companyId', async (request) => {
    const user = requireUser(request);
    const companyId = parseId(request.params.companyId, 'Company not found');
    if (companyId !== user.companyId) throw notFound('Company not found');
    return listCompanyWarehouses(db, companyId);
  });

  app.get<{ Params: { id: string } }>('/api/warehouse/:id', async (request) => {
    const user = requireUser(request);
    return loadWarehouse(db, user.companyId, parseId(request.params.id, WAREHOUSE_NOT_FOUND));
  });

  app.get<{ Params: { warehouseId: string; fieldId: string } }>(
    '/api/warehouse/:warehouseId/:fieldId',
    async (request) => {
      const user = requireUser(request);
      return loadFieldOfWarehouse(
        db,
        user.companyId,
        parseId(request.params.warehouseId, FIELD_NOT_FOUND),
        parseId(request.params.fieldId, FIELD_NOT_FOUND),
      );
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
