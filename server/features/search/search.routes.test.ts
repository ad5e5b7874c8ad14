import { describe, expect, it } from 'vitest';
import type { SearchAnswerDto, SearchHitDto } from '@domain/schemas/search.schema';
import { type SignedIn, testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';
import { buildPallet, buildRack, buildStagedVault, buildVault, buildWarehouse } from '../../factories';

describe.each(testEngines())('company-wide search on %s', (engine) => {
  const { ctx, user, other } = useTestApp(engine);

  const db = () => ctx.database.db;
  const find = async (as: SignedIn, q: string, limit?: number) => {
    const params = new URLSearchParams({ q, ...(limit ? { limit: String(limit) } : {}) });
    const res = await as.request({ method: 'GET', url: `/api/search?${params.toString()}` });
    return { status: res.statusCode, body: res.json<SearchAnswerDto & { errors?: string[] }>() };
  };
  const only = <K extends SearchHitDto['kind']>(hits: SearchHitDto[], kind: K) =>
    hits.filter((h): h is Extract<SearchHitDto, { kind: K }> => h.kind === kind);

  it('finds vaults in every warehouse, on the stage and released, each saying where it is', async () => {
    const north = await buildWarehouse(db(), {
      companyId: user.companyId,
      name: 'North Hall',
      rows: 2,
      cols: 2,
    });
    const south = await buildWarehouse(db(), {
      companyId: user.companyId,
      name: 'South Hall',
      rows: 2,
      cols: 2,
    });
    await buildVault(db(), { companyId: user.companyId, fieldId: north.field('A1').id, name: 'ZX-101' });
    const deep = await buildVault(db(), {
      companyId: user.companyId,
      fieldId: south.field('B2').id,
      name: 'zx-102',
    });
    const staged = await buildStagedVault(db(), { companyId: user.companyId, name: 'ZX-103' });
    const gone = await buildStagedVault(db(), { companyId: user.companyId, name: 'ZX-104' });
    await db()
      .updateTable('vaults')
      .set({ released_at: '2026-11-20T10:00:00.000Z', released_by: 'Anna' })
      .where('id', '=', gone.id)
      .execute();
    // another company's vault with the same beginning stays out of sight
    const theirs = await buildWarehouse(db(), { companyId: other.companyId, rows: 1, cols: 1 });
    await buildVault(db(), { companyId: other.companyId, fieldId: theirs.field('A1').id, name: 'ZX-999' });

    const { status, body } = await find(user, 'zx-1');
    expect(status).toBe(200);
    const vaults = only(body.hits, 'vault');
    expect(vaults.map((v) => v.name)).toEqual(['ZX-101', 'zx-102', 'ZX-103', 'ZX-104']);
    expect(vaults[1]!.place).toEqual({
      at: 'field',
      warehouse: { id: south.id, name: 'South Hall', slug: south.slug },
      fieldId: south.field('B2').id,
      fieldName: 'B2',
      position: deep.position,
    });
    expect(vaults[0]!.place).toMatchObject({
      at: 'field',
      warehouse: { name: 'North Hall' },
      fieldName: 'A1',
    });
    expect(vaults.find((v) => v.id === staged.id)!.place).toEqual({ at: 'stage' });
    expect(vaults.find((v) => v.id === gone.id)!.place).toEqual({
      at: 'released',
      releasedAt: '2026-11-20T10:00:00.000Z',
      releasedBy: 'Anna',
    });
    expect(JSON.stringify(body)).not.toContain('ZX-999');
    expect((await find(other, 'zx-')).body.hits.map((h) => h.kind === 'vault' && h.name)).toEqual(['ZX-999']);
  });

  it('finds customers by a word of their name, with where their vaults and pallets are', async () => {
    const east = await buildWarehouse(db(), {
      companyId: user.companyId,
      name: 'East Store',
      rows: 1,
      cols: 2,
    });
    const west = await buildWarehouse(db(), {
      companyId: user.companyId,
      name: 'West Store',
      rows: 1,
      cols: 1,
    });
    await buildVault(db(), {
      companyId: user.companyId,
      fieldId: east.field('A1').id,
      customerName: 'JOHN QUIXWORTH',
      orderName: 'QORD-7',
    });
    await buildStagedVault(db(), { companyId: user.companyId, customerName: 'JOHN QUIXWORTH' });
    const rack = await buildRack(db(), { companyId: user.companyId, warehouseId: west.id, name: 'Rack Q' });
    const pallet = await buildPallet(db(), {
      companyId: user.companyId,
      shelfId: rack.shelfIds[0]!,
      customer: 'JOHN QUIXWORTH',
      slotIndex: 0,
      name: 'QP-1',
    });

    const { body } = await find(user, 'quix');
    expect(only(body.hits, 'customer')).toEqual([
      expect.objectContaining({
        name: 'JOHN QUIXWORTH',
        vaults: 2,
        staged: 1,
        pallets: 1,
        warehouses: ['East Store', 'West Store'],
      }),
    ]);
    const order = only((await find(user, 'qord')).body.hits, 'order');
    expect(order).toEqual([
      expect.objectContaining({ name: 'QORD-7', vaults: 1, warehouses: ['East Store'] }),
    ]);

    const pallets = only((await find(user, 'qp-')).body.hits, 'pallet');
    expect(pallets).toEqual([
      expect.objectContaining({
        id: pallet,
        name: 'QP-1',
        customerName: 'JOHN QUIXWORTH',
        warehouse: expect.objectContaining({ id: west.id, name: 'West Store' }),
        rackId: rack.id,
        rackName: 'Rack Q',
        shelf: 1,
      }),
    ]);
  });

  it('finds a field name in every warehouse, exact names first, and pages with a limit', async () => {
    const a = await buildWarehouse(db(), {
      companyId: user.companyId,
      name: 'Field Hall A',
      rows: 1,
      cols: 3,
    });
    const b = await buildWarehouse(db(), {
      companyId: user.companyId,
      name: 'Field Hall B',
      rows: 1,
      cols: 3,
    });
    await buildVault(db(), { companyId: user.companyId, fieldId: a.field('C1').id });
    const fields = only((await find(user, 'c1')).body.hits, 'field').filter((f) =>
      [a.id, b.id].includes(f.warehouse.id),
    );
    expect(fields.map((f) => [f.warehouse.name, f.name, f.vaults])).toEqual([
      ['Field Hall A', 'C1', 1],
      ['Field Hall B', 'C1', 0],
    ]);

    for (let i = 0; i < 4; i++)
      await buildStagedVault(db(), { companyId: user.companyId, name: `PAGE-${i}` });
    const first = await find(user, 'page-', 3);
    expect(first.body.hits).toHaveLength(3);
    expect(first.body.more).toBe(true);
    const all = await find(user, 'page-', 10);
    expect(all.body.hits).toHaveLength(4);
    expect(all.body.more).toBe(false);
    // the exact number comes before those that only begin with it
    await buildStagedVault(db(), { companyId: user.companyId, customerName: 'PAGE-2 HOLDINGS' });
    expect((await find(user, 'page-2')).body.hits[0]).toMatchObject({ kind: 'vault', name: 'PAGE-2' });
  });

  it('takes search text literally and refuses what it cannot search', async () => {
    await buildStagedVault(db(), { companyId: user.companyId, name: 'LIT%_1' });
    await buildStagedVault(db(), { companyId: user.companyId, name: 'LITX1' });
    const literal = only((await find(user, 'lit%_')).body.hits, 'vault');
    expect(literal.map((v) => v.name)).toEqual(['LIT%_1']);
    expect(only((await find(user, "o'; drop")).body.hits, 'vault')).toEqual([]);

    for (const url of [
      '/api/search',
      '/api/search?q=%20%20',
      `/api/search?q=${'x'.repeat(101)}`,
      '/api/search?q=a&limit=0',
      '/api/search?q=a&limit=51',
      '/api/search?q=a&limit=two',
    ]) {
      const res = await user.request({ method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json<{ errors: string[] }>().errors.length, url).toBeGreaterThan(0);
    }
    const signedOut = await ctx.app.inject({ method: 'GET', url: '/api/search?q=a' });
    expect(signedOut.statusCode).toBe(401);
  });
});
