import type { FastifyPluginAsync } from 'fastify';
import { accountsRoutes } from './accounts/accounts.routes';
import { apiAccessRoutes } from './api-access/api-access.routes';
import { activityRoutes } from './activity/activity.routes';
import { backupsRoutes } from './backups/backups.routes';
import { billingRoutes } from './billing/billing.routes';
import type { FeatureOptions } from './feature-options';
import { checksRoutes } from './checks/checks.routes';
import { checklistsRoutes } from './checklists/checklists.routes';
import { companyFileRoutes } from './company-file/company-file.routes';
import { contactRoutes } from './contact/contact.routes';
import { fieldsRoutes } from './fields/fields.routes';
import { healthRoutes } from './health/health.routes';
import { importRoutes } from './import/import.routes';
import { labelsRoutes } from './labels/labels.routes';
import { layoutRoutes } from './layout/layout.routes';
import { printRoutes } from './print/print.routes';
import { pullListsRoutes } from './pull-lists/pull-lists.routes';
import { racksRoutes } from './racks/racks.routes';
import { searchRoutes } from './search/search.routes';
import { teamRoutes } from './team/team.routes';
import { receivingRoutes } from './receiving/receiving.routes';
import { customersRoutes } from './customers/customers.routes';
import { portalRoutes } from './portal/portal.routes';
import { inventoryRoutes } from './inventory/inventory.routes';
import { requestsRoutes } from './requests/requests.routes';
import { vaultsRoutes } from './vaults/vaults.routes';
import { warehousesRoutes } from './warehouses/warehouses.routes';
import { onWarehouseRemoval } from './warehouses/warehouses.service';
import { removePalletsOfWarehouse } from './racks/racks.service';
import { keepChecksOfWarehouse } from './checks/checks.service';
import { beforeVaultDelete } from './vaults/vault-delete';
import { refuseHeldUnitsOfWarehouse, refuseHeldVaultDelete } from './accounts/holds.service';

// what other features keep or record when a warehouse is deleted (the core imports none of them)
// a warehouse holding units of an account on hold is not deleted around the hold (decision 051): checked first
onWarehouseRemoval(refuseHeldUnitsOfWarehouse);
onWarehouseRemoval(removePalletsOfWarehouse);
onWarehouseRemoval(keepChecksOfWarehouse);
// a vault of an account on hold is not deleted around the hold (decision 051)
beforeVaultDelete(refuseHeldVaultDelete);

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
    teamRoutes,
    activityRoutes,
    pullListsRoutes,
    receivingRoutes,
    importRoutes,
    labelsRoutes,
    checksRoutes,
    companyFileRoutes,
    backupsRoutes,
    searchRoutes,
    accountsRoutes,
    billingRoutes,
    apiAccessRoutes,
    customersRoutes,
    portalRoutes,
    inventoryRoutes,
    requestsRoutes,
  ]) {
    await app.register(routes, options);
  }
};
