import { describe, expect, it } from 'vitest';
import type { WarehouseDto } from '@domain/schemas/warehouse.schema';
import { buildAccount } from '../../factories';
import { signIn, testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';
import { seedDemoWarehouses } from './warehouses.demo';

describe.each(testEngines())('demo warehouses on %s', (engine) => {
  const { ctx } = useTestApp(engine, { users: 0 });

  it('seeds the main warehouse and the annex with varied vault states through the API rules', async () => {
    const account = await buildAccount(ctx.database.db);
    const ids = await seedDemoWarehouses(ctx.database.db, account.companyId);
    expect(ids).toHaveLength(2);
    const user = await signIn(ctx, account);

    const list = (
      await user.request({ method: 'GET', url: `/api/warehouse/company/${account.companyId}` })
    ).json();
    expect(list.map((w: { name: string }) => w.name)).toEqual(['Annex', 'Main Warehouse']);

    const main = (
      await user.request({ method: 'GET', url: `/api/warehouse/${ids[0]}` })
    ).json() as WarehouseDto;
    expect(main).toMatchObject({
      rows: 12,
      cols: 9,
      fieldCapacity: 3,
      width: 100,
      length: 100,
      fieldgridLocation: { x: 10, y: 10 },
    });
    const byName = new Map(Object.values(main.fields).map((f) => [f.name, f]));
    expect(Object.keys(byName.get('C1')!.vaults)).toHaveLength(3);
    expect(byName.get('C4')!.type).toBe('couchbox-T');
    expect(byName.get('C5')!.type).toBe('couchbox-B');
    const couchboxes = Object.values(byName.get('C4')!.vaults);
    expect(couchboxes.map((v) => v.customer_name).sort()).toEqual(['DELACROIX', 'EMPTY COUCHBOX']);
    expect(couchboxes.map((v) => v.position).sort()).toEqual([3, 4]);
    expect(byName.get('F4')!.full).toBe(true);
    expect(main.stats.emptyCouchboxCount).toBe(1);
    expect(main.stats.emptyVaultCount).toBeGreaterThanOrEqual(3);
    const placeholder = Object.values(byName.get('D8')!.vaults)[0]!;
    expect(placeholder).toMatchObject({
      customer_name: 'EMPTY T2',
      type: 't2',
      name: null,
      order_name: null,
    });

    const staged = (await user.request({ method: 'GET', url: '/api/stage/vaults' })).json();
    expect(Object.keys(staged)).toHaveLength(3);
  });
});
