import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParams } from '../../../domain/schemas/route-params';
import {
  FieldDtoSchema,
  FieldFullSchema,
  FieldTypeAnswerSchema,
  FieldTypeSchema,
} from '../../../domain/schemas/warehouse.schema';
import type { FeatureOptions } from '../feature-options';
import { actorOf } from '../../auth/actor';
import { FIELD_NOT_FOUND } from './field-loader';
import { changeFieldFull, changeFieldType } from './fields.service';

const tags = ['Fields'];

export const fieldsRoutes: FastifyPluginAsync<FeatureOptions> = async (plain, { database }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;

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
