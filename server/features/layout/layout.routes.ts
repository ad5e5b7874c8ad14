import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import {
  EditDimensionsSchema,
  FieldGridLocationSchema,
  GridChangeSchema,
} from '../../../domain/schemas/warehouse.schema';
import { parseId, parseInput } from '../../http/errors';
import type { FeatureOptions } from '../feature-routes';
import { readForm } from '../../http/form-reader';
import { actorOf } from '../../auth/actor';
import {
  changeGrid,
  editDimensions,
  type GridOperation,
  moveFieldGrid,
  WAREHOUSE_NOT_FOUND,
} from './layout.service';

interface WarehouseParams {
  id: string;
}

/** Grid edits arrive as multipart form data, urlencoded form data or JSON; all read as one flat object. */
async function readGridForm(request: FastifyRequest): Promise<Record<string, unknown>> {
  if (request.isMultipart()) return (await readForm(request)).fields;
  const body = request.body;
  return body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
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
    const input = parseInput(GridChangeSchema, await readGridForm(request));
    return changeGrid(db, actor, operation, input);
  };
  for (const url of ['/api/fields/', '/api/fields']) {
    app.post(url, gridChange('plus'));
    app.delete(url, gridChange('minus'));
  }
};
