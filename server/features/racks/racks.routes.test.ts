import { beforeAll, describe, expect, it } from 'vitest';
import {
  SHELF_NOT_FOUND,
  shelfSpaceMessage,
  type PalletDto,
  type RackDto,
} from '@domain/schemas/rack.schema';
import { type SignedIn, testEngines } from '../../test/test-app';
import { type CompanyTable, countRows as countCompanyRows } from '../../test/row-count.repo';
import { useTestApp } from '../../test/use-test-app';
import { buildPallet, buildRack, buildWarehouse } from '../../factories';

describe.each(testEngines())('racks and pallets routes on %s', (engine) => {
  const { ctx, user, other } = useTestApp(engine);
  let warehouseId: number;
  let otherWarehouseId: number;
  let counter = 0;

  // the 2 x 2 VAULTS block (10 x 10 ft) stands in the far corner, out of the racks' way
  async function newWarehouse(companyId: number, size = { width: 100, length: 50 }) {
    counter += 1;
    const warehouse = await buildWarehouse(ctx.database.db, {
      companyId,
      name: `Racks ${counter}`,
      rows: 2,
      cols: 2,
      gridX: size.width - 10,
      gridY: size.length - 10,
      ...size,
    });
    return warehouse.id;
  }

  const countRows = (table: CompanyTable, companyId: number) =>
    countCompanyRows(ctx.database.db, table, companyId);

  beforeAll(async () => {
    warehouseId = await newWarehouse(user.companyId);
    otherWarehouseId = await newWarehouse(other.companyId);
  });

  const addRack = (body: Record<string, unknown>, id = warehouseId, as: SignedIn = user) =>
    as.request({ method: 'POST', url: `/api/racks/warehouse/${id}/add`, payload: body });

  describe('POST /api/racks/warehouse/{id}/add', () => {
    it('creates the rack with its shelves, each with capacity slots', async () => {
      const res = await addRack({
        name: 'North',
        capacity: 5,
        num_shelves: 3,
        width: 12,
        length: 4,
        orientation: 'vertical',
        position: { x: 60, y: 2 },
      });
      expect(res.statusCode).toBe(201);
      const rack = res.json() as RackDto;
      expect(rack).toMatchObject({
        name: 'North',
        orientation: 'vertical',
        width: 12,
        length: 4,
        capacity: 5,
        num_shelves: 3,
        position: { x: 60, y: 2, width: 4, length: 12 },
        version: 1,
      });
      expect(rack.shelves.map((s) => [s.position, s.capacity, s.pallets.length])).toEqual([
        [1, 5, 0],
        [2, 5, 0],
        [3, 5, 0],
      ]);
      const events = await ctx.database.db
        .selectFrom('events')
        .select('kind')
        .where('entity_id', '=', rack.id)
        .where('entity_type', '=', 'rack')
        .execute();
      expect(events.map((e) => e.kind)).toContain('rack.added');
    });

    it('names a rack without a name Unnamed Rack and gives blank sizes 1 ft', async () => {
      const res = await addRack({
        name: '  ',
        capacity: '2',
        num_shelves: '1',
        width: '',
        length: '',
        orientation: 'horizontal',
        position: { x: 0, y: 40 },
      });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({
        name: 'Unnamed Rack',
        width: 1,
        length: 1,
        capacity: 2,
        num_shelves: 1,
      });
    });

    it('refuses shelves or capacity below 1 and changes nothing', async () => {
      const before = await countRows('racks', user.companyId);
      const noShelves = await addRack({
        name: 'X',
        capacity: 2,
        num_shelves: 0,
        width: 4,
        length: 4,
        position: { x: 90, y: 40 },
      });
      expect(noShelves.statusCode).toBe(400);
      expect(noShelves.json().errors.join(' ')).toContain('Shelves must be at least 1.');
      const noCapacity = await addRack({
        name: 'X',
        capacity: 0,
        num_shelves: 2,
        width: 4,
        length: 4,
        position: { x: 90, y: 40 },
      });
      expect(noCapacity.statusCode).toBe(400);
      expect(noCapacity.json().errors.join(' ')).toContain('Capacity must be at least 1.');
      const badOrientation = await addRack({ capacity: 1, orientation: 'diagonal' });
      expect(badOrientation.statusCode).toBe(400);
      expect(await countRows('racks', user.companyId)).toBe(before);
    });

    it('refuses a rack outside the walls or on top of another rack', async () => {
      const wid = await newWarehouse(user.companyId);
      await buildRack(ctx.database.db, {
        companyId: user.companyId,
        warehouseId: wid,
        name: 'Base',
        x: 10,
        y: 10,
      });
      const outside = await addRack(
        { name: 'Out', capacity: 1, width: 12, length: 4, position: { x: 95, y: 0 } },
        wid,
      );
      expect(outside.statusCode).toBe(400);
      expect(outside.json().errors[0]).toBe(
        'Invalid rack position: the rack must stay inside the warehouse walls.',
      );
      const overlap = await addRack(
        { name: 'Over', capacity: 1, width: 12, length: 4, position: { x: 15, y: 11 } },
        wid,
      );
      expect(overlap.statusCode).toBe(400);
      expect(overlap.json().errors[0]).toBe('Invalid rack position: it overlaps Rack Base.');
      // touching, or overlapping by less than half a foot, is fine
      const touching = await addRack(
        { name: 'Next', capacity: 1, width: 12, length: 4, position: { x: 21.7, y: 10 } },
        wid,
      );
      expect(touching.statusCode).toBe(201);
      const racks = await user.request({ method: 'GET', url: `/api/racks/warehouse/${wid}` });
      expect((racks.json() as RackDto[]).map((r) => r.name)).toEqual(['Base', 'Next']);
    });

    it("answers 401 signed out and 404 for another company's warehouse", async () => {
      const signedOut = await ctx.app.inject({
        method: 'POST',
        url: `/api/racks/warehouse/${warehouseId}/add`,
        payload: { capacity: 1 },
      });
      expect(signedOut.statusCode).toBe(401);
      const foreign = await addRack(
        { name: 'Sneaky', capacity: 1, position: { x: 0, y: 0 } },
        otherWarehouseId,
      );
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toEqual({ errors: ['Warehouse not found'] });
      expect(await countRows('racks', other.companyId)).toBe(0);
      expect((await addRack({ capacity: 1 }, 999999)).statusCode).toBe(404);
      expect(
        (await user.request({ method: 'POST', url: '/api/racks/warehouse/abc/add', payload: {} })).statusCode,
      ).toBe(404);
    });
  });

  describe('GET /api/racks/warehouse/{id}', () => {
    it('lists racks with shelves top first and pallets by slot', async () => {
      const wid = await newWarehouse(user.companyId);
      const rack = await buildRack(ctx.database.db, {
        companyId: user.companyId,
        warehouseId: wid,
        name: 'R1',
        shelves: 2,
        capacity: 4,
      });
      await buildPallet(ctx.database.db, {
        companyId: user.companyId,
        shelfId: rack.shelfIds[0]!,
        customer: 'knox',
        slotIndex: 2,
        spots: 2,
        name: 'sofa',
        palletNumber: 'P-7',
      });
      await buildPallet(ctx.database.db, {
        companyId: user.companyId,
        shelfId: rack.shelfIds[0]!,
        customer: 'zang',
        slotIndex: 0,
      });
      const res = await user.request({ method: 'GET', url: `/api/racks/warehouse/${wid}` });
      expect(res.statusCode).toBe(200);
      const [dto] = res.json() as RackDto[];
      expect(dto!.shelves.map((s) => s.position)).toEqual([1, 2]);
      expect(
        dto!.shelves[0]!.pallets.map((p) => [p.customerName, p.slotIndex, p.shelfSpots, p.palletSpaces]),
      ).toEqual([
        ['ZANG', 0, 1, 1],
        ['KNOX', 2, 2, 2],
      ]);
      expect(dto!.shelves[0]!.pallets[1]).toMatchObject({
        name: 'SOFA',
        palletNumber: 'P-7',
        weight: 0,
        version: 1,
      });
      expect(dto!.shelves[1]!.pallets).toEqual([]);
    });

    it("answers 401 signed out and 404 for another company's warehouse", async () => {
      expect(
        (await ctx.app.inject({ method: 'GET', url: `/api/racks/warehouse/${warehouseId}` })).statusCode,
      ).toBe(401);
      await buildRack(ctx.database.db, {
        companyId: other.companyId,
        warehouseId: otherWarehouseId,
        name: 'Theirs',
      });
      const foreign = await user.request({ method: 'GET', url: `/api/racks/warehouse/${otherWarehouseId}` });
      expect(foreign.statusCode).toBe(404);
      expect(foreign.body).not.toContain('Theirs');
    });
  });

  describe('PUT /api/racks/{warehouseId}/rack/{rackId}', () => {
    it('moves and turns a rack, bumping its version', async () => {
      const wid = await newWarehouse(user.companyId);
      const rack = await buildRack(ctx.database.db, {
        companyId: user.companyId,
        warehouseId: wid,
        x: 0,
        y: 0,
      });
      const res = await user.request({
        method: 'PUT',
        url: `/api/racks/${wid}/rack/${rack.id}`,
        payload: { position: { x: 30, y: 20, width: 12, length: 4 }, orientation: 'vertical', version: 1 },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        id: rack.id,
        orientation: 'vertical',
        position: { x: 30, y: 20, width: 4, length: 12 },
        version: 2,
      });
      const events = await ctx.database.db
        .selectFrom('events')
        .select('kind')
        .where('entity_id', '=', rack.id)
        .where('kind', '=', 'rack.moved')
        .execute();
      expect(events).toHaveLength(1);
    });

    it('refuses an overlap or a spot past the walls and leaves the rack where it was', async () => {
      const wid = await newWarehouse(user.companyId);
      await buildRack(ctx.database.db, {
        companyId: user.companyId,
        warehouseId: wid,
        name: 'Fixed',
        x: 20,
        y: 20,
      });
      const mover = await buildRack(ctx.database.db, {
        companyId: user.companyId,
        warehouseId: wid,
        name: 'Mover',
        x: 0,
        y: 0,
      });
      const overlap = await user.request({
        method: 'PUT',
        url: `/api/racks/${wid}/rack/${mover.id}`,
        payload: { position: { x: 25, y: 21 } },
      });
      expect(overlap.statusCode).toBe(400);
      expect(overlap.json().errors[0]).toBe('Invalid rack position: it overlaps Rack Fixed.');
      // turned upright it would reach past the back wall (y 45 + 12 > 50)
      const turned = await user.request({
        method: 'PUT',
        url: `/api/racks/${wid}/rack/${mover.id}`,
        payload: { position: { x: 0, y: 45 }, orientation: 'vertical' },
      });
      expect(turned.statusCode).toBe(400);
      expect(turned.json().errors[0]).toContain('Invalid rack position');
      const row = await ctx.database.db
        .selectFrom('racks')
        .select(['x', 'y', 'orientation', 'version'])
        .where('id', '=', mover.id)
        .executeTakeFirstOrThrow();
      expect({ ...row, x: Number(row.x), y: Number(row.y) }).toEqual({
        x: 0,
        y: 0,
        orientation: 'horizontal',
        version: 1,
      });
      // moving onto its own old spot is not a collision with itself
      const self = await user.request({
        method: 'PUT',
        url: `/api/racks/${wid}/rack/${mover.id}`,
        payload: { position: { x: 0.2, y: 0 } },
      });
      expect(self.statusCode).toBe(200);
    });

    it('answers 409 for a stale version', async () => {
      const wid = await newWarehouse(user.companyId);
      const rack = await buildRack(ctx.database.db, { companyId: user.companyId, warehouseId: wid });
      const first = await user.request({
        method: 'PUT',
        url: `/api/racks/${wid}/rack/${rack.id}`,
        payload: { position: { x: 5, y: 5 }, version: 1 },
      });
      expect(first.statusCode).toBe(200);
      const stale = await user.request({
        method: 'PUT',
        url: `/api/racks/${wid}/rack/${rack.id}`,
        payload: { position: { x: 9, y: 9 }, version: 1 },
      });
      expect(stale.statusCode).toBe(409);
      expect(stale.json()).toEqual({ errors: ['This rack was changed by someone else'] });
    });

    it("answers 400 without a position, 401 signed out and 404 for another company's rack", async () => {
      const rack = await buildRack(ctx.database.db, { companyId: user.companyId, warehouseId, x: 80, y: 30 });
      const missing = await user.request({
        method: 'PUT',
        url: `/api/racks/${warehouseId}/rack/${rack.id}`,
        payload: {},
      });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().errors.join(' ')).toContain('Position is required.');
      const signedOut = await ctx.app.inject({
        method: 'PUT',
        url: `/api/racks/${warehouseId}/rack/${rack.id}`,
        payload: { position: { x: 1, y: 1 } },
      });
      expect(signedOut.statusCode).toBe(401);
      const theirs = await buildRack(ctx.database.db, {
        companyId: other.companyId,
        warehouseId: otherWarehouseId,
        x: 30,
        y: 30,
      });
      const foreign = await user.request({
        method: 'PUT',
        url: `/api/racks/${otherWarehouseId}/rack/${theirs.id}`,
        payload: { position: { x: 1, y: 1 } },
      });
      expect(foreign.statusCode).toBe(404);
      // a foreign rack id under one's own warehouse is just as unknown
      const mixed = await user.request({
        method: 'PUT',
        url: `/api/racks/${warehouseId}/rack/${theirs.id}`,
        payload: { position: { x: 1, y: 1 } },
      });
      expect(mixed.statusCode).toBe(404);
      expect(mixed.json()).toEqual({ errors: ['Rack not found'] });
    });
  });

  describe('the VAULTS field block', () => {
    it('refuses a rack added or moved onto the block like an overlap, and changes nothing', async () => {
      const wid = await newWarehouse(user.companyId);
      const before = await countRows('racks', user.companyId);
      const added = await addRack({ name: 'On block', width: 6, length: 4, position: { x: 88, y: 42 } }, wid);
      expect(added.statusCode).toBe(400);
      expect(added.json()).toEqual({
        errors: ['Invalid rack position: it overlaps the VAULTS field block.'],
      });
      expect(await countRows('racks', user.companyId)).toBe(before);
      const rack = await buildRack(ctx.database.db, {
        companyId: user.companyId,
        warehouseId: wid,
        x: 0,
        y: 0,
      });
      const moved = await user.request({
        method: 'PUT',
        url: `/api/racks/${wid}/rack/${rack.id}`,
        payload: { position: { x: 85, y: 38 } },
      });
      expect(moved.statusCode).toBe(400);
      expect(moved.json().errors[0]).toBe('Invalid rack position: it overlaps the VAULTS field block.');
      // right beside the block is fine
      const beside = await user.request({
        method: 'PUT',
        url: `/api/racks/${wid}/rack/${rack.id}`,
        payload: { position: { x: 78, y: 46 } },
      });
      expect(beside.statusCode).toBe(200);
    });
  });

  describe('PATCH /api/racks/{warehouseId}/rack/{rackId}', () => {
    const patch = (wid: number, rackId: number, body: Record<string, unknown>, as: SignedIn = user) =>
      as.request({ method: 'PATCH', url: `/api/racks/${wid}/rack/${rackId}`, payload: body });

    it('renames, resizes, turns and changes shelf count and capacity, recording an event', async () => {
      const wid = await newWarehouse(user.companyId);
      const created = (
        await addRack(
          { name: 'Old', capacity: 2, num_shelves: 2, width: 10, length: 4, position: { x: 5, y: 5 } },
          wid,
        )
      ).json() as RackDto;
      const res = await patch(wid, created.id, {
        name: ' Renamed ',
        width: 14,
        length: 3,
        orientation: 'vertical',
        num_shelves: 3,
        capacity: 5,
        version: created.version,
      });
      expect(res.statusCode).toBe(200);
      const rack = res.json() as RackDto;
      expect(rack).toMatchObject({
        name: 'Renamed',
        width: 14,
        length: 3,
        orientation: 'vertical',
        capacity: 5,
        num_shelves: 3,
        position: { x: 5, y: 5, width: 3, length: 14 },
        version: created.version + 1,
      });
      expect(rack.shelves.map((s) => [s.position, s.capacity])).toEqual([
        [1, 5],
        [2, 5],
        [3, 5],
      ]);
      const fewer = await patch(wid, created.id, { num_shelves: 1 });
      expect(fewer.statusCode).toBe(200);
      expect((fewer.json() as RackDto).shelves.map((s) => s.position)).toEqual([1]);
      const events = await ctx.database.db
        .selectFrom('events')
        .select('kind')
        .where('entity_id', '=', created.id)
        .where('kind', '=', 'rack.edited')
        .execute();
      expect(events).toHaveLength(2);
    });

    it('refuses a size that overlaps, leaves the walls or covers the VAULTS block, and changes nothing', async () => {
      const wid = await newWarehouse(user.companyId);
      await buildRack(ctx.database.db, {
        companyId: user.companyId,
        warehouseId: wid,
        name: 'Fixed',
        x: 20,
        y: 0,
      });
      const rack = await buildRack(ctx.database.db, {
        companyId: user.companyId,
        warehouseId: wid,
        name: 'Grower',
        x: 0,
        y: 0,
      });
      const wide = await patch(wid, rack.id, { width: 30 });
      expect(wide.statusCode).toBe(400);
      expect(wide.json().errors[0]).toBe('Invalid rack position: it overlaps Rack Fixed.');
      const long = await patch(wid, rack.id, { orientation: 'vertical', width: 60 });
      expect(long.statusCode).toBe(400);
      expect(long.json().errors[0]).toContain('Invalid rack position');
      const nearBlock = await buildRack(ctx.database.db, {
        companyId: user.companyId,
        warehouseId: wid,
        name: 'Near',
        x: 80,
        y: 45,
      });
      const onBlock = await patch(wid, nearBlock.id, { width: 12, length: 4 });
      expect(onBlock.statusCode).toBe(400);
      expect(onBlock.json().errors[0]).toBe('Invalid rack position: it overlaps the VAULTS field block.');
      const blank = await patch(wid, rack.id, { name: 'x', width: 0 });
      expect(blank.statusCode).toBe(400);
      expect(blank.json().errors.join(' ')).toContain('Width must be more than 0.');
      const row = await ctx.database.db
        .selectFrom('racks')
        .select(['name', 'width', 'orientation', 'version'])
        .where('id', '=', rack.id)
        .executeTakeFirstOrThrow();
      expect({ ...row, width: Number(row.width) }).toMatchObject({
        name: 'Grower',
        orientation: 'horizontal',
        version: 1,
      });
    });

    it('refuses fewer shelves or less capacity than the pallets need, naming the shelf', async () => {
      const wid = await newWarehouse(user.companyId);
      const rack = (
        await addRack(
          { name: 'Full', capacity: 4, num_shelves: 2, width: 10, length: 4, position: { x: 5, y: 5 } },
          wid,
        )
      ).json() as RackDto;
      const [top, bottom] = rack.shelves;
      await buildPallet(ctx.database.db, {
        companyId: user.companyId,
        shelfId: bottom!.id,
        customer: 'LOW',
        slotIndex: 0,
      });
      await buildPallet(ctx.database.db, {
        companyId: user.companyId,
        shelfId: top!.id,
        customer: 'FAR',
        slotIndex: 2,
        spots: 2,
      });
      const fewer = await patch(wid, rack.id, { num_shelves: 1 });
      expect(fewer.statusCode).toBe(400);
      expect(fewer.json()).toEqual({
        errors: ['Shelf 2 holds 1 pallet. Move or delete it before removing the shelf.'],
      });
      const smaller = await patch(wid, rack.id, { capacity: 3 });
      expect(smaller.statusCode).toBe(400);
      expect(smaller.json()).toEqual({
        errors: [
          'Shelf 1 holds pallets up to space 4. Move or delete them, or keep the capacity at 4 or more.',
        ],
      });
      const after = (
        await user.request({ method: 'GET', url: `/api/racks/warehouse/${wid}` })
      ).json() as RackDto[];
      const same = after.find((r) => r.id === rack.id)!;
      expect(same.shelves.map((s) => [s.capacity, s.pallets.length])).toEqual([
        [4, 1],
        [4, 1],
      ]);
      expect(same.version).toBe(rack.version);
    });

    it("answers 409 for a stale version, 401 signed out and 404 for another company's rack", async () => {
      const wid = await newWarehouse(user.companyId);
      const rack = await buildRack(ctx.database.db, {
        companyId: user.companyId,
        warehouseId: wid,
        name: 'Mine',
      });
      expect((await patch(wid, rack.id, { name: 'A', version: 1 })).statusCode).toBe(200);
      const stale = await patch(wid, rack.id, { name: 'B', version: 1 });
      expect(stale.statusCode).toBe(409);
      expect(stale.json()).toEqual({ errors: ['This rack was changed by someone else'] });
      const anonymous = await ctx.app.inject({
        method: 'PATCH',
        url: `/api/racks/${wid}/rack/${rack.id}`,
        payload: { name: 'C' },
      });
      expect(anonymous.statusCode).toBe(401);
      const foreign = await patch(wid, rack.id, { name: 'Taken' }, other);
      expect(foreign.statusCode).toBe(404);
      const row = await ctx.database.db
        .selectFrom('racks')
        .select('name')
        .where('id', '=', rack.id)
        .executeTakeFirstOrThrow();
      expect(row.name).toBe('A');
    });
  });

  describe('DELETE /api/racks/{warehouseId}/rack/{rackId}/delete', () => {
    it('deletes the rack with its shelves and pallets', async () => {
      const wid = await newWarehouse(user.companyId);
      const rack = await buildRack(ctx.database.db, {
        companyId: user.companyId,
        warehouseId: wid,
        shelves: 2,
      });
      await buildPallet(ctx.database.db, {
        companyId: user.companyId,
        shelfId: rack.shelfIds[1]!,
        customer: 'ONLY HERE',
        slotIndex: 0,
      });
      const res = await user.request({ method: 'DELETE', url: `/api/racks/${wid}/rack/${rack.id}/delete` });
      expect(res.statusCode).toBe(200);
      expect(
        await ctx.database.db.selectFrom('shelves').select('id').where('rack_id', '=', rack.id).execute(),
      ).toEqual([]);
      expect(
        await ctx.database.db
          .selectFrom('pallets')
          .select('id')
          .where('shelf_id', 'in', rack.shelfIds)
          .execute(),
      ).toEqual([]);
      const customer = await ctx.database.db
        .selectFrom('customers')
        .select('id')
        .where('company_id', '=', user.companyId)
        .where('name', '=', 'ONLY HERE')
        .execute();
      expect(customer).toEqual([]);
      expect(
        (await user.request({ method: 'DELETE', url: `/api/racks/${wid}/rack/${rack.id}/delete` }))
          .statusCode,
      ).toBe(404);
    });

    it("answers 401 signed out and 404 for another company's rack, which stays", async () => {
      const theirs = await buildRack(ctx.database.db, {
        companyId: other.companyId,
        warehouseId: otherWarehouseId,
        x: 50,
        y: 10,
      });
      expect(
        (
          await ctx.app.inject({
            method: 'DELETE',
            url: `/api/racks/${otherWarehouseId}/rack/${theirs.id}/delete`,
          })
        ).statusCode,
      ).toBe(401);
      expect(
        (
          await user.request({
            method: 'DELETE',
            url: `/api/racks/${otherWarehouseId}/rack/${theirs.id}/delete`,
          })
        ).statusCode,
      ).toBe(404);
      expect(
        (await user.request({ method: 'DELETE', url: `/api/racks/${warehouseId}/rack/${theirs.id}/delete` }))
          .statusCode,
      ).toBe(404);
      expect(
        await ctx.database.db.selectFrom('racks').select('id').where('id', '=', theirs.id).execute(),
      ).toHaveLength(1);
    });
  });

  describe('pallets', () => {
    let shelfId: number;
    let rackWarehouse: number;
    beforeAll(async () => {
      rackWarehouse = await newWarehouse(user.companyId);
      const rack = await buildRack(ctx.database.db, {
        companyId: user.companyId,
        warehouseId: rackWarehouse,
        capacity: 4,
        shelves: 1,
      });
      shelfId = rack.shelfIds[0]!;
    });

    const addPallet = (body: Record<string, unknown>, as: SignedIn = user) =>
      as.request({ method: 'POST', url: '/api/racks/pallets', payload: body });

    it('adds a pallet: upper-cased names, a company customer, weight 0 by default', async () => {
      const res = await addPallet({
        name: 'piano',
        shelf_id: shelfId,
        customer_name: 'smith',
        pallet_number: '17',
        notes: 'fragile',
        weight: '',
        shelf_spots: 2,
        slot_index: 0,
      });
      expect(res.statusCode).toBe(201);
      const pallet = res.json() as PalletDto;
      expect(pallet).toMatchObject({
        name: 'PIANO',
        customerName: 'SMITH',
        palletNumber: '17',
        notes: 'fragile',
        weight: 0,
        shelfSpots: 2,
        palletSpaces: 2,
        slotIndex: 0,
        version: 1,
      });
      const customer = await ctx.database.db
        .selectFrom('customers')
        .select('company_id')
        .where('name', '=', 'SMITH')
        .execute();
      expect(customer).toEqual([{ company_id: user.companyId }]);
      const events = await ctx.database.db
        .selectFrom('events')
        .select('kind')
        .where('entity_type', '=', 'pallet')
        .where('entity_id', '=', pallet.id)
        .execute();
      expect(events.map((e) => e.kind)).toEqual(['pallet.added']);
    });

    it('requires a customer name and at least one space, and changes nothing', async () => {
      const before = await countRows('pallets', user.companyId);
      const noCustomer = await addPallet({
        name: 'x',
        shelf_id: shelfId,
        customer_name: '  ',
        slot_index: 3,
      });
      expect(noCustomer.statusCode).toBe(400);
      expect(noCustomer.json().errors.join(' ')).toContain('Customer name is required.');
      const noSpots = await addPallet({
        shelf_id: shelfId,
        customer_name: 'A',
        shelf_spots: 0,
        slot_index: 3,
      });
      expect(noSpots.statusCode).toBe(400);
      expect(noSpots.json().errors.join(' ')).toContain('Pallet spaces must be at least 1.');
      expect(await countRows('pallets', user.companyId)).toBe(before);
    });

    it('refuses a pallet that needs more spaces than are free, with the spec message', async () => {
      // slots 0-1 are taken; 3 more spots do not fit on a 4-slot shelf
      const res = await addPallet({ shelf_id: shelfId, customer_name: 'BIG', shelf_spots: 3, slot_index: 2 });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ errors: [shelfSpaceMessage(4, 2)] });
      expect(res.json().errors[0]).toBe(
        'Shelf does not have enough space for this. Please increase Shelf capacity. Shelf capacity is currently 4; 2 spaces are free.',
      );
    });

    it('refuses overlapping pallets and runs past the end of the shelf', async () => {
      const overlap = await addPallet({
        shelf_id: shelfId,
        customer_name: 'LATE',
        shelf_spots: 1,
        slot_index: 1,
      });
      expect(overlap.statusCode).toBe(400);
      expect(overlap.json().errors[0]).toContain('run into another pallet');
      const past = await addPallet({
        shelf_id: shelfId,
        customer_name: 'LATE',
        shelf_spots: 2,
        slot_index: 3,
      });
      expect(past.statusCode).toBe(400);
      expect(
        await ctx.database.db.selectFrom('customers').select('id').where('name', '=', 'LATE').execute(),
      ).toEqual([]);
    });

    it('answers 404 with the spec message for an unknown or foreign shelf, 401 signed out', async () => {
      const theirs = await buildRack(ctx.database.db, {
        companyId: other.companyId,
        warehouseId: otherWarehouseId,
        x: 70,
        y: 40,
      });
      for (const id of [theirs.shelfIds[0], 999999, undefined]) {
        const res = await addPallet({ shelf_id: id, customer_name: 'X', slot_index: 0 });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ errors: [SHELF_NOT_FOUND] });
      }
      expect(await countRows('pallets', other.companyId)).toBe(0);
      expect(
        (
          await ctx.app.inject({
            method: 'POST',
            url: '/api/racks/pallets',
            payload: { shelf_id: shelfId, customer_name: 'X' },
          })
        ).statusCode,
      ).toBe(401);
    });

    it('edits a pallet, counting spots of the other pallets only, and keeps spots when none are sent', async () => {
      const added = (
        await addPallet({ shelf_id: shelfId, customer_name: 'EDIT ME', slot_index: 2 })
      ).json() as PalletDto;
      const edit = (body: Record<string, unknown>) =>
        user.request({ method: 'PUT', url: `/api/racks/pallets/${added.id}/edit`, payload: body });
      const grown = await edit({
        id: added.id,
        name: 'boxes',
        customer_name: 'edited',
        pallet_number: '9',
        notes: '',
        weight: 12.5,
        pallet_spaces: 2,
        version: 1,
      });
      expect(grown.statusCode).toBe(200);
      expect(grown.json()).toMatchObject({
        name: 'BOXES',
        customerName: 'EDITED',
        weight: 12.5,
        shelfSpots: 2,
        slotIndex: 2,
        version: 2,
      });
      // the old customer name is no longer used by anything
      expect(
        await ctx.database.db.selectFrom('customers').select('id').where('name', '=', 'EDIT ME').execute(),
      ).toEqual([]);
      const kept = await edit({ customer_name: 'edited', weight: '', version: 2 });
      expect(kept.statusCode).toBe(200);
      expect(kept.json()).toMatchObject({ shelfSpots: 2, weight: 0, version: 3 });
      const tooMany = await edit({ customer_name: 'edited', pallet_spaces: 3, version: 3 });
      expect(tooMany.statusCode).toBe(400);
      expect(tooMany.json()).toEqual({ errors: [shelfSpaceMessage(4, 2)] });
      const stale = await edit({ customer_name: 'edited', pallet_spaces: 1, version: 1 });
      expect(stale.statusCode).toBe(409);
      expect(stale.json()).toEqual({ errors: ['This pallet was changed by someone else'] });
      const noCustomer = await edit({ customer_name: '' });
      expect(noCustomer.statusCode).toBe(400);
      const row = await ctx.database.db
        .selectFrom('pallets')
        .select(['shelf_spots', 'version'])
        .where('id', '=', added.id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ shelf_spots: 2, version: 3 });
    });

    it("edit and delete answer 401 signed out and 404 for another company's pallet", async () => {
      const theirs = await buildRack(ctx.database.db, {
        companyId: other.companyId,
        warehouseId: otherWarehouseId,
        x: 0,
        y: 40,
      });
      const palletId = await buildPallet(ctx.database.db, {
        companyId: other.companyId,
        shelfId: theirs.shelfIds[0]!,
        customer: 'THEIRS',
        slotIndex: 0,
      });
      const url = `/api/racks/pallets/${palletId}/edit`;
      expect((await ctx.app.inject({ method: 'PUT', url, payload: { customer_name: 'A' } })).statusCode).toBe(
        401,
      );
      expect((await user.request({ method: 'PUT', url, payload: { customer_name: 'A' } })).statusCode).toBe(
        404,
      );
      expect(
        (await ctx.app.inject({ method: 'DELETE', url: `/api/pallets/${palletId}/delete` })).statusCode,
      ).toBe(401);
      expect(
        (await user.request({ method: 'DELETE', url: `/api/pallets/${palletId}/delete` })).statusCode,
      ).toBe(404);
      const still = await ctx.database.db
        .selectFrom('pallets as p')
        .innerJoin('customers as c', 'c.id', 'p.customer_id')
        .select('c.name')
        .where('p.id', '=', palletId)
        .execute();
      expect(still).toEqual([{ name: 'THEIRS' }]);
    });

    it('deletes a pallet and frees its slots', async () => {
      const rack = await buildRack(ctx.database.db, {
        companyId: user.companyId,
        warehouseId: rackWarehouse,
        x: 40,
        y: 20,
        capacity: 1,
        shelves: 1,
      });
      const single = rack.shelfIds[0]!;
      const added = await addPallet({ shelf_id: single, customer_name: 'GONE SOON', slot_index: 0 });
      expect(added.statusCode).toBe(201);
      expect((await addPallet({ shelf_id: single, customer_name: 'NEXT', slot_index: 0 })).statusCode).toBe(
        400,
      );
      const id = (added.json() as PalletDto).id;
      const res = await user.request({ method: 'DELETE', url: `/api/pallets/${id}/delete` });
      expect(res.statusCode).toBe(200);
      expect(await ctx.database.db.selectFrom('pallets').select('id').where('id', '=', id).execute()).toEqual(
        [],
      );
      expect((await user.request({ method: 'DELETE', url: `/api/pallets/${id}/delete` })).statusCode).toBe(
        404,
      );
      const again = await addPallet({ shelf_id: single, customer_name: 'NEXT', slot_index: 0 });
      expect(again.statusCode).toBe(201);
    });
  });
});
