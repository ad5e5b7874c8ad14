import type { Db } from './db/database';
import { DEMO_LOGIN, isDatabaseEmpty } from './db/seed';
import { dateDemoHistory } from './demo-history';
import { asActor } from './events/event-actor';
import { buildAccount } from './factories';
import { today } from './features/accounts/accounts.service';
import { seedDemoBilling } from './features/billing/billing.demo';
import { seedDemoChecklists } from './features/checklists/checklists.demo';
import { seedDemoRacks } from './features/racks/racks.demo';
import { seedDemoRequests } from './features/requests/requests.demo';
import { seedDemoWarehouses } from './features/warehouses/warehouses.demo';

export { DEMO_LOGIN } from './db/seed';

/** Seeds the demo company on an empty database; answers whether it did. Never touches a database with data. */
export async function seedDemoIfEmpty(db: Db): Promise<boolean> {
  if (!(await isDatabaseEmpty(db))) return false;
  const account = await buildAccount(db, DEMO_LOGIN);
  // the demo's past (its units' move-ins, two months of invoices and payments) is counted back from this one day
  const day = today();
  // the history names who did it (issue 27): the demo's own member, whose name is the address's first part
  await asActor(DEMO_LOGIN.email.split('@')[0]!, async () => {
    const warehouseIds = await seedDemoWarehouses(db, account.companyId, day);
    await seedDemoRacks(db, account.companyId, warehouseIds, day);
    await seedDemoChecklists(db, account.companyId, warehouseIds);
    await seedDemoBilling(db, { companyId: account.companyId, userId: account.userId }, day);
    await seedDemoRequests(db, account.companyId, account.userId, day);
  });
  await dateDemoHistory(db, account.companyId);
  return true;
}
