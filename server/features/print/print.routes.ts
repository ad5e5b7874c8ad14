import type { FastifyPluginAsync } from 'fastify';
import { type PrintVaultDto, sortForPrint } from '../../../domain/rules/print-order';
import { requireUser } from '../../auth/session.plugin';
import type { FeatureOptions } from '../feature-routes';
import { presentPrintVaults } from './print.presenter';
import { listFieldsForPrint, listVaultsForPrint } from './print.repo';

export const printRoutes: FastifyPluginAsync<FeatureOptions> = async (app, { database }) => {
  // sorted here with the shared rule: SQL collations differ between the engines and know no "A2 before A10"
  app.get('/api/vaults/all', async (request): Promise<PrintVaultDto[]> => {
    const user = requireUser(request);
    const [vaults, fields] = await Promise.all([
      listVaultsForPrint(database.db, user.companyId),
      listFieldsForPrint(database.db, user.companyId),
    ]);
    return sortForPrint(presentPrintVaults(vaults, fields));
  });
};
