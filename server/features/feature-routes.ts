import type { FastifyPluginAsync } from 'fastify';
import type { AppConfig } from '../config';
import type { DatabaseHandle } from '../db/database';
import { checklistsRoutes } from './checklists/checklists.routes';
import { contactRoutes } from './contact/contact.routes';
import { fieldsRoutes } from './fields/fields.routes';
import { healthRoutes } from './health/health.routes';
import { labelsRoutes } from './labels/labels.routes';
import { layoutRoutes } from './layout/layout.routes';
import { printRoutes } from './print/print.routes';
import { racksRoutes } from './racks/racks.routes';
import { vaultsRoutes } from './vaults/vaults.routes';
import { warehousesRoutes } from './warehouses/warehouses.routes';

export interface FeatureOptions {
  config: AppConfig;
  database: DatabaseHandle;
}

/** Registers every feature's routes; each feature owns its folder under server/features/. */
export const featureRoutes: FastifyPluginAsync<FeatureOptions> = async (app, options) => {
  for (const routes of [
    healthRoutes,
    warehousesRoutes,
    fieldsRoutes,
    vaultsRoutes,
    layoutRoutes,
    racksRoutes,
    checklistsRoutes,
    contactRoutes,
    printRoutes,
    labelsRoutes,
  ]) {
    await app.register(routes, options);
  }
};
