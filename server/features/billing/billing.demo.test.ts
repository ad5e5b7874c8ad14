import { describe, expect, it } from 'vitest';
import { testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';
import { seedDemoRacks } from '../racks/racks.demo';
import { seedDemoWarehouses } from '../warehouses/warehouses.demo';
import { listAccounts, listNotBilled, today } from '../accounts/accounts.service';
import { seedDemoBilling } from './billing.demo';
import { dryRun } from './billing-run.service';
import { listRates } from './billing.service';

describe.each(testEngines())('the demo company billing on %s', (engine) => {
  const { ctx, user } = useTestApp(engine);

  it('puts the demo orders on accounts (one SIT paid by an agency), leaves three not billed, and has rates to run', async () => {
    const db = ctx.database.db;
    const warehouseIds = await seedDemoWarehouses(db, user.companyId);
    await seedDemoRacks(db, user.companyId, warehouseIds);
    const before = await listNotBilled(db, user.companyId);
    await seedDemoBilling(db, { companyId: user.companyId, userId: user.userId });

    const accounts = await listAccounts(db, user.companyId);
    expect(accounts).toHaveLength(before.length - 3);
    expect(accounts.filter((a) => a.kind === 'sit')).toHaveLength(1);
    expect(await listNotBilled(db, user.companyId)).toHaveLength(3);
    const rates = await listRates(db, user.companyId);
    expect(
      rates
        .filter((r) => r.kind === 'storage')
        .map((r) => r.unit_type)
        .sort(),
    ).toEqual(['couchbox', 'liftvan', 'pallet', 't2', 'vault']);
    // this month's dry run bills the units moved in today, with their handling in
    const run = await dryRun(db, user.companyId, today().slice(0, 7));
    expect(run.invoices.length).toBeGreaterThan(0);
    expect(run.total).toBeGreaterThan(0);
    expect(run.invoices.flatMap((i) => i.lines).some((l) => l.kind === 'handling-in')).toBe(true);
  });
});
