import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toCsv } from '../../../domain/rules/csv';
import { PRINT_CSV_HEADER, type PrintVaultDto, printCsvRow } from '../../../domain/rules/print-order';
import type { ImportDryRunDto } from '../../../domain/schemas/import.schema';
import { findInvariantViolations } from '../../test/invariants.repo';
import { multipartBody } from '../../test/multipart-body';
import { type SignedIn, type TestContext, signIn, startTestApp, testEngines } from '../../test/test-app';
import { buildStagedVault, buildVault, buildWarehouse } from '../warehouses/warehouses.factories';
import {
  NO_ORDER_COLUMN,
  numberInFile,
  numberStored,
  repeatedNumberInFile,
  repeatedNumberStored,
} from './vault-import';

/** Exports that import back unchanged (issue 17): Print Studio's files, and a company with repeated vault numbers. */
describe.each(testEngines())('files that import back on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp(engine);
  });
  afterAll(async () => {
    await ctx.close();
  });
  const db = () => ctx.database.db;

  const send = (
    as: SignedIn,
    url: string,
    content: Buffer,
    fields: Record<string, string>,
    fileName: string,
  ) =>
    as.request({
      method: 'POST',
      url,
      ...multipartBody(fields, { file: { fileName, contentType: 'application/octet-stream', content } }),
    });
  const printList = async (as: SignedIn) =>
    (await as.request({ method: 'GET', url: '/api/vaults/all' })).json() as PrintVaultDto[];
  /** Print Studio's lines without the ids, which differ between companies. */
  const printLines = async (as: SignedIn) => (await printList(as)).map((v) => printCsvRow(v));

  it("imports Print Studio's CSV and XLSX back unchanged, without orders, and says so", async () => {
    const source = await signIn(ctx);
    const w = await buildWarehouse(db(), {
      companyId: source.companyId,
      name: 'Print Hall',
      rows: 3,
      cols: 2,
    });
    await buildVault(db(), {
      companyId: source.companyId,
      fieldId: w.field('A1').id,
      note: 'fragile, "top"',
    });
    await buildVault(db(), { companyId: source.companyId, fieldId: w.field('A1').id, type: 'liftvan' });
    await buildVault(db(), {
      companyId: source.companyId,
      fieldId: w.field('B2').id,
      customerName: 'EMPTY T2',
    });
    await buildStagedVault(db(), { companyId: source.companyId, note: '=1+2' });
    const listed = await printList(source);
    // the browser's file: a byte-order mark and the spec's seven columns
    const csvFile = Buffer.from(`\uFEFF${toCsv(PRINT_CSV_HEADER, listed.map(printCsvRow))}`);
    const xlsx = await source.request({
      method: 'POST',
      url: '/api/export/print-vaults.xlsx',
      payload: { ids: listed.map((v) => v.id) },
    });
    expect(xlsx.statusCode).toBe(200);
    const expected = await printLines(source);
    for (const [name, content] of [
      ['vaults.csv', csvFile],
      ['vaults.xlsx', xlsx.rawPayload],
    ] as const) {
      const target = await signIn(ctx);
      const fields = { create_warehouses: 'true' };
      const dry = await send(target, '/api/import/vaults/dry-run', content, fields, name);
      const plan = dry.json() as ImportDryRunDto;
      expect(plan.problems).toEqual([]);
      expect(plan.warnings).toEqual([{ row: 1, column: 'Order', message: NO_ORDER_COLUMN }]);
      const res = await send(target, '/api/import/vaults', content, fields, name);
      expect(res.statusCode, res.body).toBe(201);
      expect(await printLines(target)).toEqual(expected);
      const orders = await db()
        .selectFrom('vaults')
        .select('order_id')
        .where('company_id', '=', target.companyId)
        .execute();
      expect(orders.every((o) => o.order_id === null)).toBe(true);
      expect(await findInvariantViolations(db(), target.companyId)).toEqual([]);
    }
  });

  it('still requires an order when the file has an order column', async () => {
    const me = await signIn(ctx);
    const file = Buffer.from(toCsv(['Customer', 'Order', 'Vault Number'], [['SMITH', '', 'N-1']]));
    const plan = (await send(me, '/api/import/vaults/dry-run', file, {}, 'v.csv')).json() as ImportDryRunDto;
    expect(plan.problems.map((p) => [p.row, p.column, p.message])).toEqual([
      [2, 'Order', 'Order number is required.'],
    ]);
  });

  it('refuses repeated vault numbers unless allowed, and then a company with repeats round-trips', async () => {
    const source = await signIn(ctx);
    const w = await buildWarehouse(db(), {
      companyId: source.companyId,
      name: 'Twin Hall',
      rows: 2,
      cols: 2,
    });
    // the API accepts a vault number twice (spec); so does a legitimately exported company
    await buildVault(db(), { companyId: source.companyId, fieldId: w.field('A1').id, name: 'TWIN-1' });
    await buildVault(db(), { companyId: source.companyId, fieldId: w.field('B2').id, name: 'TWIN-1' });
    await buildStagedVault(db(), { companyId: source.companyId, name: 'twin-1' }); // stored in capitals, as the API does
    const exported = await source.request({ method: 'GET', url: '/api/export/vaults.csv' });
    const target = await signIn(ctx);
    const refused = (
      await send(
        target,
        '/api/import/vaults/dry-run',
        exported.rawPayload,
        { create_warehouses: 'true' },
        'v.csv',
      )
    ).json() as ImportDryRunDto;
    expect(refused.problems.map((p) => p.message)).toEqual([
      numberInFile('TWIN-1', 2),
      numberInFile('TWIN-1', 2),
    ]);
    const allowed = { create_warehouses: 'true', allow_repeated_numbers: 'true' };
    const plan = (
      await send(target, '/api/import/vaults/dry-run', exported.rawPayload, allowed, 'v.csv')
    ).json() as ImportDryRunDto;
    expect(plan.problems).toEqual([]);
    expect(plan.warnings.map((p) => p.message)).toEqual([
      repeatedNumberInFile('TWIN-1', 2),
      repeatedNumberInFile('TWIN-1', 2),
    ]);
    const res = await send(target, '/api/import/vaults', exported.rawPayload, allowed, 'v.csv');
    expect(res.statusCode, res.body).toBe(201);
    expect(await printLines(target)).toEqual(await printLines(source));

    // against stored vaults: refused by default, a note when allowed
    const again = Buffer.from(toCsv(['Customer', 'Order', 'Vault Number'], [['SMITH', 'O-9', 'TWIN-1']]));
    const stored = (
      await send(target, '/api/import/vaults/dry-run', again, {}, 'v.csv')
    ).json() as ImportDryRunDto;
    expect(stored.problems.map((p) => p.message)).toEqual([numberStored('TWIN-1')]);
    const noted = (
      await send(target, '/api/import/vaults/dry-run', again, { allow_repeated_numbers: 'true' }, 'v.csv')
    ).json() as ImportDryRunDto;
    expect([noted.problems, noted.warnings.map((p) => p.message)]).toEqual([
      [],
      [repeatedNumberStored('TWIN-1')],
    ]);
  });
});
