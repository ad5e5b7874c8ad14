import { describe, expect, it } from 'vitest';
import { type ChecklistDto, DEFAULT_CHECKLIST_TASKS } from '@domain/schemas/checklist.schema';
import { buildAccount, buildWarehouse } from '../../factories';
import { signIn, testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';
import { seedDemoChecklists } from './checklists.demo';

describe.each(testEngines())('demo checklist on %s', (engine) => {
  const { ctx } = useTestApp(engine, { users: 0 });

  it('seeds one active checklist for the first warehouse with the default tasks, the first one answered', async () => {
    const account = await buildAccount(ctx.database.db);
    const first = await buildWarehouse(ctx.database.db, { companyId: account.companyId, name: 'Demo First' });
    const second = await buildWarehouse(ctx.database.db, {
      companyId: account.companyId,
      name: 'Demo Second',
    });
    await seedDemoChecklists(ctx.database.db, account.companyId, [first.id, second.id]);

    const user = await signIn(ctx, account);
    const list = (await user.request({ method: 'GET', url: '/api/checklists/' })).json() as ChecklistDto[];
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ warehouse_id: first.id, is_active: true, filled_out_by: 'Sam Ortiz' });
    expect(list[0]!.tasks.map((t) => t.text)).toEqual([...DEFAULT_CHECKLIST_TASKS]);
    expect(list[0]!.tasks.filter((t) => t.completed)).toHaveLength(1);

    // the demo's fill-in link carries its key, and opens signed out
    expect(list[0]!.fill_in_url).toMatch(/^\/demo-first-checklist\?key=[\w-]{24}$/);
    const key = new URLSearchParams(list[0]!.fill_in_url!.split('?')[1]).get('key')!;
    const open = await ctx.app.inject({
      method: 'GET',
      url: `/api/checklists/warehouse/demo-first?key=${key}`,
    });
    expect(open.json()).toMatchObject({ id: list[0]!.id, warehouseName: 'Demo First' });
    const noKey = await ctx.app.inject({ method: 'GET', url: '/api/checklists/warehouse/demo-first' });
    expect(noKey.statusCode).toBe(404);
  });

  it('seeds nothing without a warehouse', async () => {
    const account = await buildAccount(ctx.database.db);
    await seedDemoChecklists(ctx.database.db, account.companyId, []);
    const user = await signIn(ctx, account);
    expect((await user.request({ method: 'GET', url: '/api/checklists/' })).json()).toEqual([]);
  });
});
