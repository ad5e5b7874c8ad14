import type { InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import type { VaultDto, WarehouseDto, WarehouseSummaryDto } from '@domain/schemas/warehouse.schema';
import { findInvariantViolations } from '../../test/invariants.repo';
import { signIn, testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';
import {
  type BuiltWarehouse,
  buildPallet,
  buildRack,
  buildStagedVault,
  buildVault,
  buildWarehouse,
} from '../../factories';

// Issue 11: the full reads carry an ETag that every write to what they show moves on; a client holding the current
// one gets a 304 without the answer, one holding an older one gets the new answer.
describe.each(testEngines())('ETag and 304 of the full reads on %s', (engine) => {
  const { ctx, user } = useTestApp(engine, { users: 1 });
  let north: BuiltWarehouse;
  let south: BuiltWarehouse;
  let shelfId: number;
  let rackId: number;
  let palletId: number;

  beforeAll(async () => {
    const db = ctx.database.db;
    const companyId = user.companyId;
    north = await buildWarehouse(db, { companyId, name: 'North', rows: 4, cols: 3 });
    south = await buildWarehouse(db, { companyId, name: 'South', rows: 2, cols: 2 });
    const rack = await buildRack(db, { companyId, warehouseId: north.id, x: 0, y: 0, shelves: 2 });
    rackId = rack.id;
    shelfId = rack.shelfIds[0]!;
    palletId = await buildPallet(db, { companyId, shelfId, customer: 'PALLET OWNER', slotIndex: 0 });
  });

  const warehouseUrl = () => `/api/warehouse/${north.id}`;
  const listUrl = () => `/api/warehouse/company/${user.companyId}`;
  const racksUrl = () => `/api/racks/warehouse/${north.id}`;
  const stageUrl = '/api/stage/vaults';

  /** A fresh read: 200 with a tag and the caching rule; sent back, the tag answers 304 with no body. */
  async function currentTag(url: string): Promise<string> {
    const first = await user.request({ method: 'GET', url });
    expect(first.statusCode).toBe(200);
    const tag = first.headers.etag;
    expect(typeof tag).toBe('string');
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const again = await user.request({ method: 'GET', url, headers: { 'if-none-match': String(tag) } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(tag);
    return String(tag);
  }

  async function write(options: InjectOptions) {
    const res = await user.request(options);
    expect(res.statusCode, `${options.method} ${options.url}: ${res.body}`).toBeLessThan(300);
    return res;
  }

  /** After the write, the old tag gets 200 with the same answer as a plain read, under a new tag. */
  async function expectChanged(url: string, oldTag: string) {
    const stale = await user.request({ method: 'GET', url, headers: { 'if-none-match': oldTag } });
    expect(stale.statusCode, `${url} after the write`).toBe(200);
    expect(stale.headers.etag).not.toBe(oldTag);
    const plain = await user.request({ method: 'GET', url });
    expect(stale.json()).toEqual(plain.json());
    expect(stale.headers.etag).toBe(plain.headers.etag);
  }

  async function expectUnchanged(url: string, tag: string) {
    const res = await user.request({ method: 'GET', url, headers: { 'if-none-match': tag } });
    expect(res.statusCode, `${url} after a write elsewhere`).toBe(304);
  }

  const addVault = (fieldId: number, position: number, name: string): InjectOptions => ({
    method: 'POST',
    url: '/api/vaults/',
    payload: { vault_id: name, customer_name: 'ACME', order_name: 'O-1', field_id: fieldId, position },
  });

  it('a vault added, edited, moved, staged and deleted each move the warehouse, list and stage tags on', async () => {
    let tag = await currentTag(warehouseUrl());
    let list = await currentTag(listUrl());
    const southTag = await currentTag(`/api/warehouse/${south.id}`);
    const added = (await write(addVault(north.field('A1').id, 3, 'N-1'))).json() as VaultDto;
    await expectChanged(warehouseUrl(), tag);
    await expectChanged(listUrl(), list);
    await expectUnchanged(`/api/warehouse/${south.id}`, southTag);

    tag = await currentTag(warehouseUrl());
    await write({
      method: 'PUT',
      url: `/api/vaults/${added.id}`,
      payload: { name: 'N-1b', customer_name: 'ACME', order_name: 'O-2' },
    });
    await expectChanged(warehouseUrl(), tag);

    tag = await currentTag(warehouseUrl());
    list = await currentTag(listUrl());
    const southBefore = await currentTag(`/api/warehouse/${south.id}`);
    await write({
      method: 'PUT',
      url: '/api/vaults/move',
      payload: { vaultId: added.id, fieldId: south.field('B2').id, position: 3 },
    });
    // both ends of a move between warehouses
    await expectChanged(warehouseUrl(), tag);
    await expectChanged(`/api/warehouse/${south.id}`, southBefore);
    await expectChanged(listUrl(), list);

    const stage = await currentTag(stageUrl);
    const southTag2 = await currentTag(`/api/warehouse/${south.id}`);
    await write({ method: 'POST', url: `/api/stage/vaults/${added.id}` });
    await expectChanged(stageUrl, stage);
    await expectChanged(`/api/warehouse/${south.id}`, southTag2);

    const stage2 = await currentTag(stageUrl);
    tag = await currentTag(warehouseUrl());
    await write({
      method: 'PUT',
      url: '/api/vaults/move',
      payload: { vaultId: added.id, fieldId: north.field('C4').id, position: 3 },
    });
    await expectChanged(stageUrl, stage2);
    await expectChanged(warehouseUrl(), tag);

    tag = await currentTag(warehouseUrl());
    list = await currentTag(listUrl());
    await write({ method: 'DELETE', url: `/api/vaults/${added.id}` });
    await expectChanged(warehouseUrl(), tag);
    await expectChanged(listUrl(), list);
    expect(await findInvariantViolations(ctx.database.db, user.companyId)).toEqual([]);
  });

  it('a staged vault edited or deleted moves the stage tag on', async () => {
    const staged = await buildStagedVault(ctx.database.db, {
      companyId: user.companyId,
      customerName: 'WAITING',
    });
    let stage = await currentTag(stageUrl);
    await write({
      method: 'PUT',
      url: `/api/vaults/${staged.id}`,
      payload: { customer_name: 'WAITING', order_name: 'O-3', note: 'x' },
    });
    await expectChanged(stageUrl, stage);
    stage = await currentTag(stageUrl);
    await write({ method: 'DELETE', url: `/api/vaults/${staged.id}` });
    await expectChanged(stageUrl, stage);
  });

  it('an attachment moves the warehouse tag on', async () => {
    const vault = await buildVault(ctx.database.db, {
      companyId: user.companyId,
      fieldId: north.field('B1').id,
      customerName: 'FILES',
    });
    const tag = await currentTag(warehouseUrl());
    await write({
      method: 'POST',
      url: '/api/vaults/upload',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      payload: [
        '--x',
        'Content-Disposition: form-data; name="vault_id"',
        '',
        String(vault.id),
        '--x',
        'Content-Disposition: form-data; name="attachment"; filename="a.txt"',
        'Content-Type: text/plain',
        '',
        'hello',
        '--x--',
        '',
      ].join('\r\n'),
    });
    await expectChanged(warehouseUrl(), tag);
  });

  it('field toggles and layout changes move the warehouse and list tags on', async () => {
    let tag = await currentTag(warehouseUrl());
    await write({
      method: 'PATCH',
      url: `/api/fields/${north.field('A2').id}/full`,
      payload: { full: true },
    });
    await expectChanged(warehouseUrl(), tag);

    tag = await currentTag(warehouseUrl());
    await write({
      method: 'PATCH',
      url: `/api/fields/${north.field('A3').id}`,
      payload: { type: 'couchbox', field2: 'A4', warehouseId: north.id },
    });
    await expectChanged(warehouseUrl(), tag);

    tag = await currentTag(warehouseUrl());
    let list = await currentTag(listUrl());
    await write({
      method: 'PATCH',
      url: `/api/warehouse/${north.id}/edit-dimensions`,
      payload: { field_capacity: 3, length: 80, width: 90 },
    });
    await expectChanged(warehouseUrl(), tag);
    await expectChanged(listUrl(), list);

    tag = await currentTag(warehouseUrl());
    await write({
      method: 'PUT',
      url: `/api/warehouse/${north.id}/field-grid`,
      payload: { fieldgridLocation: { x: 2, y: 3 } },
    });
    await expectChanged(warehouseUrl(), tag);

    tag = await currentTag(warehouseUrl());
    list = await currentTag(listUrl());
    await write({
      method: 'POST',
      url: '/api/fields/',
      payload: {
        warehouse_id: north.id,
        direction: 'right',
        opperation: 'plus',
        count: 1,
        warehouse_cols: 3,
        warehouse_rows: 4,
      },
    });
    await expectChanged(warehouseUrl(), tag);
    await expectChanged(listUrl(), list);
  });

  it('rack and pallet changes move the racks tag on', async () => {
    let tag = await currentTag(racksUrl());
    await write({
      method: 'POST',
      url: '/api/racks/pallets',
      payload: { shelf_id: shelfId, customer_name: 'NEW PALLET', shelf_spots: 1 },
    });
    await expectChanged(racksUrl(), tag);

    tag = await currentTag(racksUrl());
    await write({ method: 'DELETE', url: `/api/pallets/${palletId}/delete` });
    await expectChanged(racksUrl(), tag);

    tag = await currentTag(racksUrl());
    await write({
      method: 'PUT',
      url: `/api/racks/${north.id}/rack/${rackId}`,
      payload: { position: { x: 60, y: 60, width: 12, length: 4 } },
    });
    await expectChanged(racksUrl(), tag);

    tag = await currentTag(racksUrl());
    await write({
      method: 'POST',
      url: `/api/racks/warehouse/${north.id}/add`,
      payload: {
        name: 'Second rack',
        capacity: 2,
        num_shelves: 1,
        width: 4,
        length: 4,
        orientation: 'horizontal',
        position: { x: 40, y: 40 },
      },
    });
    await expectChanged(racksUrl(), tag);
  });

  it('a warehouse added or deleted moves the list tag on; a deleted one answers 404 to its old tag', async () => {
    let list = await currentTag(listUrl());
    const created = (
      await write({
        method: 'POST',
        url: '/api/warehouse/add-warehouse',
        payload: { name: 'West', rows: 2, cols: 2, field_capacity: 3, length: 50, width: 50 },
      })
    ).json() as WarehouseDto;
    await expectChanged(listUrl(), list);
    const tag = await currentTag(`/api/warehouse/${created.id}`);
    list = await currentTag(listUrl());
    await write({ method: 'DELETE', url: `/api/warehouse/${created.id}` });
    await expectChanged(listUrl(), list);
    const gone = await user.request({
      method: 'GET',
      url: `/api/warehouse/${created.id}`,
      headers: { 'if-none-match': tag },
    });
    expect(gone.statusCode).toBe(404);
  });

  it('revalidates a compressed answer too', async () => {
    const gzip = { 'accept-encoding': 'gzip' };
    const first = await user.request({ method: 'GET', url: warehouseUrl(), headers: gzip });
    expect(first.headers['content-encoding']).toBe('gzip');
    const tag = String(first.headers.etag);
    const again = await user.request({
      method: 'GET',
      url: warehouseUrl(),
      headers: { ...gzip, 'if-none-match': tag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.headers['cache-control']).toBe('private, no-cache');
  });

  it("another company's tag gets no 304: its warehouse is not found", async () => {
    const tag = await currentTag(warehouseUrl());
    const stranger = await signIn(ctx);
    const res = await stranger.request({
      method: 'GET',
      url: warehouseUrl(),
      headers: { 'if-none-match': tag },
    });
    expect(res.statusCode).toBe(404);
    const theirStage = await stranger.request({
      method: 'GET',
      url: stageUrl,
      headers: { 'if-none-match': await currentTag(stageUrl) },
    });
    expect(theirStage.statusCode).toBe(200);
  });

  it('the kept counts equal a recount, and a count that drifted is reported', async () => {
    const list = (await user.request({ method: 'GET', url: listUrl() })).json() as WarehouseSummaryDto[];
    const northCounts = list.find((w) => w.id === north.id)!.stats;
    const full = (await user.request({ method: 'GET', url: warehouseUrl() })).json() as WarehouseDto;
    // the detail counts its vaults itself; the list reads the kept counts
    expect(northCounts).toEqual(full.stats);
    expect(await findInvariantViolations(ctx.database.db, user.companyId)).toEqual([]);

    await ctx.database.db
      .updateTable('warehouse_stats')
      .set((eb) => ({ real_count: eb('real_count', '+', 1) }))
      .where('warehouse_id', '=', south.id)
      .execute();
    const problems = await findInvariantViolations(ctx.database.db, user.companyId);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(`warehouse ${south.id} keeps counts`);
    await ctx.database.db
      .updateTable('warehouse_stats')
      .set((eb) => ({ real_count: eb('real_count', '-', 1) }))
      .where('warehouse_id', '=', south.id)
      .execute();
  });
});
