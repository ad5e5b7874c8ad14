import type { Db } from './db/database';
import { DEMO_LOGIN, isDatabaseEmpty } from './db/seed';
import { buildAccount } from './factories';
import { seedDemoChecklists } from './features/checklists/checklists.demo';
import { seedDemoRacks } from './features/racks/racks.demo';
import { seedDemoWarehouses } from './features/warehouses/warehouses.demo';

export { DEMO_LOGIN } from './db/seed';

/** Seeds the demo company on an empty database; answers whether it did. Never touches a database with data. */
export async function seedDemoIfEmpty(db: Db): Promise<boolean> {
  if (!(await isDatabaseEmpty(db))) return false;
  const account = await buildAccount(db, DEMO_LOGIN);
  const warehouseIds = await seedDemoWarehouses(db, account.companyId);
  await seedDemoRacks(db, account.companyId, warehouseIds);
  await seedDemoChecklists(db, account.companyId, warehouseIds);
  return true;
}
