import { beforeAll, describe, expect, it } from 'vitest';
import { toCsv } from '@domain/rules/csv';
import { PRINT_CSV_HEADER, type PrintVaultDto, printCsvRow } from '@domain/rules/print-order';
import { buildStagedVault, buildVault, buildWarehouse, uniqueSuffix } from '../../factories';
import { signIn, testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';

describe.each(testEngines())('GET /api/vaults/all on %s', (engine) => {
  const { ctx, user } = useTestApp(engine, { users: 1 });
  let list: PrintVaultDto[];
  const suffix = uniqueSuffix();

  beforeAll(async () => {
    const db = ctx.database.db;
    const companyId = user.companyId;
    // created out of order on purpose: the answer must be sorted by the server
    const beta = await buildWarehouse(db, { companyId, name: `Beta ${suffix}`, rows: 2, cols: 1 });
    const alpha = await buildWarehouse(db, { companyId, name: `alpha ${suffix}`, rows: 10, cols: 2 });
    await buildVault(db, {
      companyId,
      fieldId: beta.field('A1').id,
      name: 'B-1',
      customerName: 'BETA CUSTOMER',
    });
    await buildVault(db, { companyId, fieldId: alpha.field('A10').id, name: 'A10-3', customerName: 'SMITH' });
    await buildVault(db, { companyId, fieldId: alpha.field('B1').id, name: 'B1-3', customerName: 'SMITH' });
    await buildVault(db, {
      companyId,
      fieldId: alpha.field('A2').id,
      name: 'A2-3',
      customerName: 'KNOX',
      note: 'Fragile, "handle" with care',
    });
    await buildVault(db, {
      companyId,
      fieldId: alpha.field('A2').id,
      name: 'A2-2',
      customerName: 'ZANG',
      note: '=HYPERLINK("x")',
    });
    await buildVault(db, {
      companyId,
      fieldId: alpha.field('A1').id,
      name: 'A1-3',
      customerName: 'EMPTY VAULT',
      type: 'vault',
    });
    await buildStagedVault(db, { companyId, name: 'S-1', customerName: 'STAGED CUSTOMER', note: 'waiting' });

    const stranger = await signIn(ctx);
    const theirs = await buildWarehouse(db, {
      companyId: stranger.companyId,
      name: `alpha ${suffix}`,
      rows: 1,
      cols: 1,
    });
    await buildVault(db, {
      companyId: stranger.companyId,
      fieldId: theirs.field('A1').id,
      name: 'THEIRS',
      customerName: 'OTHER CO',
    });
    await buildStagedVault(db, { companyId: stranger.companyId, name: 'THEIRS-STAGED' });

    const res = await user.request({ method: 'GET', url: '/api/vaults/all' });
    expect(res.statusCode).toBe(200);
    list = res.json() as PrintVaultDto[];
  });

  it('answers 401 when signed out', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/vaults/all' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ errors: ['Unauthorized'] });
  });

  it('lists only the company’s vaults, staged ones included', () => {
    const names = list.map((v) => v.name);
    expect(names).not.toContain('THEIRS');
    expect(names).not.toContain('THEIRS-STAGED');
    expect(list).toHaveLength(7);
  });

  it('sorts by warehouse name, then field name naturally (A2 before A10), then position numerically', () => {
    expect(list.map((v) => `${v.warehouse_name}|${v.field_name}|${v.position}|${v.name}`)).toEqual([
      `|staged|null|S-1`,
      `alpha ${suffix}|A1|3|A1-3`,
      `alpha ${suffix}|A2|2|A2-2`,
      `alpha ${suffix}|A2|3|A2-3`,
      `alpha ${suffix}|A10|3|A10-3`,
      `alpha ${suffix}|B1|3|B1-3`,
      `Beta ${suffix}|A1|3|B-1`,
    ]);
  });

  it('shapes each line explicitly: staged vaults have field "staged" and an empty warehouse', () => {
    const staged = list[0]!;
    expect(staged).toEqual({
      id: expect.any(Number),
      name: 'S-1',
      customer_name: 'STAGED CUSTOMER',
      type: 'vault',
      position: null,
      field_name: 'staged',
      warehouse_name: '',
      note: 'waiting',
    });
    expect(Object.keys(list[1]!).sort()).toEqual([
      'customer_name',
      'field_name',
      'id',
      'name',
      'note',
      'position',
      'type',
      'warehouse_name',
    ]);
  });

  it('makes a CSV with the spec header, RFC 4180 quoting and formula-safe cells', () => {
    const csv = toCsv(PRINT_CSV_HEADER, list.map(printCsvRow));
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe('Vault Name,Customer Name,Vault Type,Position,Field Name,Warehouse Name,Notes');
    expect(lines[1]).toBe('S-1,STAGED CUSTOMER,vault,,staged,,waiting');
    expect(lines[3]).toBe(`A2-2,ZANG,vault,2,A2,alpha ${suffix},"'=HYPERLINK(""x"")"`);
    expect(lines[4]).toBe(`A2-3,KNOX,vault,3,A2,alpha ${suffix},"Fragile, ""handle"" with care"`);
    expect(lines).toHaveLength(list.length + 2);
    expect(lines.at(-1)).toBe('');
  });
});
