import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams, pathId } from '@domain/schemas/route-params';
import {
  FieldDtoSchema,
  FieldFullSchema,
  FieldTypeAnswerSchema,
  FieldTypeSchema,
} from '@domain/schemas/warehouse.schema';
import { requireUser } from '../../auth/session.plugin';
import type { FeatureOptions } from '../feature-options';
import { actorOf } from '../../auth/actor';
import { FIELD_NOT_FOUND } from './field-loader';
import { changeFieldFull, changeFieldType, loadFieldOfWarehouse } from './fields.service';

const tags = ['Fields'];

export const fieldsRoutes: FastifyPluginAsync<FeatureOptions> = async (plain, { database }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;

  // a field of a warehouse, with its vaults (the path sits beside the warehouse's own read)
  app.get(
    '/api/warehouse/:warehouseId/:fieldId',
    {
      schema: {
        tags,
        summary: 'One field of a warehouse with its vaults',
        params: z.object({ warehouseId: pathId(FIELD_NOT_FOUND), fieldId: pathId(FIELD_NOT_FOUND) }),
        response: { 200: FieldDtoSchema },
      },
    },
    async (request) => {
      const user = requireUser(request);
      return loadFieldOfWarehouse(db, user.companyId, request.params.warehouseId, request.params.fieldId);
    },
  );

  app.patch(
    '/api/fields/:id',
    {
      schema: {
        tags,
        summary: 'Make a field a couchbox pair with the field below, or back into vault fields',
        params: idParams(FIELD_NOT_FOUND),
        body: FieldTypeSchema,
        response: { 200: FieldTypeAnswerSchema },
      },
    },
    async (request) => changeFieldType(db, actorOf(request), request.params.id, request.body),
  );

  app.patch(
    '/api/fields/:id/full',
    {
      schema: {
        tags,
        summary: 'Mark a field full or not full',
        params: idParams(FIELD_NOT_FOUND),
        body: FieldFullSchema,
        response: { 200: FieldDtoSchema },
      },
    },
    async (request) => changeFieldFull(db, actorOf(request), request.params.id, request.body.full),
  );
};
