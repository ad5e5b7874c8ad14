import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rackFillLevel } from '@domain/rules/occupancy';
import { placementProblem } from '@domain/rules/rack-placement';
import { buildAccount, buildWarehouse } from '../../factories';
import { type TestContext, startTestApp } from '../../test/test-app';
import { seedDemoRacks } from './racks.demo';
import { listRacks } from './racks.service';

describe('demo racks', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp('sqlite');
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('places racks with pallets clear of each other and of the vault block, one full and one over half full', async () => {
    const account = await buildAccount(ctx.database.db);
    const warehouse = await buildWarehouse(ctx.database.db, {
      companyId: account.companyId,
      rows: 12,
      cols: 9,
      width: 100,
      length: 100,
    });
    await seedDemoRacks(ctx.database.db, account.companyId, [warehouse.id]);
    const racks = await listRacks(ctx.database.db, account.companyId, warehouse.id);
    expect(racks.length).toBeGreaterThanOrEqual(4);
    expect(racks.length).toBeLessThanOrEqual(6);
    const levels = racks.map((rack) => {
      expect(rack.shelves).toHaveLength(3);
      const slots = rack.shelves.reduce((sum, s) => sum + s.capacity, 0);
      const used = rack.shelves.flatMap((s) => s.pallets).reduce((sum, p) => sum + p.shelfSpots, 0);
      return rackFillLevel(used, slots);
    });
    expect(levels).toContain('full');
    expect(levels).toContain('warning');
    const vaultBlock = { x: 0, y: 0, width: 9 * 5, length: 12 * 5, name: 'VAULTS' };
    for (const rack of racks) {
      const others = [
        vaultBlock,
        ...racks.filter((r) => r.id !== rack.id).map((r) => ({ ...r.position, name: r.name })),
      ];
      expect(placementProblem(rack.position, { width: 100, length: 100 }, others), rack.name).toBeNull();
      for (const pallet of rack.shelves.flatMap((s) => s.pallets))
        expect(pallet.customerName).toBe(pallet.customerName.toUpperCase());
    }
  });
});
