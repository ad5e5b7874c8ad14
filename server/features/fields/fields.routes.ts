import type { FastifyPluginAsync } from 'fastify';
import { FieldFullSchema, FieldTypeSchema } from '../../../domain/schemas/warehouse.schema';
import { requireUser } from '../../auth/session.plugin';
import { parseId, parseInput } from '../../http/errors';
import type { FeatureOptions } from '../feature-options';
import { actorOf } from '../../auth/actor';
import { FIELD_NOT_FOUND } from './field-loader';
import { changeFieldFull, changeFieldType, loadFieldOfWarehouse } from './fields.service';

export const fieldsRoutes: FastifyPluginAsync<FeatureOptions> = async (app, { database }) => {
  const { db } = database;

  // a field of a warehouse, with its vaults (the path sits beside the warehouse's own read)
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

  app.patch<{ Params: { id: string } }>('/api/fields/:id', async (request) => {
    const actor = actorOf(request);
    const fieldId = parseId(request.params.id, FIELD_NOT_FOUND);
    return changeFieldType(db, actor, fieldId, parseInput(FieldTypeSchema, request.body));
  });

  app.patch<{ Params: { id: string } }>('/api/fields/:id/full', async (request) => {
    const actor = actorOf(request);
    const fieldId = parseId(request.params.id, FIELD_NOT_FOUND);
    return changeFieldFull(db, actor, fieldId, parseInput(FieldFullSchema, request.body).full);
  });
};
