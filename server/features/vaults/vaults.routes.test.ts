import { describe, expect, it } from 'vitest';
import type { FieldDto, VaultDto, WarehouseSummaryDto } from '@domain/schemas/warehouse.schema';
import { MAX_UPLOAD_BYTES } from '@domain/rules/capacity';
import { testEngines } from '../../test/test-app';
import { type CompanyTable, countRows as countCompanyRows } from '../../test/row-count.repo';
import { useTestApp } from '../../test/use-test-app';
import { buildStagedVault, buildVault, buildWarehouse, makeCouchbox } from '../../factories';
import { multipartBody } from '../../test/multipart-body';
import {
  COUCHBOX_FIELD_ONLY,
  FIELD_FULL,
  SLOT_TAKEN,
  VAULT_CHANGED,
  couchboxBottom,
  notNextFree,
} from './vaults.service';

describe.each(testEngines())('vault routes on %s', (engine) => {
  const { ctx, user, other } = useTestApp(engine);

  const db = () => ctx.database.db;
  const vaultsIn = (fieldId: number) =>
    db()
      .selectFrom('vaults')
      .select(['id', 'position'])
      .where('field_id', '=', fieldId)
      .orderBy('position')
      .execute();
  const countOf = (table: CompanyTable, companyId: number) => countCompanyRows(db(), table, companyId);
  const newField = async (companyId = user.companyId, fieldCapacity = 3) => {
    const wh = await buildWarehouse(db(), { companyId, rows: 3, cols: 2, fieldCapacity });
    return { wh, field: wh.field('A1') };
  };
  const regular = (fieldId: number, position: number, extra: Record<string, unknown> = {}) => ({
    vault_id: 'V-1',
    customer_name: 'smith',
    order_name: 'O-1',
    type: 'vault',
    note: 'two boxes',
    field_id: fieldId,
    position,
    ...extra,
  });

  describe('POST /api/vaults/', () => {
    it('adds a vault from JSON at the next free slot, upper-casing the customer', async () => {
      const { wh, field } = await newField();
      const res = await user.request({ method: 'POST', url: '/api/vaults/', payload: regular(field.id, 3) });
      expect(res.statusCode).toBe(201);
      const vault = res.json() as VaultDto;
      expect(vault).toMatchObject({
        name: 'V-1',
        customer_name: 'SMITH',
        order_name: 'O-1',
        note: 'two boxes',
        type: 'vault',
        position: 3,
        field_id: field.id,
        field_name: 'A1',
        warehouse_id: wh.id,
        warehouse_name: wh.name,
        version: 1,
        attachments: [],
      });
      const event = await db()
        .selectFrom('events')
        .select(['kind', 'warehouse_id'])
        .where('entity_id', '=', vault.id)
        .where('kind', '=', 'vault.added')
        .executeTakeFirst();
      expect(event).toEqual({ kind: 'vault.added', warehouse_id: wh.id });
    });

    it('adds a vault from form data with an attachment', async () => {
      const { field } = await newField();
      const form = multipartBody(
        {
          vault_id: '77',
          customer_name: 'Lee',
          order_name: 'L-7',
          type: 'vault',
          note: '',
          field_id: field.id,
          position: 3,
          company_id: other.companyId,
        },
        {
          attachment: {
            fileName: 'inventory.pdf',
            contentType: 'application/pdf',
            content: Buffer.from('%PDF-1.4 test'),
          },
        },
      );
      const res = await user.request({ method: 'POST', url: '/api/vaults/', ...form });
      expect(res.statusCode).toBe(201);
      const vault = res.json() as VaultDto;
      expect(vault).toMatchObject({ name: '77', customer_name: 'LEE', note: null });
      expect(vault.attachments).toHaveLength(1);
      expect(vault.attachments[0]!.file_name).toBe('inventory.pdf');
      const row = await db()
        .selectFrom('vaults')
        .select('company_id')
        .where('id', '=', vault.id)
        .executeTakeFirstOrThrow();
      expect(row.company_id).toBe(user.companyId);
      const download = await user.request({ method: 'GET', url: vault.attachments[0]!.file_url });
      expect(download.body).toBe('%PDF-1.4 test');
    });

    it('fills a field from its highest position downward and refuses beyond capacity', async () => {
      const { field } = await newField();
      for (const position of [3, 2, 1]) {
        const res = await user.request({
          method: 'POST',
          url: '/api/vaults/',
          payload: regular(field.id, position),
        });
        expect(res.statusCode).toBe(201);
      }
      const beyond = await user.request({
        method: 'POST',
        url: '/api/vaults/',
        payload: regular(field.id, 1),
      });
      expect(beyond.statusCode).toBe(409);
      const full = await user.request({ method: 'POST', url: '/api/vaults/', payload: regular(field.id, 4) });
      expect(full.statusCode).toBe(409);
      expect(full.json()).toEqual({ errors: [FIELD_FULL] });
      expect(await vaultsIn(field.id)).toHaveLength(3);
    });

    it('refuses a position that is not the next free slot', async () => {
      const { field } = await newField();
      const res = await user.request({ method: 'POST', url: '/api/vaults/', payload: regular(field.id, 1) });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ errors: [notNextFree(1, 'A1', 3)] });
      expect(await vaultsIn(field.id)).toHaveLength(0);
    });

    it('refuses a field flagged full', async () => {
      const { field } = await newField();
      await user.request({ method: 'PATCH', url: `/api/fields/${field.id}/full`, payload: { full: true } });
      const res = await user.request({ method: 'POST', url: '/api/vaults/', payload: regular(field.id, 3) });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ errors: [FIELD_FULL] });
      expect(await vaultsIn(field.id)).toHaveLength(0);
    });

    it('gives a couchbox field one more slot, takes couchboxes only there, and nothing in its hidden half', async () => {
      const { wh, field } = await newField();
      await makeCouchbox(db(), { companyId: user.companyId, fieldId: field.id });
      for (const position of [4, 3, 2, 1]) {
        const res = await user.request({
          method: 'POST',
          url: '/api/vaults/',
          payload: regular(field.id, position, { type: 'couchbox' }),
        });
        expect(res.statusCode).toBe(201);
      }
      expect(
        (
          await user.request({
            method: 'POST',
            url: '/api/vaults/',
            payload: regular(field.id, 5, { type: 'couchbox' }),
          })
        ).statusCode,
      ).toBe(409);
      const hidden = await user.request({
        method: 'POST',
        url: '/api/vaults/',
        payload: regular(wh.field('A2').id, 3),
      });
      expect(hidden.statusCode).toBe(400);
      expect(hidden.json()).toEqual({ errors: [couchboxBottom('A2')] });
      const plain = await user.request({
        method: 'POST',
        url: '/api/vaults/',
        payload: regular(wh.field('B1').id, 3, { type: 'couchbox' }),
      });
      expect(plain.statusCode).toBe(400);
      expect(plain.json()).toEqual({ errors: [COUCHBOX_FIELD_ONLY] });
      expect(await vaultsIn(wh.field('B1').id)).toHaveLength(0);
    });

    it('stores EMPTY placeholders with their kind as type, no order, and no number for t2 and liftvan', async () => {
      const { wh } = await newField();
      const liftvan = await user.request({
        method: 'POST',
        url: '/api/vaults/',
        payload: regular(wh.field('A1').id, 3, {
          customer_name: 'EMPTY LIFTVAN',
          order_name: 'ignored',
          vault_id: '12',
        }),
      });
      expect(liftvan.statusCode).toBe(201);
      expect(liftvan.json()).toMatchObject({
        customer_name: 'EMPTY LIFTVAN',
        type: 'liftvan',
        name: null,
        order_name: null,
        order_id: null,
      });
      const t2 = await user.request({
        method: 'POST',
        url: '/api/vaults/',
        payload: regular(wh.field('A1').id, 2, { customer_name: 'EMPTY', type: 't2', order_name: '' }),
      });
      expect(t2.json()).toMatchObject({ customer_name: 'EMPTY T2', type: 't2', name: null });
      const vault = await user.request({
        method: 'POST',
        url: '/api/vaults/',
        payload: regular(wh.field('A1').id, 1, {
          customer_name: 'empty vault',
          order_name: undefined,
          vault_id: '55',
        }),
      });
      expect(vault.json()).toMatchObject({ customer_name: 'EMPTY VAULT', type: 'vault', name: '55' });
    });

    it('finds or creates customers and orders by name within the company', async () => {
      const { field } = await newField();
      const first = (
        await user.request({
          method: 'POST',
          url: '/api/vaults/',
          payload: regular(field.id, 3, { customer_name: 'Moss' }),
        })
      ).json();
      const second = (
        await user.request({
          method: 'POST',
          url: '/api/vaults/',
          payload: regular(field.id, 2, { customer_name: 'MOSS' }),
        })
      ).json();
      expect(second.customer_id).toBe(first.customer_id);
      expect(second.order_id).toBe(first.order_id);
      const theirField = (await newField(other.companyId)).field;
      const theirs = (
        await other.request({
          method: 'POST',
          url: '/api/vaults/',
          payload: regular(theirField.id, 3, { customer_name: 'MOSS' }),
        })
      ).json();
      expect(theirs.customer_id).not.toBe(first.customer_id);
    });

    it('answers 400 with messages for invalid input and adds nothing', async () => {
      const { field } = await newField();
      const before = await countOf('vaults', user.companyId);
      const noCustomer = await user.request({
        method: 'POST',
        url: '/api/vaults/',
        payload: regular(field.id, 3, { customer_name: '  ' }),
      });
      expect(noCustomer.statusCode).toBe(400);
      expect(noCustomer.json().errors).toContain('customer_name: Customer name is required.');
      const noOrder = await user.request({
        method: 'POST',
        url: '/api/vaults/',
        payload: regular(field.id, 3, { order_name: '' }),
      });
      expect(noOrder.json().errors).toContain('order_name: Order number is required.');
      const badType = await user.request({
        method: 'POST',
        url: '/api/vaults/',
        payload: regular(field.id, 3, { type: 'crate' }),
      });
      expect(badType.statusCode).toBe(400);
      const noPlace = await user.request({
        method: 'POST',
        url: '/api/vaults/',
        payload: regular(field.id, 3, { field_id: 'x', position: 0 }),
      });
      expect(noPlace.json().errors).toHaveLength(2);
      expect(await countOf('vaults', user.companyId)).toBe(before);
    });

    it('answers 404 for a field of another company and 401 signed out', async () => {
      const { field } = await newField(other.companyId);
      const res = await user.request({ method: 'POST', url: '/api/vaults/', payload: regular(field.id, 3) });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ errors: ['Field not found'] });
      expect(
        (await ctx.app.inject({ method: 'POST', url: '/api/vaults/', payload: regular(field.id, 3) }))
          .statusCode,
      ).toBe(401);
      expect(await vaultsIn(field.id)).toHaveLength(0);
    });

    it('lets one of two simultaneous adds into the same slot win', async () => {
      const { field } = await newField();
      const results = await Promise.all([
        user.request({
          method: 'POST',
          url: '/api/vaults/',
          payload: regular(field.id, 3, { vault_id: 'A' }),
        }),
        user.request({
          method: 'POST',
          url: '/api/vaults/',
          payload: regular(field.id, 3, { vault_id: 'B' }),
        }),
      ]);
      const codes = results.map((r) => r.statusCode).sort();
      expect(codes[0]).toBe(201);
      expect([400, 409]).toContain(codes[1]);
      const loser = results.find((r) => r.statusCode !== 201)!;
      expect(loser.json()).toEqual({ errors: [SLOT_TAKEN] });
      expect(await vaultsIn(field.id)).toHaveLength(1);
    });

    it('answers 413 for an attachment over 5 MB and adds nothing', async () => {
      const { field } = await newField();
      const form = multipartBody(
        { vault_id: '1', customer_name: 'BIG', order_name: 'B-1', field_id: field.id, position: 3 },
        {
          attachment: {
            fileName: 'huge.bin',
            contentType: 'application/octet-stream',
            content: Buffer.alloc(MAX_UPLOAD_BYTES + 1, 1),
          },
        },
      );
      const res = await user.request({ method: 'POST', url: '/api/vaults/', ...form });
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({ errors: ['File size should not exceed 5MB'] });
      expect(await vaultsIn(field.id)).toHaveLength(0);
    });
  });

  describe('GET /api/vaults/{id}', () => {
    it('answers one vault of the company, placed or staged', async () => {
      const { field } = await newField();
      const placed = await buildVault(db(), { companyId: user.companyId, fieldId: field.id, name: 'G-1' });
      const res = await user.request({ method: 'GET', url: `/api/vaults/${placed.id}` });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(placed);
      const staged = await buildStagedVault(db(), { companyId: user.companyId });
      expect((await user.request({ method: 'GET', url: `/api/vaults/${staged.id}` })).json()).toMatchObject({
        field_id: null,
        warehouse_id: null,
      });
    });

    it('tells how many vaults stand above it in its field (its dig-out count)', async () => {
      const { wh, field } = await newField();
      const bottom = await buildVault(db(), { companyId: user.companyId, fieldId: field.id });
      const middle = await buildVault(db(), { companyId: user.companyId, fieldId: field.id });
      const top = await buildVault(db(), { companyId: user.companyId, fieldId: field.id });
      const digOut = async (id: number) =>
        ((await user.request({ method: 'GET', url: `/api/vaults/${id}` })).json() as VaultDto).dig_out;
      expect([await digOut(bottom.id), await digOut(middle.id), await digOut(top.id)]).toEqual([2, 1, 0]);
      const staged = await buildStagedVault(db(), { companyId: user.companyId });
      expect(await digOut(staged.id)).toBeNull();
      const whRes = await user.request({ method: 'GET', url: `/api/warehouse/${wh.id}` });
      const inField = (whRes.json() as { fields: Record<number, FieldDto> }).fields[field.id]!.vaults;
      expect([inField[bottom.id]!.dig_out, inField[middle.id]!.dig_out, inField[top.id]!.dig_out]).toEqual([
        2, 1, 0,
      ]);
    });

    it('answers 404 for another company vault and 401 signed out', async () => {
      const theirs = await buildStagedVault(db(), { companyId: other.companyId });
      expect((await user.request({ method: 'GET', url: `/api/vaults/${theirs.id}` })).statusCode).toBe(404);
      expect((await ctx.app.inject({ method: 'GET', url: `/api/vaults/${theirs.id}` })).statusCode).toBe(401);
    });
  });

  describe('PUT /api/vaults/{id}', () => {
    const edit = (extra: Record<string, unknown> = {}) => ({
      name: 'N-2',
      customer_name: 'new owner',
      order_name: 'O-9',
      note: 'moved',
      ...extra,
    });

    it('edits number, customer, order and note, bumps the version and drops customers nothing uses', async () => {
      const { field } = await newField();
      const vault = await buildVault(db(), {
        companyId: user.companyId,
        fieldId: field.id,
        customerName: 'OLD OWNER',
        orderName: 'OLD-1',
      });
      const res = await user.request({
        method: 'PUT',
        url: `/api/vaults/${vault.id}`,
        payload: edit({ version: 1 }),
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        id: vault.id,
        name: 'N-2',
        customer_name: 'NEW OWNER',
        order_name: 'O-9',
        note: 'moved',
        version: 2,
        position: 3,
      });
      const names = await db()
        .selectFrom('customers')
        .select('name')
        .where('company_id', '=', user.companyId)
        .where('name', '=', 'OLD OWNER')
        .execute();
      expect(names).toHaveLength(0);
      const orders = await db()
        .selectFrom('orders')
        .select('name')
        .where('company_id', '=', user.companyId)
        .where('name', '=', 'OLD-1')
        .execute();
      expect(orders).toHaveLength(0);
    });

    it('turning a filled vault into an EMPTY placeholder clears order, note and attachments', async () => {
      const { field } = await newField();
      const form = multipartBody(
        {
          vault_id: '9',
          customer_name: 'FULL',
          order_name: 'F-1',
          note: 'keep?',
          field_id: field.id,
          position: 3,
        },
        { attachment: { fileName: 'a.txt', contentType: 'text/plain', content: Buffer.from('hello') } },
      );
      const vault = (await user.request({ method: 'POST', url: '/api/vaults/', ...form })).json() as VaultDto;
      expect(vault.attachments).toHaveLength(1);
      const res = await user.request({
        method: 'PUT',
        url: `/api/vaults/${vault.id}`,
        payload: {
          name: '9',
          customer_name: 'EMPTY LIFTVAN',
          order_name: '',
          note: '',
          type: 'liftvan',
          attachments: [],
        },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        customer_name: 'EMPTY LIFTVAN',
        type: 'liftvan',
        order_name: null,
        note: null,
        name: null,
        attachments: [],
      });
      const files = await db()
        .selectFrom('attachments')
        .select('id')
        .where('vault_id', '=', vault.id)
        .execute();
      expect(files).toHaveLength(0);
    });

    it('answers 409 when the vault changed since the client read it', async () => {
      const { field } = await newField();
      const vault = await buildVault(db(), { companyId: user.companyId, fieldId: field.id });
      expect(
        (await user.request({ method: 'PUT', url: `/api/vaults/${vault.id}`, payload: edit({ version: 1 }) }))
          .statusCode,
      ).toBe(200);
      const stale = await user.request({
        method: 'PUT',
        url: `/api/vaults/${vault.id}`,
        payload: edit({ version: 1, note: 'stale' }),
      });
      expect(stale.statusCode).toBe(409);
      expect(stale.json()).toEqual({ errors: [VAULT_CHANGED] });
      const row = await db()
        .selectFrom('vaults')
        .select(['note', 'version'])
        .where('id', '=', vault.id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ note: 'moved', version: 2 });
    });

    it('answers 400 for invalid input and changes nothing', async () => {
      const { field } = await newField();
      const vault = await buildVault(db(), {
        companyId: user.companyId,
        fieldId: field.id,
        customerName: 'STAYS',
      });
      const res = await user.request({
        method: 'PUT',
        url: `/api/vaults/${vault.id}`,
        payload: edit({ customer_name: '' }),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toContain('customer_name: Customer name is required.');
      const couch = await user.request({
        method: 'PUT',
        url: `/api/vaults/${vault.id}`,
        payload: edit({ type: 'couchbox' }),
      });
      expect(couch.json()).toEqual({ errors: [COUCHBOX_FIELD_ONLY] });
      const row = await db()
        .selectFrom('vaults')
        .innerJoin('customers', 'customers.id', 'vaults.customer_id')
        .select(['customers.name', 'vaults.version'])
        .where('vaults.id', '=', vault.id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ name: 'STAYS', version: 1 });
    });

    it('answers 404 for another company vault and 401 signed out', async () => {
      const { field } = await newField(other.companyId);
      const theirs = await buildVault(db(), { companyId: other.companyId, fieldId: field.id });
      expect(
        (await user.request({ method: 'PUT', url: `/api/vaults/${theirs.id}`, payload: edit() })).statusCode,
      ).toBe(404);
      expect(
        (await ctx.app.inject({ method: 'PUT', url: `/api/vaults/${theirs.id}`, payload: edit() }))
          .statusCode,
      ).toBe(401);
    });
  });

  describe('DELETE /api/vaults/{id}', () => {
    it('deletes a placed vault and answers the field it left and its warehouse', async () => {
      const { wh, field } = await newField();
      await buildVault(db(), { companyId: user.companyId, fieldId: field.id });
      const top = await buildVault(db(), {
        companyId: user.companyId,
        fieldId: field.id,
        customerName: 'ONLY HERE',
        orderName: 'OH-1',
      });
      await user.request({ method: 'PATCH', url: `/api/fields/${field.id}/full`, payload: { full: true } });
      const res = await user.request({ method: 'DELETE', url: `/api/vaults/${top.id}` });
      expect(res.statusCode).toBe(200);
      const body = res.json() as {
        deleteFrom: string;
        field: FieldDto;
        warehouse: { id: number; stats: { vaultCount: number } };
      };
      expect(body.deleteFrom).toBe('field');
      expect(body.field).toMatchObject({ id: field.id, full: false });
      expect(Object.keys(body.field.vaults)).toHaveLength(1);
      expect(body.warehouse).toMatchObject({ id: wh.id, stats: { vaultCount: 1 } });
      // the answer is the warehouse as the company list shows it now
      const list = (
        await user.request({ method: 'GET', url: `/api/warehouse/company/${user.companyId}` })
      ).json() as { id: number }[];
      expect(body.warehouse).toEqual(list.find((w) => w.id === wh.id));
      expect(
        await db()
          .selectFrom('customers')
          .select('id')
          .where('company_id', '=', user.companyId)
          .where('name', '=', 'ONLY HERE')
          .execute(),
      ).toHaveLength(0);
      expect(
        await db()
          .selectFrom('orders')
          .select('id')
          .where('company_id', '=', user.companyId)
          .where('name', '=', 'OH-1')
          .execute(),
      ).toHaveLength(0);
    });

    it('answers the counts without the vault, an EMPTY placeholder or a real one', async () => {
      const { wh, field } = await newField(user.companyId, 6);
      const summary = async () =>
        (
          (
            await user.request({ method: 'GET', url: `/api/warehouse/company/${user.companyId}` })
          ).json() as WarehouseSummaryDto[]
        ).find((w) => w.id === wh.id)!;
      const before = await summary();
      const real = await buildVault(db(), {
        companyId: user.companyId,
        fieldId: field.id,
        customerName: 'REAL ONE',
      });
      const placeholder = await buildVault(db(), {
        companyId: user.companyId,
        fieldId: field.id,
        customerName: 'EMPTY VAULT',
      });
      for (const vault of [placeholder, real]) {
        const res = await user.request({ method: 'DELETE', url: `/api/vaults/${vault.id}` });
        expect(res.statusCode).toBe(200);
        expect((res.json() as { warehouse: WarehouseSummaryDto }).warehouse).toEqual(await summary());
      }
      expect(await summary()).toEqual(before);
    });

    it('deletes a staged vault and answers deleteFrom stage', async () => {
      const staged = await buildStagedVault(db(), { companyId: user.companyId });
      const res = await user.request({ method: 'DELETE', url: `/api/vaults/${staged.id}` });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ deleteFrom: 'stage' });
      expect(await db().selectFrom('vaults').select('id').where('id', '=', staged.id).execute()).toHaveLength(
        0,
      );
    });

    it('answers 404 for another company vault (and keeps it), a second delete, and 401 signed out', async () => {
      const theirs = await buildStagedVault(db(), { companyId: other.companyId });
      expect((await user.request({ method: 'DELETE', url: `/api/vaults/${theirs.id}` })).statusCode).toBe(
        404,
      );
      expect((await ctx.app.inject({ method: 'DELETE', url: `/api/vaults/${theirs.id}` })).statusCode).toBe(
        401,
      );
      expect(await db().selectFrom('vaults').select('id').where('id', '=', theirs.id).execute()).toHaveLength(
        1,
      );
      const mine = await buildStagedVault(db(), { companyId: user.companyId });
      expect((await user.request({ method: 'DELETE', url: `/api/vaults/${mine.id}` })).statusCode).toBe(200);
      expect((await user.request({ method: 'DELETE', url: `/api/vaults/${mine.id}` })).statusCode).toBe(404);
    });
  });
});
