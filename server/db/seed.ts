import type { Db } from './database';
import { buildAccount } from './factories';
import { seedDemoWarehouses } from '../features/warehouses/warehouses.demo';
import { seedDemoRacks } from '../features/racks/racks.demo';
import { seedDemoChecklists } from '../features/checklists/checklists.demo';

export const DEMO_LOGIN = {
  company: 'Demo Moving & Storage',
  email: 'demo@warehouse.test',
  password: 'demo-warehouse-2026',
};

export async function isDatabaseEmpty(db: Db): Promise<boolean> {
  const row = await db.selectFrom('companies').select('id').limit(1).executeTakeFirst();
  return row === undefined;
}

/** Seeds the demo company on an empty database; answers whether it did. Never touches a database with data. */
export async function seedDemoIfEmpty(db: Db): Promise<boolean> {
  if (!(await isDatabaseEmpty(db))) return false;
  const account = await buildAccount(db, DEMO_LOGIN);
  const warehouseIds = await seedDemoWarehouses(db, account.companyId);
  await seedDemoRacks(db, account.companyId, warehouseIds);
  await seedDemoChecklists(db, account.companyId, warehouseIds);
  return true;
}
