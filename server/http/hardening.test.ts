import { describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES } from '@domain/rules/capacity';
import { multipartBody } from '../test/multipart-body';
import { buildVault, buildWarehouse } from '../factories';
import { startTestApp, testEngines } from '../test/test-app';
import { useTestApp } from '../test/use-test-app';

// The outside security test's remaining findings: caching, HSTS, body sizes, ids in paths, names.
describe.each(testEngines())('hardening on %s', (engine) => {
  const { ctx, user } = useTestApp(engine, { users: 1 });

  describe('Cache-Control and HSTS', () => {
    it('answers authenticated API calls (and refusals) with Cache-Control: no-store', async () => {
      for (const res of [
        await user.request({ method: 'GET', url: '/api/auth/' }),
        await user.request({ method: 'GET', url: '/api/checklists/' }),
        await user.request({ method: 'GET', url: `/api/warehouse/${user.companyId}/nowhere` }),
        await ctx.app.inject({ method: 'GET', url: '/api/auth/' }),
      ]) {
        expect(res.headers['cache-control']).toBe('no-store');
      }
      // the reads with an ETag may stay in this browser's own cache, but only to be revalidated on every use
      const list = await user.request({ method: 'GET', url: `/api/warehouse/company/${user.companyId}` });
      expect(list.headers.etag).toBeDefined();
      expect(list.headers['cache-control']).toBe('private, no-cache');
    });

    it('sends Strict-Transport-Security only over HTTPS', async () => {
      const plain = await ctx.app.inject({ method: 'GET', url: '/api/health' });
      expect(plain.headers['strict-transport-security']).toBeUndefined();

      const secure = await startTestApp(engine, { COOKIE_SECURE: 'true' });
      const proxied = await startTestApp(engine, { TRUST_PROXY: 'true' });
      try {
        const viaConfig = await secure.app.inject({ method: 'GET', url: '/api/health' });
        expect(viaConfig.headers['strict-transport-security']).toMatch(/max-age=\d+/);
        const viaProxy = await proxied.app.inject({
          method: 'GET',
          url: '/api/health',
          headers: { 'x-forwarded-proto': 'https' },
        });
        expect(viaProxy.headers['strict-transport-security']).toMatch(/max-age=\d+/);
        const plainProxy = await proxied.app.inject({ method: 'GET', url: '/api/health' });
        expect(plainProxy.headers['strict-transport-security']).toBeUndefined();
      } finally {
        await secure.close();
        await proxied.close();
      }
    });
  });

  describe('finding 12: body sizes', () => {
    const big = (bytes: number) => ({
      filled_out_by: 'x',
      email: 'a@b.c',
      password: 'x',
      pad: 'x'.repeat(bytes),
    });

    it('signed-out routes refuse large JSON with 413 before reading it (the finding: about 6 MB)', async () => {
      for (const [url, bytes] of [
        ['/api/auth/login', 20 * 1024],
        ['/api/contact', 200 * 1024],
        ['/api/checklists/1', 20 * 1024],
        ['/api/auth/login', 6 * 1024 * 1024],
      ] as const) {
        const res = await ctx.app.inject({
          method: url.startsWith('/api/checklists') ? 'PATCH' : 'POST',
          url,
          payload: big(bytes),
        });
        expect(res.statusCode, `${url} ${bytes}`).toBe(413);
        expect(res.json()).toEqual({ errors: ['The request is too large.'] });
      }
    });

    it('signed-in JSON routes take 100 kB at most; the upload routes still take a 5 MB file', async () => {
      const warehouse = await buildWarehouse(ctx.database.db, {
        companyId: user.companyId,
        rows: 1,
        cols: 1,
      });
      const tooBig = await user.request({
        method: 'POST',
        url: '/api/warehouse/add-warehouse',
        payload: {
          name: 'Big',
          rows: 1,
          cols: 1,
          field_capacity: 1,
          length: 1,
          width: 1,
          pad: 'x'.repeat(110_000),
        },
      });
      expect(tooBig.statusCode).toBe(413);

      const vault = await buildVault(ctx.database.db, {
        companyId: user.companyId,
        fieldId: warehouse.field('A1').id,
        customerName: 'BIG FILE',
        orderName: 'O-1',
        name: 'V-BIG',
      });
      const res = await user.request({
        method: 'POST',
        url: '/api/vaults/upload',
        ...multipartBody(
          { vault_id: vault.id },
          {
            attachment: {
              fileName: 'scan.pdf',
              contentType: 'application/pdf',
              content: Buffer.alloc(MAX_UPLOAD_BYTES, 1),
            },
          },
        ),
      });
      expect(res.statusCode, res.body).toBe(201);
    });
  });

  describe('ids in paths are plain decimal integers', () => {
    it('answers 404 for 0x4, 4e0, %204, +4, 04 and 4.0 where 4 is a real id', async () => {
      const warehouse = await buildWarehouse(ctx.database.db, {
        companyId: user.companyId,
        rows: 1,
        cols: 1,
      });
      const id = warehouse.id;
      expect((await user.request({ method: 'GET', url: `/api/warehouse/${id}` })).statusCode).toBe(200);
      for (const form of [
        `0x${id.toString(16)}`,
        `${id}e0`,
        `%20${id}`,
        `+${id}`,
        `0${id}`,
        `${id}.0`,
        `${id}%20`,
      ]) {
        const res = await user.request({ method: 'GET', url: `/api/warehouse/${form}` });
        expect(res.statusCode, form).toBe(404);
      }
    });
  });

  describe('names refuse control and text-direction characters, and . or ..', () => {
    const addWarehouse = (name: string) =>
      user.request({
        method: 'POST',
        url: '/api/warehouse/add-warehouse',
        payload: { name, rows: 1, cols: 1, field_capacity: 1, length: 10, width: 10 },
      });

    it('warehouse names', async () => {
      for (const name of [
        '.',
        '..',
        ' .. ',
        'Main\u0000A',
        'Main\u202EA',
        'Main\u2066A',
        'Main\u200FA',
        'Tab\tName',
      ]) {
        const res = await addWarehouse(name);
        expect(res.statusCode, JSON.stringify(name)).toBe(400);
        expect((res.json() as { errors: string[] }).errors.join(' ')).toMatch(/Name cannot/);
      }
      expect((await addWarehouse('Main . Depot')).statusCode).toBe(201);
    });

    it('customer names, rack names, pallet names, attachment file names and checklist answers', async () => {
      const warehouse = await buildWarehouse(ctx.database.db, {
        companyId: user.companyId,
        rows: 1,
        cols: 1,
      });
      const vaultRes = await user.request({
        method: 'POST',
        url: '/api/vaults/',
        payload: {
          vault_id: 'V-1',
          customer_name: 'ACME\u202Etxt.exe',
          order_name: 'O-1',
          type: 'vault',
          field_id: warehouse.field('A1').id,
          position: 1,
        },
      });
      expect(vaultRes.statusCode).toBe(400);
      expect(vaultRes.body).toContain('Customer name cannot contain');

      const rack = await user.request({
        method: 'POST',
        url: `/api/racks/warehouse/${warehouse.id}/add`,
        payload: { name: 'Rack\u0007', capacity: 1, num_shelves: 1, width: 1, length: 1 },
      });
      expect(rack.statusCode).toBe(400);

      const vault = await buildVault(ctx.database.db, {
        companyId: user.companyId,
        fieldId: warehouse.field('A1').id,
        customerName: 'FILES',
        orderName: 'O-2',
        name: 'V-2',
      });
      const file = await user.request({
        method: 'POST',
        url: '/api/vaults/upload',
        ...multipartBody(
          { vault_id: vault.id },
          {
            attachment: {
              fileName: 'invoice\u202Efdp.exe',
              contentType: 'application/pdf',
              content: Buffer.from('%PDF'),
            },
          },
        ),
      });
      expect(file.statusCode).toBe(400);
      expect(file.json()).toEqual({
        errors: ['File name cannot contain control characters or text-direction marks.'],
      });

      const checklist = await user.request({
        method: 'POST',
        url: '/api/checklists/',
        payload: { warehouse_id: warehouse.id, tasks: ['Sweep'] },
      });
      const { id, tasks } = checklist.json() as { id: number; tasks: { id: number }[] };
      const answer = await user.request({
        method: 'PATCH',
        url: `/api/checklists/${id}`,
        payload: { filled_out_by: 'Mallory\u202E', tasks: [{ id: tasks[0]!.id, completed: true }] },
      });
      expect(answer.statusCode).toBe(400);
    });
  });
});
