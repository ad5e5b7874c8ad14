import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { fieldName } from '@domain/rules/field-names';
import { type PrintVaultDto, sortForPrint } from '@domain/rules/print-order';
import { nowIso } from '../../db/database';
import { signIn, testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';
import { buildWarehouse } from '../../factories';

// Issue 11: the streamed Print Studio list must be, byte for byte, the answer the plain implementation gave: one
// query, every line presented, sorted with the shared rule, one JSON text.
describe.each(testEngines())('GET /api/vaults/all streamed on %s', (engine) => {
  const { ctx, user } = useTestApp(engine, { users: 1 });

  beforeAll(async () => {
    const db = ctx.database.db;
    const companyId = user.companyId;
    // names that only sort right naturally and case-blind, and more vaults than one page or chunk holds
    const warehouses = [];
    for (const name of ['Warehouse 10', 'warehouse 2', 'Annex', 'Ünter Lager'])
      warehouses.push(await buildWarehouse(db, { companyId, name, rows: 15, cols: 15, fieldCapacity: 5 }));
    const customers = await db
      .insertInto('customers')
      .values(
        ['SMITH', 'EMPTY VAULT', 'Ødegård', 'O"Neil \\ co', 'KNOX'].map((name) => ({
          company_id: companyId,
          name,
        })),
      )
      .returning('id')
      .execute();
    const vaults = [];
    let n = 0;
    for (const warehouse of warehouses) {
      for (const field of warehouse.fields) {
        const stack = (field.col * 7 + field.row) % 6; // 0..5 vaults, bottom up from slot 5
        for (let k = 0; k < stack; k++) {
          n++;
          vaults.push({
            company_id: companyId,
            name: n % 13 === 0 ? null : `V-${n}`,
            customer_id: customers[n % customers.length]!.id,
            field_id: field.id,
            position: 5 - k,
            type: n % 11 === 0 ? 'liftvan' : 'vault',
            note: n % 5 === 0 ? `note "${n}", ümlaut\nline two\u2028` : null,
            created_at: nowIso(),
            updated_at: nowIso(),
          });
        }
      }
    }
    // more staged vaults than one page holds, too
    for (let s = 0; s < 1100; s++) {
      vaults.push({
        company_id: companyId,
        name: `S-${s}`,
        customer_id: customers[s % customers.length]!.id,
        field_id: null,
        position: null,
        type: 'vault',
        note: s % 2 === 0 ? 'staged' : null,
        created_at: nowIso(),
        updated_at: nowIso(),
      });
    }
    // shuffled ids: the database's order must not be what sorts them
    vaults.sort((a, b) => ((a.name ?? '') < (b.name ?? '') ? -1 : 1));
    for (let i = 0; i < vaults.length; i += 300)
      await db
        .insertInto('vaults')
        .values(vaults.slice(i, i + 300))
        .execute();
    expect(vaults.length).toBeGreaterThan(2000);
  });

  /** The plain implementation, kept here as the reference. */
  async function reference(): Promise<string> {
    const rows = await sql<{
      id: number;
      name: string | null;
      customer_name: string;
      type: string;
      position: number | null;
      note: string | null;
      col: number | null;
      row: number | null;
      warehouse_name: string | null;
    }>`
      select v.id, v.name, c.name as customer_name, v.type, v.position, v.note, f.col, f.row, w.name as warehouse_name
      from vaults v
      join customers c on c.id = v.customer_id
      left join fields f on f.id = v.field_id
      left join warehouses w on w.id = f.warehouse_id
      where v.company_id = ${user.companyId}
      order by v.id`.execute(ctx.database.db);
    const lines: PrintVaultDto[] = rows.rows.map((r) => ({
      id: Number(r.id),
      name: r.name,
      customer_name: r.customer_name,
      type: r.type,
      position: r.col === null ? null : Number(r.position),
      field_name: r.col === null ? 'staged' : fieldName(Number(r.col), Number(r.row)),
      warehouse_name: r.warehouse_name ?? '',
      note: r.note,
    }));
    return JSON.stringify(sortForPrint(lines));
  }

  it('answers byte for byte what the plain implementation gives', async () => {
    const res = await user.request({ method: 'GET', url: '/api/vaults/all' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    const expected = await reference();
    expect(res.body.length).toBe(expected.length);
    expect(res.body === expected).toBe(true);
  });

  it('answers an empty list for a company without vaults', async () => {
    const empty = await signIn(ctx);
    const res = await empty.request({ method: 'GET', url: '/api/vaults/all' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('[]');
  });

  it('streams the same bytes compressed', async () => {
    const res = await user.request({
      method: 'GET',
      url: '/api/vaults/all',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(res.headers['content-encoding']).toBe('gzip');
    const { gunzipSync } = await import('node:zlib');
    expect(gunzipSync(res.rawPayload).toString('utf8') === (await reference())).toBe(true);
  });
});
