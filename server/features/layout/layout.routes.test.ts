import { describe, expect, it } from 'vitest';
import { fieldName } from '@domain/rules/field-names';
import {
  type GridChangeDto,
  REMOVE_COLUMN_VAULTS_FIRST,
  REMOVE_VAULTS_FIRST,
} from '@domain/schemas/layout.schema';
import type { WarehouseSummaryDto } from '@domain/schemas/warehouse.schema';
import { type SignedIn, testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';
import { buildRack, buildVault, buildWarehouse } from '../../factories';

describe.each(testEngines())('warehouse layout routes on %s', (engine) => {
  const { ctx, user, other } = useTestApp(engine);
  let counter = 0;

  async function newWarehouse(
    companyId = user.companyId,
    overrides: Partial<{ rows: number; cols: number; width: number; length: number }> = {},
  ) {
    counter += 1;
    const warehouse = await buildWarehouse(ctx.database.db, {
      companyId,
      name: `Layout ${counter}`,
      rows: 3,
      cols: 3,
      fieldCapacity: 3,
      width: 100,
      length: 80,
      ...overrides,
    });
    return warehouse.id;
  }

  async function fieldId(warehouseId: number, col: number, row: number) {
    const field = await ctx.database.db
      .selectFrom('fields')
      .select('id')
      .where('warehouse_id', '=', warehouseId)
      .where('col', '=', col)
      .where('row', '=', row)
      .executeTakeFirstOrThrow();
    return field.id;
  }

  /** A vault in the field's next free slot (the highest free position), named for the assertions. */
  async function placeVault(companyId: number, warehouseId: number, col: number, row: number, name: string) {
    return buildVault(ctx.database.db, {
      companyId,
      fieldId: await fieldId(warehouseId, col, row),
      name,
      customerName: 'KNOX',
    });
  }

  /** The grid as names with the vault names each field holds, to compare before and after. */
  async function gridOf(warehouseId: number) {
    const rows = await ctx.database.db
      .selectFrom('fields as f')
      .leftJoin('vaults as v', 'v.field_id', 'f.id')
      .select(['f.id', 'f.col', 'f.row', 'f.type', 'v.name as vault', 'v.position'])
      .where('f.warehouse_id', '=', warehouseId)
      .orderBy('f.col')
      .orderBy('f.row')
      .orderBy('v.position')
      .execute();
    return rows.map(
      (r) => `${fieldName(r.col, r.row)}#${r.id}:${r.type}${r.vault ? `:${r.vault}@${r.position}` : ''}`,
    );
  }

  async function warehouseRow(warehouseId: number) {
    return ctx.database.db
      .selectFrom('warehouses')
      .select(['rows', 'cols', 'field_capacity', 'length', 'width', 'grid_x', 'grid_y'])
      .where('id', '=', warehouseId)
      .executeTakeFirstOrThrow();
  }

  describe('PATCH /api/warehouse/{id}/edit-dimensions', () => {
    const patch = (id: number, payload: Record<string, unknown>, as: SignedIn = user) =>
      as.request({ method: 'PATCH', url: `/api/warehouse/${id}/edit-dimensions`, payload });

    it('changes capacity, length and width from strings or numbers and answers the warehouse', async () => {
      const id = await newWarehouse();
      const res = await patch(id, { field_capacity: '5', length: 120.5, width: '90' });
      expect(res.statusCode).toBe(200);
      const warehouse = res.json() as WarehouseSummaryDto;
      expect(warehouse).toMatchObject({
        id,
        fieldCapacity: 5,
        field_capacity: 5,
        length: 120.5,
        width: 90,
        warehouseCapacity: 45,
      });
      const events = await ctx.database.db
        .selectFrom('events')
        .select(['kind', 'payload'])
        .where('warehouse_id', '=', id)
        .where('kind', '=', 'warehouse.dimensions-edited')
        .execute();
      expect(events).toHaveLength(1);
      expect(JSON.parse(events[0]!.payload!)).toEqual({ field_capacity: 5, length: 120.5, width: 90 });
    });

    it('keeps stacks on the floor: raising the capacity moves vaults down by the change', async () => {
      const id = await newWarehouse();
      await placeVault(user.companyId, id, 1, 1, 'BOTTOM');
      await placeVault(user.companyId, id, 1, 1, 'MIDDLE');
      expect((await patch(id, { field_capacity: 5 })).statusCode).toBe(200);
      expect((await gridOf(id)).filter((cell) => cell.includes('@'))).toEqual([
        expect.stringMatching(/^A1#\d+:vault:MIDDLE@4$/),
        expect.stringMatching(/^A1#\d+:vault:BOTTOM@5$/),
      ]);
      expect((await patch(id, { field_capacity: 2 })).statusCode).toBe(200);
      expect((await gridOf(id)).filter((cell) => cell.includes('@'))).toEqual([
        expect.stringMatching(/MIDDLE@1$/),
        expect.stringMatching(/BOTTOM@2$/),
      ]);
    });

    it("refuses a capacity below a field's vault count and changes nothing", async () => {
      const id = await newWarehouse();
      for (const name of ['V3', 'V2', 'V1']) await placeVault(user.companyId, id, 2, 2, name);
      const before = await gridOf(id);
      const res = await patch(id, { field_capacity: 2, width: 50 });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors[0]).toBe(
        'Field capacity cannot be lower than the number of vaults in a field: B2 holds 3. Stage or move vaults first.',
      );
      expect(await gridOf(id)).toEqual(before);
      expect(await warehouseRow(id)).toMatchObject({ field_capacity: 3, width: 100 });
    });

    it('refuses values out of range and an empty change', async () => {
      const id = await newWarehouse();
      for (const payload of [
        { field_capacity: 11 },
        { field_capacity: -1 },
        { length: -2 },
        { width: 'wide' },
        {},
      ]) {
        const res = await patch(id, payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json().errors.length).toBeGreaterThan(0);
      }
      expect(await warehouseRow(id)).toMatchObject({ field_capacity: 3, length: 80, width: 100 });
    });

    it('refuses walls that would leave a rack outside, and keeps the field grid inside new walls', async () => {
      const id = await newWarehouse();
      await ctx.database.db
        .updateTable('warehouses')
        .set({ grid_x: 80, grid_y: 60 })
        .where('id', '=', id)
        .execute();
      await buildRack(ctx.database.db, {
        companyId: user.companyId,
        warehouseId: id,
        name: 'Far',
        x: 60,
        y: 0,
      });
      const refused = await patch(id, { width: 70 });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().errors[0]).toBe(
        'Rack Far would stand outside the new walls. Move or delete it first.',
      );
      const ok = await patch(id, { width: 72, length: 70 });
      expect(ok.statusCode).toBe(200);
      // the 15 x 15 ft block moves back inside 72 x 70 ft
      expect((ok.json() as WarehouseSummaryDto).fieldgridLocation).toEqual({ x: 57, y: 55 });
    });

    it('refuses walls too close for the field grid, or only one side measured', async () => {
      // 3 x 3 fields: a 15 x 15 ft block
      const id = await newWarehouse();
      const narrow = await patch(id, { width: 14.5 });
      expect(narrow.statusCode).toBe(400);
      expect(narrow.json()).toEqual({
        errors: [
          'The field grid is 15 ft wide (3 columns of 5 ft), wider than the 14.5 ft floor. Make the floor wider or use fewer columns.',
        ],
      });
      const half = await patch(id, { length: 0 });
      expect(half.json()).toEqual({
        errors: ['Give both the length and the width, or leave both at 0 while the floor is not measured.'],
      });
      // a capacity change beside walls that hold the grid goes through
      expect((await patch(id, { field_capacity: 4, length: 15, width: 15 })).statusCode).toBe(200);
      expect(await warehouseRow(id)).toMatchObject({ field_capacity: 4, length: 15, width: 15 });
      // not measured at all: any grid
      expect((await patch(id, { length: 0, width: 0 })).statusCode).toBe(200);
    });

    it("answers 401 signed out and 404 for another company's warehouse", async () => {
      const theirs = await newWarehouse(other.companyId);
      expect(
        (
          await ctx.app.inject({
            method: 'PATCH',
            url: `/api/warehouse/${theirs}/edit-dimensions`,
            payload: { width: 5 },
          })
        ).statusCode,
      ).toBe(401);
      const res = await patch(theirs, { width: 5 });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ errors: ['Warehouse not found'] });
      expect(await warehouseRow(theirs)).toMatchObject({ width: 100 });
    });
  });

  describe('PUT /api/warehouse/{id}/field-grid', () => {
    const put = (id: number, payload: unknown, as: SignedIn = user) =>
      as.request({
        method: 'PUT',
        url: `/api/warehouse/${id}/field-grid`,
        payload: payload as Record<string, unknown>,
      });

    it('stores the location and clamps the block (cols x 5 by rows x 5 ft) inside the walls', async () => {
      const id = await newWarehouse(user.companyId, { cols: 4, rows: 2, width: 50, length: 30 });
      const inside = await put(id, { fieldgridLocation: { x: 12.5, y: '7' } });
      expect(inside.statusCode).toBe(200);
      expect(inside.json()).toEqual({ fieldgridLocation: { x: 12.5, y: 7 } });
      const past = await put(id, { fieldgridLocation: { x: 45, y: 29 } });
      expect(past.json()).toEqual({ fieldgridLocation: { x: 30, y: 20 } });
      expect(await warehouseRow(id)).toMatchObject({ grid_x: 30, grid_y: 20 });
    });

    it('refuses a missing or negative location, 401 signed out, 404 for another company', async () => {
      const id = await newWarehouse();
      expect((await put(id, {})).statusCode).toBe(400);
      const negative = await put(id, { fieldgridLocation: { x: -1, y: 0 } });
      expect(negative.statusCode).toBe(400);
      expect(negative.json().errors[0]).toContain('x must be at least 0.');
      expect(
        (
          await ctx.app.inject({
            method: 'PUT',
            url: `/api/warehouse/${id}/field-grid`,
            payload: { fieldgridLocation: { x: 1, y: 1 } },
          })
        ).statusCode,
      ).toBe(401);
      const theirs = await newWarehouse(other.companyId);
      expect((await put(theirs, { fieldgridLocation: { x: 1, y: 1 } })).statusCode).toBe(404);
      expect(await warehouseRow(theirs)).toMatchObject({ grid_x: 0, grid_y: 0 });
    });
  });

  describe('POST and DELETE /api/fields/', () => {
    const change = (method: 'POST' | 'DELETE', payload: Record<string, unknown>, as: SignedIn = user) =>
      as.request({ method, url: '/api/fields/', payload });

    function multipart(fields: Record<string, string | number>) {
      const boundary = '----h3grid';
      const body =
        Object.entries(fields)
          .map(
            ([key, value]) =>
              `--${boundary}\r\nContent-Disposition: form-data; name="${key}"\r\n\r\n${value}\r\n`,
          )
          .join('') + `--${boundary}--\r\n`;
      return { body, contentType: `multipart/form-data; boundary=${boundary}` };
    }

    it('adds columns on the left: old columns move right with their vaults, new A fields appear', async () => {
      const id = await newWarehouse(user.companyId, { cols: 2, rows: 2 });
      await placeVault(user.companyId, id, 1, 2, 'KEEP');
      const oldA2 = await fieldId(id, 1, 2);
      const form = multipart({
        warehouse_id: id,
        direction: 'left',
        opperation: 'plus',
        warehouse_cols: 99,
        warehouse_rows: 99,
        count: 2,
      });
      const res = await user.request({
        method: 'POST',
        url: '/api/fields/',
        headers: { 'content-type': form.contentType },
        payload: form.body,
      });
      expect(res.statusCode).toBe(200);
      const answer = res.json() as GridChangeDto;
      expect(answer).toMatchObject({ warehouseId: id, newWarehouseColsCount: 4, newWarehouseRowsCount: 2 });
      expect(answer.fields.map((f) => f.name)).toEqual(['A1', 'A2', 'B1', 'B2', 'C1', 'C2', 'D1', 'D2']);
      const moved = answer.fields.find((f) => f.id === oldA2)!;
      expect(moved.name).toBe('C2');
      expect(Object.values(moved.vaults).map((v) => v.name)).toEqual(['KEEP']);
      expect(await warehouseRow(id)).toMatchObject({ cols: 4, rows: 2 });
    });

    it('adds columns on the right and rows at the bottom, from JSON or urlencoded forms', async () => {
      const id = await newWarehouse(user.companyId, { cols: 2, rows: 2 });
      const right = await change('POST', {
        warehouse_id: id,
        direction: 'right',
        operation: 'plus',
        count: 1,
      });
      expect(right.statusCode).toBe(200);
      expect((right.json() as GridChangeDto).fields.map((f) => f.name)).toEqual([
        'A1',
        'A2',
        'B1',
        'B2',
        'C1',
        'C2',
      ]);
      const bottom = await user.request({
        method: 'POST',
        url: '/api/fields/',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `warehouse_id=${id}&direction=bottom&opperation=plus&count=2`,
      });
      expect(bottom.statusCode).toBe(200);
      const answer = bottom.json() as GridChangeDto;
      expect(answer).toMatchObject({ newWarehouseColsCount: 3, newWarehouseRowsCount: 4 });
      expect(answer.fields).toHaveLength(12);
      expect(answer.fields.map((f) => f.name)).toContain('C4');
    });

    it('removes columns on the left: the rest shift down, renamed, keeping their vaults and types', async () => {
      const id = await newWarehouse(user.companyId, { cols: 4, rows: 2 });
      await placeVault(user.companyId, id, 4, 1, 'LAST');
      await ctx.database.db
        .updateTable('fields')
        .set({ type: 'couchbox-T' })
        .where('id', '=', await fieldId(id, 3, 1))
        .execute();
      await ctx.database.db
        .updateTable('fields')
        .set({ type: 'couchbox-B' })
        .where('id', '=', await fieldId(id, 3, 2))
        .execute();
      const res = await change('DELETE', {
        warehouse_id: id,
        direction: 'left',
        opperation: 'minus',
        count: 2,
      });
      expect(res.statusCode).toBe(200);
      const answer = res.json() as GridChangeDto;
      expect(answer.newWarehouseColsCount).toBe(2);
      expect(
        answer.fields.map(
          (f) =>
            `${f.name}:${f.type}:${Object.values(f.vaults)
              .map((v) => v.name)
              .join()}`,
        ),
      ).toEqual(['A1:couchbox-T:', 'A2:couchbox-B:', 'B1:vault:LAST', 'B2:vault:']);
    });

    it('removes columns on the right and rows at the bottom', async () => {
      const id = await newWarehouse(user.companyId, { cols: 3, rows: 4 });
      const right = await change('DELETE', { warehouse_id: id, direction: 'right', count: 1 });
      expect(right.statusCode).toBe(200);
      expect(
        (right.json() as GridChangeDto).fields.map((f) => f.name).filter((n) => n.startsWith('C')),
      ).toEqual([]);
      const bottom = await change('DELETE', { warehouse_id: id, direction: 'bottom', count: 3 });
      expect(bottom.statusCode).toBe(200);
      expect((bottom.json() as GridChangeDto).fields.map((f) => f.name)).toEqual(['A1', 'B1']);
      expect(await warehouseRow(id)).toMatchObject({ cols: 2, rows: 1 });
    });

    it('refuses to remove rows or columns holding vaults, with the spec alert (columns named as such), and changes nothing', async () => {
      const id = await newWarehouse(user.companyId, { cols: 3, rows: 3 });
      await placeVault(user.companyId, id, 2, 3, 'IN-BOTTOM-ROW');
      await placeVault(user.companyId, id, 1, 1, 'IN-A');
      await placeVault(user.companyId, id, 3, 2, 'IN-C');
      const before = await gridOf(id);
      for (const [payload, refusal] of [
        [{ direction: 'bottom', count: 1 }, REMOVE_VAULTS_FIRST],
        [{ direction: 'left', count: 1 }, REMOVE_COLUMN_VAULTS_FIRST],
        [{ direction: 'right', count: 1 }, REMOVE_COLUMN_VAULTS_FIRST],
        [{ direction: 'left', count: 2 }, REMOVE_COLUMN_VAULTS_FIRST],
      ] as const) {
        const res = await change('DELETE', { warehouse_id: id, ...payload });
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json()).toEqual({ errors: [refusal] });
      }
      expect(await gridOf(id)).toEqual(before);
      expect(await warehouseRow(id)).toMatchObject({ cols: 3, rows: 3 });
    });

    it('refuses to split a couchbox pair when removing bottom rows', async () => {
      const id = await newWarehouse(user.companyId, { cols: 2, rows: 3 });
      await ctx.database.db
        .updateTable('fields')
        .set({ type: 'couchbox-T' })
        .where('id', '=', await fieldId(id, 2, 2))
        .execute();
      await ctx.database.db
        .updateTable('fields')
        .set({ type: 'couchbox-B' })
        .where('id', '=', await fieldId(id, 2, 3))
        .execute();
      const before = await gridOf(id);
      const res = await change('DELETE', { warehouse_id: id, direction: 'bottom', count: 1 });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors[0]).toBe(
        'Removing these rows would split the couchbox in B2. Turn B2 back into a vault field first.',
      );
      expect(await gridOf(id)).toEqual(before);
      // removing both halves together is fine
      expect((await change('DELETE', { warehouse_id: id, direction: 'bottom', count: 2 })).statusCode).toBe(
        200,
      );
    });

    it('adds only the columns and rows a measured floor has room for (5 ft a field)', async () => {
      const id = await newWarehouse(user.companyId, { cols: 3, rows: 3, width: 24, length: 20 });
      const wide = await change('POST', { warehouse_id: id, direction: 'right', count: 2 });
      expect(wide.statusCode).toBe(400);
      expect(wide.json()).toEqual({
        errors: [
          'The field grid is 25 ft wide (5 columns of 5 ft), wider than the 24 ft floor. Make the floor wider or use fewer columns.',
        ],
      });
      const long = await change('POST', { warehouse_id: id, direction: 'bottom', count: 2 });
      expect(long.json()).toEqual({
        errors: [
          'The field grid is 25 ft long (5 rows of 5 ft), longer than the 20 ft floor. Make the floor longer or use fewer rows.',
        ],
      });
      expect(await warehouseRow(id)).toMatchObject({ cols: 3, rows: 3 });
      expect((await change('POST', { warehouse_id: id, direction: 'left', count: 1 })).statusCode).toBe(200);
      expect((await change('POST', { warehouse_id: id, direction: 'bottom', count: 1 })).statusCode).toBe(
        200,
      );
      expect(await warehouseRow(id)).toMatchObject({ cols: 4, rows: 4 });

      // a floor not measured yet holds any grid
      const open = await newWarehouse(user.companyId, { cols: 3, rows: 3, width: 0, length: 0 });
      expect((await change('POST', { warehouse_id: open, direction: 'right', count: 30 })).statusCode).toBe(
        200,
      );
    });

    it('keeps at least one row and column and at most the grid limits', async () => {
      const id = await newWarehouse(user.companyId, { cols: 2, rows: 2 });
      const cols = await change('DELETE', { warehouse_id: id, direction: 'right', count: 2 });
      expect(cols.statusCode).toBe(400);
      expect(cols.json().errors[0]).toBe('At least one column must remain.');
      const rows = await change('DELETE', { warehouse_id: id, direction: 'bottom', count: 5 });
      expect(rows.json().errors[0]).toBe('At least one row must remain.');
      const wide = await change('POST', { warehouse_id: id, direction: 'left', count: 59 });
      expect(wide.statusCode).toBe(400);
      expect(wide.json().errors[0]).toBe('A warehouse can have at most 60 columns.');
      const tallId = await newWarehouse(user.companyId, { cols: 1, rows: 50 });
      const tall = await change('POST', { warehouse_id: tallId, direction: 'bottom', count: 50 });
      expect(tall.json().errors[0]).toBe('A warehouse can have at most 99 rows.');
      expect(await warehouseRow(id)).toMatchObject({ cols: 2, rows: 2 });
    });

    it('refuses bad input: direction, count, a contradicting opperation', async () => {
      const id = await newWarehouse();
      const before = await gridOf(id);
      for (const payload of [
        { warehouse_id: id, direction: 'top', count: 1 },
        { warehouse_id: id, direction: 'left', count: 0 },
        { warehouse_id: id, direction: 'left' },
        { direction: 'left', count: 1 },
        { warehouse_id: id, direction: 'left', count: 1, opperation: 'minus' },
      ]) {
        const res = await change('POST', payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json().errors.length).toBeGreaterThan(0);
      }
      expect(await gridOf(id)).toEqual(before);
    });

    it('touches only the given warehouse', async () => {
      const mine = await newWarehouse(user.companyId, { cols: 2, rows: 2 });
      const sibling = await newWarehouse(user.companyId, { cols: 2, rows: 2 });
      const before = await gridOf(sibling);
      expect((await change('DELETE', { warehouse_id: mine, direction: 'left', count: 1 })).statusCode).toBe(
        200,
      );
      expect((await change('POST', { warehouse_id: mine, direction: 'left', count: 1 })).statusCode).toBe(
        200,
      );
      expect(await gridOf(sibling)).toEqual(before);
    });

    it("answers 401 signed out and 404 for another company's warehouse, which stays as it was", async () => {
      const theirs = await newWarehouse(other.companyId, { cols: 2, rows: 2 });
      const before = await gridOf(theirs);
      const signedOut = await ctx.app.inject({
        method: 'POST',
        url: '/api/fields/',
        payload: { warehouse_id: theirs, direction: 'left', count: 1 },
      });
      expect(signedOut.statusCode).toBe(401);
      for (const method of ['POST', 'DELETE'] as const) {
        const res = await change(method, { warehouse_id: theirs, direction: 'left', count: 1 });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ errors: ['Warehouse not found'] });
      }
      expect(await gridOf(theirs)).toEqual(before);
    });
  });
});
