import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { FieldGridAnswerSchema, GridChangeDtoSchema } from '@domain/schemas/layout.schema';
import { idParams } from '@domain/schemas/route-params';
import {
  EditDimensionsSchema,
  FieldGridLocationSchema,
  GridChangeSchema,
  WarehouseSummaryDtoSchema,
} from '@domain/schemas/warehouse.schema';
import { parseInput } from '../../http/errors';
import { formBody } from '../../http/declared-routes';
import type { FeatureOptions } from '../feature-options';
import { readForm } from '../../http/form-reader';
import { actorOf } from '../../auth/actor';
import { changeGrid, editDimensions, type GridOperation, moveFieldGrid } from './layout.service';
import { WAREHOUSE_NOT_FOUND } from '../warehouses/warehouse-access';

const tags = ['Warehouses'];
const params = idParams(WAREHOUSE_NOT_FOUND);

export const layoutRoutes: FastifyPluginAsync<FeatureOptions> = async (plain, { database }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;

  // only this plugin's routes take urlencoded forms, so the rest of the API keeps refusing them
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 16 * 1024 },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );

  app.patch(
    '/api/warehouse/:id/edit-dimensions',
    {
      schema: {
        tags,
        summary: "Change a warehouse's field capacity, length or width",
        consumes: ['application/json', 'application/x-www-form-urlencoded'],
        params,
        body: EditDimensionsSchema,
        response: { 200: WarehouseSummaryDtoSchema },
      },
    },
    async (request) => editDimensions(db, actorOf(request), request.params.id, request.body),
  );

  app.put(
    '/api/warehouse/:id/field-grid',
    {
      schema: {
        tags,
        summary: 'Place the block of fields on the floor, kept inside the walls',
        params,
        body: FieldGridLocationSchema,
        response: { 200: FieldGridAnswerSchema },
      },
    },
    async (request) => moveFieldGrid(db, actorOf(request), request.params.id, request.body.fieldgridLocation),
  );

  // a multipart form (the web app's), urlencoded or JSON: read and checked by the handler
  const gridChange = (operation: GridOperation) => async (request: FastifyRequest) => {
    const actor = actorOf(request);
    const input = parseInput(GridChangeSchema, (await readForm(request)).fields);
    return changeGrid(db, actor, operation, input);
  };
  const gridSchema = (summary: string) => ({
    tags,
    summary,
    consumes: ['multipart/form-data', 'application/x-www-form-urlencoded', 'application/json'],
    body: formBody(GridChangeSchema, 'the warehouse, the side (left, right or bottom) and how many'),
    response: { 200: GridChangeDtoSchema },
  });
  for (const url of ['/api/fields/', '/api/fields']) {
    app.post(url, { schema: gridSchema('Add columns or rows of fields') }, gridChange('plus'));
    app.delete(url, { schema: gridSchema('Remove empty columns or rows of fields') }, gridChange('minus'));
  }
};
