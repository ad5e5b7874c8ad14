import { describe, expect, it } from 'vitest';
import type { WarehouseSummaryDto } from '@domain/schemas/warehouse.schema';
import { signIn, testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';
import { buildStagedVault, buildVault, buildWarehouse, makeCouchbox } from '../../factories';

// The Statistics screen reads its figures from the warehouse summary; this pins them on a known dataset.
describe.each(testEngines())('statistics figures from the warehouse summary on %s', (engine) => {
  const { ctx } = useTestApp(engine, { users: 0 });

  it('counts every placed vault for potential spaces, and EMPTY vaults and couchboxes by type', async () => {
    const user = await signIn(ctx);
    const db = ctx.database.db;
    const companyId = user.companyId;
    const warehouse = await buildWarehouse(db, {
      companyId,
      name: 'Stats Depot',
      rows: 2,
      cols: 2,
      fieldCapacity: 3,
    });
    await buildVault(db, { companyId, fieldId: warehouse.field('A1').id, customerName: 'SMITH' });
    await buildVault(db, { companyId, fieldId: warehouse.field('A1').id, customerName: 'JONES' });
    await buildVault(db, { companyId, fieldId: warehouse.field('A2').id, customerName: 'EMPTY VAULT' });
    await makeCouchbox(db, { companyId, fieldId: warehouse.field('B1').id });
    await buildVault(db, {
      companyId,
      fieldId: warehouse.field('B1').id,
      customerName: 'EMPTY COUCHBOX',
      type: 'couchbox',
    });
    await buildStagedVault(db, { companyId, customerName: 'EMPTY VAULT' });

    const res = await user.request({ method: 'GET', url: `/api/warehouse/company/${companyId}` });
    const summary = (res.json() as WarehouseSummaryDto[]).find((w) => w.id === warehouse.id)!;
    expect(summary.warehouseCapacity).toBe(12);
    expect(summary.stats).toEqual({
      vaultCount: 4,
      realVaultCount: 2,
      emptyVaultCount: 1,
      emptyCouchboxCount: 1,
    });
    // Number of Potential Spaces as the screen computes it
    expect(summary.warehouseCapacity - summary.stats.vaultCount).toBe(8);
  });
});
