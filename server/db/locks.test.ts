import { describe, expect, it } from 'vitest';
import { buildAccount, buildWarehouse } from '../factories';
import { findOrCreateCustomer } from '../customers/customers.repo';
import { insertVault } from '../features/vaults/vaults.repo';
import { LOST_RACE, lostRaceConflict } from '../http/errors';
import { testEngines } from '../test/test-app';
import { useTestApp } from '../test/use-test-app';
import { isLostRace, isPostgres, lockFields, lockWarehouse } from './locks';

describe.each(testEngines())('row locks and lost races on %s', (engine) => {
  const { ctx } = useTestApp(engine, { users: 0 });

  async function newWarehouses(count: number) {
    const account = await buildAccount(ctx.database.db);
    const built = [];
    for (let i = 0; i < count; i++)
      built.push(await buildWarehouse(ctx.database.db, { companyId: account.companyId, rows: 1, cols: 2 }));
    return { companyId: account.companyId, warehouses: built };
  }

  it('knows the engine from the connection itself', () => {
    expect(isPostgres(ctx.database.db)).toBe(engine === 'postgres');
  });

  it('takes the locks inside a transaction on either engine', async () => {
    const { warehouses } = await newWarehouses(1);
    const [warehouse] = warehouses;
    await ctx.database.db.transaction().execute(async (trx) => {
      await lockWarehouse(trx, warehouse!.id, 'share');
      await lockFields(
        trx,
        warehouse!.fields.map((f) => f.id),
      );
    });
  });

  it('counts a check only a race can break as a lost race, a 409 that names no internals', async () => {
    const { companyId, warehouses } = await newWarehouses(1);
    const customerId = await findOrCreateCustomer(ctx.database.db, companyId, 'RACE');
    const error = await insertVault(ctx.database.db, {
      companyId,
      name: 'V-0',
      customerId,
      orderId: null,
      fieldId: warehouses[0]!.fields[0]!.id,
      position: 0,
      type: 'vault',
      note: null,
    }).catch((e: unknown) => e);
    expect(isLostRace(error)).toBe(true);
    expect(lostRaceConflict(error)).toMatchObject({ statusCode: 409, messages: [LOST_RACE] });
    expect(isLostRace(new Error('something else'))).toBe(false);
    expect(lostRaceConflict(new Error('something else'))).toBeUndefined();
  });

  it.runIf(engine === 'postgres')('recognises a real deadlock between two writers', async () => {
    const { warehouses } = await newWarehouses(2);
    const [first, second] = warehouses.map((w) => w.id) as [number, number];
    let arrive: () => void = () => undefined;
    const bothHoldOne = new Promise<void>((resolve) => {
      let waiting = 2;
      arrive = () => {
        waiting -= 1;
        if (waiting === 0) resolve();
      };
    });
    // against the rule on purpose: each takes the other's order
    const writer = (a: number, b: number) =>
      ctx.database.db.transaction().execute(async (trx) => {
        await lockWarehouse(trx, a, 'update');
        arrive();
        await bothHoldOne;
        await lockWarehouse(trx, b, 'update');
      });
    const results = await Promise.allSettled([writer(first, second), writer(second, first)]);
    const failed = results.filter((r) => r.status === 'rejected');
    expect(failed).toHaveLength(1);
    expect(isLostRace(failed[0]!.reason)).toBe(true);
  });
});
