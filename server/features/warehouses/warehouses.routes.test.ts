import { describe, expect, it } from 'vitest';
import type { WarehouseDto, WarehouseSummaryDto } from '@domain/schemas/warehouse.schema';
import { signIn, testEngines } from '../../test/test-app';
import { type CompanyTable, countRows as countCompanyRows } from '../../test/row-count.repo';
import { useTestApp } from '../../test/use-test-app';
import { buildStagedVault, buildVault, buildWarehouse, makeCouchbox } from '../../factories';
import { DUPLICATE_WAREHOUSE } from './warehouses.service';

describe.each(testEngines())('warehouse routes on %s', (engine) => {
  const { ctx, user, other } = useTestApp(engine);

  const db = () => ctx.database.db;
  const countRows = (table: CompanyTable, companyId: number) => countCompanyRows(db(), table, companyId);

  describe('GET /api/warehouse/company/{companyId}', () => {
    it('answers the company warehouses sorted by name with stats from placed vaults only', async () => {
      const account = await signIn(ctx);
      const zeta = await buildWarehouse(db(), {
        companyId: account.companyId,
        name: 'Zeta Storage',
        rows: 3,
        cols: 2,
      });
      const alpha = await buildWarehouse(db(), {
        companyId: account.companyId,
        name: 'Alpha Storage',
        rows: 2,
        cols: 2,
        fieldCapacity: 4,
      });
      await buildVault(db(), {
        companyId: account.companyId,
        fieldId: zeta.field('A1').id,
        customerName: 'smith',
      });
      await buildVault(db(), {
        companyId: account.companyId,
        fieldId: zeta.field('A1').id,
        customerName: 'EMPTY VAULT',
      });
      await buildVault(db(), {
        companyId: account.companyId,
        fieldId: zeta.field('A2').id,
        customerName: 'EMPTY LIFTVAN',
      });
      await makeCouchbox(db(), { companyId: account.companyId, fieldId: zeta.field('B1').id });
      await buildVault(db(), {
        companyId: account.companyId,
        fieldId: zeta.field('B1').id,
        customerName: 'EMPTY COUCHBOX',
        type: 'couchbox',
      });
      await buildStagedVault(db(), { companyId: account.companyId, customerName: 'STAGED ONE' });
      await buildWarehouse(db(), { companyId: other.companyId, name: 'Not Mine' });

      const res = await account.request({
        method: 'GET',
        url: `/api/warehouse/company/${account.companyId}`,
      });
      expect(res.statusCode).toBe(200);
      const list = res.json() as WarehouseSummaryDto[];
      expect(list.map((w) => w.name)).toEqual(['Alpha Storage', 'Zeta Storage']);
      expect(list[0]).toMatchObject({
        id: alpha.id,
        slug: 'alpha-storage',
        companyId: account.companyId,
        rows: 2,
        cols: 2,
        fieldCapacity: 4,
        field_capacity: 4,
        warehouseCapacity: 16,
        stats: { vaultCount: 0, realVaultCount: 0, emptyVaultCount: 0, emptyCouchboxCount: 0 },
      });
      expect(list[0]).not.toHaveProperty('fields');
      expect(list[1]!.stats).toEqual({
        vaultCount: 4,
        realVaultCount: 1,
        emptyVaultCount: 1,
        emptyCouchboxCount: 1,
      });
    });

    it('answers them in natural order, the same on both engines: numbers by value, case aside', async () => {
      const account = await signIn(ctx);
      for (const name of ['Warehouse 10', 'annex B', 'Warehouse 2', 'Annex A'])
        await buildWarehouse(db(), { companyId: account.companyId, name, rows: 1, cols: 1 });
      const res = await account.request({
        method: 'GET',
        url: `/api/warehouse/company/${account.companyId}`,
      });
      expect((res.json() as WarehouseSummaryDto[]).map((w) => w.name)).toEqual([
        'Annex A',
        'annex B',
        'Warehouse 2',
        'Warehouse 10',
      ]);
    });

    it('answers 404 for another company id and 401 signed out', async () => {
      expect(
        (await user.request({ method: 'GET', url: `/api/warehouse/company/${other.companyId}` })).statusCode,
      ).toBe(404);
      expect((await user.request({ method: 'GET', url: '/api/warehouse/company/abc' })).statusCode).toBe(404);
      const out = await ctx.app.inject({ method: 'GET', url: `/api/warehouse/company/${user.companyId}` });
      expect(out.statusCode).toBe(401);
      expect(out.json()).toEqual({ errors: ['Unauthorized'] });
    });
  });

  describe('GET /api/warehouse/{id}', () => {
    it('answers the warehouse with fields keyed by id, vaults keyed by id, and name lists', async () => {
      const wh = await buildWarehouse(db(), { companyId: user.companyId, rows: 2, cols: 2 });
      const a1 = wh.field('A1');
      const bottom = await buildVault(db(), {
        companyId: user.companyId,
        fieldId: a1.id,
        customerName: 'JONES',
        orderName: 'O-2',
        name: '101',
      });
      const top = await buildVault(db(), {
        companyId: user.companyId,
        fieldId: a1.id,
        customerName: 'ADAMS',
        orderName: 'O-1',
        name: '102',
      });

      const res = await user.request({ method: 'GET', url: `/api/warehouse/${wh.id}` });
      expect(res.statusCode).toBe(200);
      const body = res.json() as WarehouseDto;
      expect(Object.keys(body.fields).map(Number)).toEqual(wh.fields.map((f) => f.id).sort((a, b) => a - b));
      expect(
        Object.values(body.fields)
          .map((f) => f.name)
          .sort(),
      ).toEqual(['A1', 'A2', 'B1', 'B2']);
      const field = body.fields[a1.id]!;
      expect(field).toMatchObject({ id: a1.id, name: 'A1', type: 'vault', full: false, warehouse_id: wh.id });
      expect(field.vaults[bottom.id]).toMatchObject({
        name: '101',
        customer_name: 'JONES',
        order_name: 'O-2',
        position: 3,
        field_name: 'A1',
        warehouse_name: wh.name,
        attachments: [],
      });
      expect(field.vaults[top.id]!.position).toBe(2);
      expect(body.customers).toEqual(['ADAMS', 'JONES']);
      expect(body.orders).toEqual(['O-1', 'O-2']);
      expect(body.stats.vaultCount).toBe(2);
    });

    it('answers 404 for another company warehouse, a non-numeric id, and 401 signed out', async () => {
      const theirs = await buildWarehouse(db(), { companyId: other.companyId });
      const res = await user.request({ method: 'GET', url: `/api/warehouse/${theirs.id}` });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ errors: ['Warehouse not found'] });
      expect((await user.request({ method: 'GET', url: '/api/warehouse/x1' })).statusCode).toBe(404);
      expect((await ctx.app.inject({ method: 'GET', url: `/api/warehouse/${theirs.id}` })).statusCode).toBe(
        401,
      );
    });
  });

  describe('GET /api/warehouse/{warehouseId}/{fieldId}', () => {
    it('answers one field with its vaults keyed by id', async () => {
      const wh = await buildWarehouse(db(), { companyId: user.companyId, rows: 2, cols: 1 });
      const vault = await buildVault(db(), { companyId: user.companyId, fieldId: wh.field('A2').id });
      const res = await user.request({ method: 'GET', url: `/api/warehouse/${wh.id}/${wh.field('A2').id}` });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        id: wh.field('A2').id,
        name: 'A2',
        vaults: { [vault.id]: { id: vault.id, position: 3 } },
      });
    });

    it('answers 404 for a field of another warehouse or company and 401 signed out', async () => {
      const mine = await buildWarehouse(db(), { companyId: user.companyId, rows: 1, cols: 1 });
      const second = await buildWarehouse(db(), { companyId: user.companyId, rows: 1, cols: 1 });
      const theirs = await buildWarehouse(db(), { companyId: other.companyId, rows: 1, cols: 1 });
      expect(
        (await user.request({ method: 'GET', url: `/api/warehouse/${mine.id}/${second.fields[0]!.id}` }))
          .statusCode,
      ).toBe(404);
      expect(
        (await user.request({ method: 'GET', url: `/api/warehouse/${theirs.id}/${theirs.fields[0]!.id}` }))
          .statusCode,
      ).toBe(404);
      expect(
        (await ctx.app.inject({ method: 'GET', url: `/api/warehouse/${mine.id}/${mine.fields[0]!.id}` }))
          .statusCode,
      ).toBe(401);
    });
  });

  describe('POST /api/warehouse/add-warehouse', () => {
    const valid = { rows: 3, cols: 28, field_capacity: 3, length: 100, width: 140.5 };

    it('creates the warehouse with its field grid and answers 201 with the warehouse', async () => {
      const res = await user.request({
        method: 'POST',
        url: '/api/warehouse/add-warehouse',
        payload: { name: 'Big  Barn', ...valid },
      });
      expect(res.statusCode).toBe(201);
      const body = res.json() as WarehouseDto;
      expect(body).toMatchObject({
        name: 'Big  Barn',
        slug: 'big-barn',
        rows: 3,
        cols: 28,
        width: 140.5,
        warehouseCapacity: 252,
      });
      const names = Object.values(body.fields).map((f) => f.name);
      expect(names).toHaveLength(84);
      expect(names.slice(0, 4)).toEqual(['A1', 'A2', 'A3', 'B1']);
      expect(names).toContain('Z3');
      expect(names).toContain('AB1');
      const events = await db()
        .selectFrom('events')
        .select('kind')
        .where('entity_id', '=', body.id)
        .where('kind', '=', 'warehouse.added')
        .execute();
      expect(events).toHaveLength(1);
    });

    it('accepts numbers sent as strings', async () => {
      const res = await user.request({
        method: 'POST',
        url: '/api/warehouse/add-warehouse',
        payload: {
          name: 'String Numbers',
          rows: '2',
          cols: '2',
          field_capacity: '3',
          length: '50.5',
          width: '20',
        },
      });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ rows: 2, length: 50.5 });
    });

    it('answers 400 with messages for invalid input and creates nothing', async () => {
      const before = await countRows('warehouses', user.companyId);
      const missing = await user.request({
        method: 'POST',
        url: '/api/warehouse/add-warehouse',
        payload: {},
      });
      expect(missing.statusCode).toBe(400);
      const { errors } = missing.json() as { errors: string[] };
      expect(errors.some((e) => e.includes('Name is required.'))).toBe(true);
      expect(errors.length).toBeGreaterThanOrEqual(6);
      const bad = await user.request({
        method: 'POST',
        url: '/api/warehouse/add-warehouse',
        payload: { name: 'Bad', ...valid, rows: 0, field_capacity: 11 },
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().errors).toEqual(
        expect.arrayContaining([
          'rows: Rows must be at least 1.',
          'field_capacity: Field capacity must be at most 10.',
        ]),
      );
      expect(await countRows('warehouses', user.companyId)).toBe(before);
    });

    it('refuses a field grid the floor cannot hold (5 ft a field) and a floor with one side measured', async () => {
      const before = await countRows('warehouses', user.companyId);
      const add = (payload: Record<string, unknown>) =>
        user.request({ method: 'POST', url: '/api/warehouse/add-warehouse', payload });
      const wide = await add({ name: 'Too Wide', ...valid, width: 80.5 });
      expect(wide.statusCode).toBe(400);
      expect(wide.json()).toEqual({
        errors: [
          'width: The field grid is 140 ft wide (28 columns of 5 ft), wider than the 80.5 ft floor. Make the floor wider or use fewer columns.',
        ],
      });
      const both = await add({
        name: 'Too Small',
        rows: 1,
        cols: 1,
        field_capacity: 3,
        length: 4,
        width: 4.5,
      });
      expect(both.json().errors).toEqual([
        'width: The field grid is 5 ft wide (1 column of 5 ft), wider than the 4.5 ft floor. Make the floor wider or use fewer columns.',
        'length: The field grid is 5 ft long (1 row of 5 ft), longer than the 4 ft floor. Make the floor longer or use fewer rows.',
      ]);
      const half = await add({ name: 'Half Floor', ...valid, length: 0 });
      expect(half.statusCode).toBe(400);
      expect(half.json()).toEqual({
        errors: [
          'length: Give both the length and the width, or leave both at 0 while the floor is not measured.',
        ],
      });
      expect(await countRows('warehouses', user.companyId)).toBe(before);

      // a grid that just fits, and any grid while the floor is not measured
      expect((await add({ name: 'Snug', ...valid, rows: 20, width: 140 })).statusCode).toBe(201);
      const unmeasured = await add({ name: 'Unmeasured', ...valid, rows: 99, length: 0, width: 0 });
      expect(unmeasured.statusCode).toBe(201);
      expect(unmeasured.json()).toMatchObject({ rows: 99, cols: 28, length: 0, width: 0 });
    });

    it('answers 409 for a name or slug the company already uses, but another company may use it', async () => {
      const first = await user.request({
        method: 'POST',
        url: '/api/warehouse/add-warehouse',
        payload: { name: 'Twin', ...valid },
      });
      expect(first.statusCode).toBe(201);
      const fieldsBefore = await countRows('fields', user.companyId);
      for (const name of ['Twin', 'twin', ' TWIN ']) {
        const again = await user.request({
          method: 'POST',
          url: '/api/warehouse/add-warehouse',
          payload: { name, ...valid },
        });
        expect(again.statusCode).toBe(409);
        expect(again.json()).toEqual({ errors: [DUPLICATE_WAREHOUSE] });
      }
      expect(await countRows('fields', user.companyId)).toBe(fieldsBefore);
      const theirs = await other.request({
        method: 'POST',
        url: '/api/warehouse/add-warehouse',
        payload: { name: 'Twin', ...valid },
      });
      expect(theirs.statusCode).toBe(201);
    });

    it('lets exactly one of two simultaneous adds of the same name win', async () => {
      const payload = { name: 'Race Barn', ...valid };
      const results = await Promise.all([
        user.request({ method: 'POST', url: '/api/warehouse/add-warehouse', payload }),
        user.request({ method: 'POST', url: '/api/warehouse/add-warehouse', payload }),
      ]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
      const rows = await db()
        .selectFrom('warehouses')
        .select('id')
        .where('company_id', '=', user.companyId)
        .where('name', '=', 'Race Barn')
        .execute();
      expect(rows).toHaveLength(1);
    });

    it('answers 401 signed out', async () => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/warehouse/add-warehouse',
        payload: { name: 'Anon', ...valid },
      });
      expect(res.statusCode).toBe(401);
    });
  });

  describe('DELETE /api/warehouse/{id}', () => {
    it('deletes the warehouse with its fields, vaults and attachments, and customers/orders no longer used', async () => {
      const account = await signIn(ctx);
      const wh = await buildWarehouse(db(), { companyId: account.companyId, rows: 2, cols: 2 });
      const keep = await buildWarehouse(db(), { companyId: account.companyId, rows: 1, cols: 1 });
      const vault = await buildVault(db(), {
        companyId: account.companyId,
        fieldId: wh.field('A1').id,
        customerName: 'GONE',
        orderName: 'G-1',
      });
      await buildVault(db(), {
        companyId: account.companyId,
        fieldId: wh.field('A1').id,
        customerName: 'SHARED',
        orderName: 'S-1',
      });
      await buildVault(db(), {
        companyId: account.companyId,
        fieldId: keep.field('A1').id,
        customerName: 'SHARED',
        orderName: 'S-1',
      });
      await buildStagedVault(db(), {
        companyId: account.companyId,
        customerName: 'WAITING',
        orderName: 'W-1',
      });
      await db()
        .insertInto('attachments')
        .values({
          company_id: account.companyId,
          vault_id: vault.id,
          file_name: 'a.txt',
          content_type: 'text/plain',
          size: 1,
          content: Buffer.from('a'),
          created_at: new Date().toISOString(),
        })
        .execute();

      const res = await account.request({ method: 'DELETE', url: `/api/warehouse/${wh.id}` });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: 'Warehouse deleted successfully', id: wh.id });
      expect(
        await db().selectFrom('fields').select('id').where('warehouse_id', '=', wh.id).execute(),
      ).toHaveLength(0);
      expect(await countRows('vaults', account.companyId)).toBe(2);
      expect(await countRows('attachments', account.companyId)).toBe(0);
      const customers = await db()
        .selectFrom('customers')
        .select('name')
        .where('company_id', '=', account.companyId)
        .orderBy('name')
        .execute();
      expect(customers.map((c) => c.name)).toEqual(['SHARED', 'WAITING']);
      const orders = await db()
        .selectFrom('orders')
        .select('name')
        .where('company_id', '=', account.companyId)
        .orderBy('name')
        .execute();
      expect(orders.map((o) => o.name)).toEqual(['S-1', 'W-1']);
      expect((await account.request({ method: 'GET', url: `/api/warehouse/${wh.id}` })).statusCode).toBe(404);
    });

    it('answers 404 for another company warehouse (and keeps it) and 401 signed out', async () => {
      const theirs = await buildWarehouse(db(), { companyId: other.companyId, rows: 1, cols: 1 });
      expect((await user.request({ method: 'DELETE', url: `/api/warehouse/${theirs.id}` })).statusCode).toBe(
        404,
      );
      expect(
        (await ctx.app.inject({ method: 'DELETE', url: `/api/warehouse/${theirs.id}` })).statusCode,
      ).toBe(401);
      expect((await other.request({ method: 'GET', url: `/api/warehouse/${theirs.id}` })).statusCode).toBe(
        200,
      );
    });
  });
});
