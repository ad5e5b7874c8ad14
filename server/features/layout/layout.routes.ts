import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import {
  EditDimensionsSchema,
  FieldGridLocationSchema,
  GridChangeSchema,
} from '@domain/schemas/warehouse.schema';
import { parseId, parseInput } from '../../http/errors';
import type { FeatureOptions } from '../feature-options';
import { readForm } from '../../http/form-reader';
import { actorOf } from '../../auth/actor';
import { changeGrid, editDimensions, type GridOperation, moveFieldGrid } from './layout.service';
import { WAREHOUSE_NOT_FOUND } from '../warehouses/warehouse-access';

interface WarehouseParams {
  id: string;
}

export const layoutRoutes: FastifyPluginAsync<FeatureOptions> = async (app, { database }) => {
  const { db } = database;

  // only this plugin's routes take urlencoded forms, so the rest of the API keeps refusing them
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 16 * 1024 },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );

  app.patch<{ Params: WarehouseParams }>('/api/warehouse/:id/edit-dimensions', async (request) => {
    const actor = actorOf(request);
    const warehouseId = parseId(request.params.id, WAREHOUSE_NOT_FOUND);
    return editDimensions(db, actor, warehouseId, parseInput(EditDimensionsSchema, request.body));
  });

  app.put<{ Params: WarehouseParams }>('/api/warehouse/:id/field-grid', async (request) => {
    const actor = actorOf(request);
    const warehouseId = parseId(request.params.id, WAREHOUSE_NOT_FOUND);
    const { fieldgridLocation } = parseInput(FieldGridLocationSchema, request.body);
    return moveFieldGrid(db, actor, warehouseId, fieldgridLocation);
  });

  const gridChange = (operation: GridOperation) => async (request: FastifyRequest) => {
    const actor = actorOf(request);
    const input = parseInput(GridChangeSchema, (await readForm(request)).fields);
    return changeGrid(db, actor, operation, input);
  };
  for (const url of ['/api/fields/', '/api/fields']) {
    app.post(url, gridChange('plus'));
    app.delete(url, gridChange('minus'));
  }
};
