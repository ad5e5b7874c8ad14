import type { FastifyPluginAsync } from 'fastify';
import type { FeatureOptions } from './feature-options';
import { checklistsRoutes } from './checklists/checklists.routes';
import { contactRoutes } from './contact/contact.routes';
import { fieldsRoutes } from './fields/fields.routes';
import { healthRoutes } from './health/health.routes';
import { layoutRoutes } from './layout/layout.routes';
import { printRoutes } from './print/print.routes';
import { racksRoutes } from './racks/racks.routes';
import { vaultsRoutes } from './vaults/vaults.routes';
import { warehousesRoutes } from './warehouses/warehouses.routes';

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
  ]) {
    await app.register(routes, options);
  }
};
