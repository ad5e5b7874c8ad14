import { beforeAll, describe, expect, it } from 'vitest';
import type { ActivityItemDto, ActivityPageDto } from '@domain/schemas/activity.schema';
import { buildAccount, buildRack, buildWarehouse } from '../../factories';
import { apiRoutes } from '../../test/route-table';
import { type SignedIn, signIn, testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';

describe.each(testEngines())('history of every change on %s', (engine) => {
  const { ctx, user: boss } = useTestApp(engine, { users: 1 });
  let floor: SignedIn;
  let warehouse: Awaited<ReturnType<typeof buildWarehouse>>;
  let vaultId: number;

  const activity = async (query = '') => {
    const res = await boss.request({ method: 'GET', url: `/api/activity${query}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as ActivityPageDto;
  };
  const timeline = async (id: number) => {
    const res = await boss.request({ method: 'GET', url: `/api/vaults/${id}/history` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as ActivityItemDto[];
  };

  beforeAll(async () => {
    floor = await signIn(
      ctx,
      await buildAccount(ctx.database.db, { company: boss.companyName, role: 'floor' }),
    );
    warehouse = await buildWarehouse(ctx.database.db, {
      companyId: boss.companyId,
      name: 'History Depot',
      rows: 3,
      cols: 2,
    });
    // the Floor member adds, moves, edits, stages and deletes one vault
    const added = await floor.request({
      method: 'POST',
      url: '/api/vaults/',
      payload: {
        vault_id: 'H-100',
        customer_name: 'Hannah Hill',
        order_name: 'ORD-1',
        field_id: warehouse.field('A1').id,
        position: 3,
      },
    });
    expect(added.statusCode, added.body).toBe(201);
    vaultId = (added.json() as { id: number }).id;
    const moved = await floor.request({
      method: 'PUT',
      url: '/api/vaults/move',
      payload: { vaultId, fieldId: warehouse.field('B2').id, position: 3 },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const edited = await floor.request({
      method: 'PUT',
      url: `/api/vaults/${vaultId}`,
      payload: { name: 'H-100', customer_name: 'Hannah Hill', order_name: 'ORD-2', note: 'fragile' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await floor.request({ method: 'POST', url: `/api/stage/vaults/${vaultId}` })).statusCode).toBe(
      200,
    );
    expect((await floor.request({ method: 'DELETE', url: `/api/vaults/${vaultId}` })).statusCode).toBe(200);
  });

  it("keeps the vault's timeline with who, and each place before and after, after the vault is deleted", async () => {
    const events = await timeline(vaultId);
    expect(events.map((e) => e.kind)).toEqual([
      'vault.deleted',
      'vault.staged',
      'vault.edited',
      'vault.moved',
      'vault.added',
    ]);
    expect(events.every((e) => e.actor === floor.email.split('@')[0] && e.subject === 'H-100')).toBe(true);
    expect(events.every((e) => e.customer === 'HANNAH HILL')).toBe(true);
    const [deleted, staged, edited, moved, added] = events as [
      ActivityItemDto,
      ActivityItemDto,
      ActivityItemDto,
      ActivityItemDto,
      ActivityItemDto,
    ];
    const at = (field: string) => ({
      warehouseId: warehouse.id,
      warehouse: 'History Depot',
      field,
      position: 3,
    });
    expect(added.details).toMatchObject({ before: null, after: at('A1') });
    expect(moved.details).toMatchObject({ before: at('A1'), after: at('B2') });
    expect(edited.details).toMatchObject({
      place: at('B2'),
      changes: {
        order_name: { label: 'Order', before: 'ORD-1', after: 'ORD-2' },
        note: { label: 'Note', before: null, after: 'fragile' },
      },
    });
    expect(Object.keys((edited.details as { changes: object }).changes)).toEqual(['order_name', 'note']);
    expect(staged.details).toMatchObject({ before: at('B2'), after: null });
    expect(deleted.details).toMatchObject({
      before: null,
      after: null,
      vault: { order: 'ORD-2', note: 'fragile' },
    });
    expect(moved.warehouse).toBe('History Depot');
  });

  it('finds a deleted vault by its number or customer, and filters by warehouse, member, kind and date', async () => {
    const byNumber = await activity('?q=H-100');
    expect(byNumber.items).toHaveLength(5);
    expect((await activity('?q=hannah%20hill')).items).toHaveLength(5);
    expect((await activity(`?q=H-100&kind=vault.moved`)).items.map((e) => e.kind)).toEqual(['vault.moved']);
    const mine = await activity(`?member=${floor.userId}&kind=vault`);
    expect(mine.items.length).toBe(5);
    expect(mine.members.map((m) => m.id).sort()).toEqual([boss.userId, floor.userId].sort());
    expect((await activity(`?member=${boss.userId}&kind=vault`)).items).toEqual([]);
    expect((await activity(`?warehouse=${warehouse.id}&q=H-100`)).items.length).toBe(4);
    const today = new Date().toISOString().slice(0, 10);
    expect((await activity(`?q=H-100&from=${today}&to=${today}`)).items).toHaveLength(5);
    expect((await activity('?q=H-100&to=2000-01-01')).items).toEqual([]);
    const bad = await boss.request({ method: 'GET', url: '/api/activity?from=yesterday' });
    expect(bad.statusCode).toBe(400);
  });

  it('pages with a cursor, newest first, with nothing missed or repeated', async () => {
    for (let i = 0; i < 60; i += 1) {
      const res = await boss.request({
        method: 'PATCH',
        url: `/api/fields/${warehouse.field('A2').id}/full`,
        payload: { full: i % 2 === 0 },
      });
      expect(res.statusCode).toBe(200);
    }
    const seen: number[] = [];
    let cursor: number | null = null;
    do {
      const page: ActivityPageDto = await activity(`?kind=field${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.items.length).toBeLessThanOrEqual(50);
      seen.push(...page.items.map((e) => e.id));
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(seen.length).toBeGreaterThanOrEqual(60);
    expect(seen).toEqual([...seen].sort((a, b) => b - a));
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('exports the filtered history as CSV with both positions of a move', async () => {
    const res = await boss.request({ method: 'GET', url: '/api/activity/export?q=H-100&kind=vault.moved' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    const lines = res.body.trim().split('\r\n');
    expect(lines[0]).toBe('When,What,Who,Warehouse,Number,Customer,Before,After,Changed');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('vault.moved');
    expect(lines[1]).toContain('History Depot A1 slot 3,History Depot B2 slot 3');
  });

  it('records pallets with their changes, and layout changes with the warehouse, names kept after deletes', async () => {
    const rack = await buildRack(ctx.database.db, {
      companyId: boss.companyId,
      warehouseId: warehouse.id,
      name: 'R1',
      shelves: 1,
      capacity: 3,
    });
    const added = await floor.request({
      method: 'POST',
      url: '/api/racks/pallets',
      payload: {
        shelf_id: rack.shelfIds[0],
        customer_name: 'PAL CUSTOMER',
        shelf_spots: 1,
        pallet_number: 'P-7',
      },
    });
    expect(added.statusCode, added.body).toBe(201);
    const palletId = (added.json() as { id: number }).id;
    const edit = await floor.request({
      method: 'PUT',
      url: `/api/racks/pallets/${palletId}/edit`,
      payload: { customer_name: 'PAL CUSTOMER', pallet_spaces: 2, pallet_number: 'P-7', notes: 'top' },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const pallets = await activity('?q=P-7');
    expect(pallets.items.map((e) => e.kind)).toEqual(['pallet.edited', 'pallet.added']);
    expect(pallets.items[0]!.details).toMatchObject({
      changes: { notes: { before: null, after: 'top' }, shelf_spots: { before: 1, after: 2 } },
    });
    expect(pallets.items[1]!.details).toMatchObject({ after: { shelfId: rack.shelfIds[0], slot: 1 } });

    const dims = await boss.request({
      method: 'PATCH',
      url: `/api/warehouse/${warehouse.id}/edit-dimensions`,
      payload: { field_capacity: 4, length: 120, width: 80 },
    });
    expect(dims.statusCode, dims.body).toBe(200);
    expect((await boss.request({ method: 'DELETE', url: `/api/warehouse/${warehouse.id}` })).statusCode).toBe(
      200,
    );
    const layout = await activity('?kind=warehouse');
    expect(layout.items.map((e) => [e.kind, e.warehouse])).toEqual(
      expect.arrayContaining([
        ['warehouse.deleted', 'History Depot'],
        ['warehouse.dimensions-edited', 'History Depot'],
      ]),
    );
    // the deleted warehouse's vault history still reads with its name
    expect((await timeline(vaultId)).find((e) => e.kind === 'vault.moved')!.warehouse).toBe('History Depot');
  });

  it('offers no way to change history: every history route is a read', () => {
    const history = apiRoutes(ctx.app).filter((r) => /activity|history|events/.test(r.url));
    expect(history.length).toBeGreaterThanOrEqual(3);
    expect(history.filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it("shows another company nothing of this company's history", async () => {
    const other = await signIn(ctx);
    const res = await other.request({ method: 'GET', url: '/api/activity?q=H-100' });
    expect((res.json() as ActivityPageDto).items).toEqual([]);
    expect((await other.request({ method: 'GET', url: `/api/vaults/${vaultId}/history` })).statusCode).toBe(
      404,
    );
  });
});
