import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { PRINT_CSV_HEADER, type PrintVaultDto, printCsvRow } from '@domain/rules/print-order';
import { testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';
import { buildStagedVault, buildVault, buildWarehouse } from '../../factories';

async function sheetRows(content: Buffer): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(content as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  workbook.worksheets[0]!.eachRow((row) => {
    const cells: unknown[] = [];
    for (let i = 1; i <= PRINT_CSV_HEADER.length; i++) cells.push(row.getCell(i).value ?? null);
    rows.push(cells);
  });
  return rows;
}

describe.each(testEngines())("Print Studio's XLSX on %s", (engine) => {
  const { ctx, user: me, other: other } = useTestApp(engine);

  it('holds the CSV columns for exactly the vaults asked for, in their order, and none of another company', async () => {
    const db = ctx.database.db;
    const w = await buildWarehouse(db, { companyId: me.companyId, name: 'North' });
    await buildVault(db, { companyId: me.companyId, fieldId: w.field('A1').id, note: '=SUM(1,2)' });
    await buildVault(db, { companyId: me.companyId, fieldId: w.field('B2').id, customerName: 'KNOX' });
    await buildStagedVault(db, { companyId: me.companyId, customerName: 'WAITING' });
    const foreign = await buildStagedVault(db, { companyId: other.companyId, customerName: 'SOMEONE ELSE' });
    const list = (await me.request({ method: 'GET', url: '/api/vaults/all' })).json() as PrintVaultDto[];
    // a filter in the browser: everything but the KNOX vault, staged first
    const shown = [
      ...list.filter((v) => v.field_name === 'staged'),
      ...list.filter((v) => v.field_name === 'A1'),
    ];
    const res = await me.request({
      method: 'POST',
      url: '/api/export/print-vaults.xlsx',
      payload: { ids: [...shown.map((v) => v.id), foreign.id] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    // a spreadsheet has no empty text: an empty cell reads back as none
    const expected = [PRINT_CSV_HEADER, ...shown.map(printCsvRow)].map((row) =>
      row.map((cell) => (cell === '' ? null : (cell ?? null))),
    );
    expect(await sheetRows(res.rawPayload)).toEqual(expected);
  });

  it('refuses ids that are not a list of numbers', async () => {
    const res = await me.request({
      method: 'POST',
      url: '/api/export/print-vaults.xlsx',
      payload: { ids: 'all' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual(['ids: ids must be a list of vault ids.']);
  });
});
