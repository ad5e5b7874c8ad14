import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES } from '@domain/rules/capacity';
import type { ImportDryRunDto } from '@domain/schemas/import.schema';
import { testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';
import { multipartBody, postSheet } from '../../test/multipart-body';
import { countRows } from '../../test/row-count.repo';
import { buildWarehouse } from '../../factories';
import { MISSING_IMPORT_FILE } from './import.routes';
import { MAX_IMPORT_ROWS } from '@domain/rules/import-columns';
import { INVALID_MAPPING, NOTHING_TO_IMPORT } from './import.service';
import {
  BROKEN_CSV,
  BROKEN_XLSX,
  EMPTY_FILE,
  FORMULA_CELL,
  NOT_A_SPREADSHEET,
  PROTECTED_OR_OLD_XLSX,
  TOO_MANY_ROWS,
} from './read-sheet';
import { unknownHeader } from './vault-import';
import { xlsxStream } from './write-sheet';

const HEADER = 'Warehouse,Field,Position,Vault Number,Customer,Order,Type,Note';

/** One row over the limit, written once (by the export's streaming writer) for both engines. */
let overLimit: Promise<Buffer> | undefined;
const tooManyRowsXlsx = () => {
  overLimit ??= (async () => {
    const rows = Array.from({ length: MAX_IMPORT_ROWS + 1 }, () => ['', '', '', '', 'X']);
    const chunks: Buffer[] = [];
    for await (const chunk of xlsxStream('Vaults', HEADER.split(','), rows)) chunks.push(Buffer.from(chunk));
    return Buffer.concat(chunks);
  })();
  return overLimit;
};

describe.each(testEngines())('bad import files on %s', (engine) => {
  const { ctx, user: me } = useTestApp(engine, { users: 1 });
  beforeAll(async () => {
    await buildWarehouse(ctx.database.db, { companyId: me.companyId, name: 'Main' });
  });

  const send = (url: string, content: Buffer, fileName = 'vaults.csv') =>
    postSheet(me, url, content, { fileName, contentType: 'application/octet-stream' });
  const vaultCount = () => countRows(ctx.database.db, 'vaults', me.companyId);

  it.each([
    [
      'a PNG image',
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]),
      NOT_A_SPREADSHEET,
    ],
    [
      'a password-protected XLSX (or an old .xls)',
      Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(512, 1)]),
      PROTECTED_OR_OLD_XLSX,
    ],
    ['an empty file', Buffer.alloc(0), EMPTY_FILE],
    [
      'a CSV with a quote never closed',
      Buffer.from(`${HEADER}\r\nMain,A1,3,"V-1,SMITH,O,vault,x\r\n`),
      BROKEN_CSV(2),
    ],
  ])('refuses %s with a clear 400 and writes nothing', async (_label, content, message) => {
    for (const url of ['/api/import/vaults/dry-run', '/api/import/vaults']) {
      const res = await send(url, content);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().errors).toEqual([message]);
    }
    expect(await vaultCount()).toBe(0);
  });

  it('refuses a damaged XLSX file', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Vaults').addRow(HEADER.split(','));
    const whole = Buffer.from(await workbook.xlsx.writeBuffer());
    const res = await send('/api/import/vaults', whole.subarray(0, Math.floor(whole.length / 2)), 'v.xlsx');
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([BROKEN_XLSX]);
  });

  it('refuses a file over the upload limit with the limit in the message', async () => {
    const res = await send('/api/import/vaults/dry-run', Buffer.alloc(MAX_UPLOAD_BYTES + 1024, 0x41));
    expect(res.statusCode).toBe(413);
    expect(res.json().errors).toEqual(['File size should not exceed 5MB']);
  });

  it('refuses a CSV or XLSX with more rows than the limit, naming it, and writes nothing', async () => {
    const csvLines = [HEADER, ...Array.from({ length: MAX_IMPORT_ROWS + 1 }, () => ',,,,X')];
    for (const [name, content] of [
      ['v.csv', Buffer.from(csvLines.join('\r\n'))],
      ['v.xlsx', await tooManyRowsXlsx()],
    ] as const) {
      const res = await send('/api/import/vaults', content, name);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().errors).toEqual([TOO_MANY_ROWS]);
    }
    expect(TOO_MANY_ROWS).toContain('50,000');
    expect(await vaultCount()).toBe(0);
  });

  it('refuses a workbook whose first sheet is empty', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Vaults');
    const content = Buffer.from(await workbook.xlsx.writeBuffer());
    const res = await send('/api/import/vaults/dry-run', content, 'v.xlsx');
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([EMPTY_FILE]);
  });

  it('lists a formula typed into a CSV cell with its row and column, but reads a guarded one as text', async () => {
    const file = Buffer.from(
      `${HEADER}\r\nMain,A1,3,V-1,SMITH,O-1,vault,=HYPERLINK("x")\r\nMain,A2,3,V-2,SMITH,O-1,vault,'=1+2\r\n`,
    );
    const plan = (await send('/api/import/vaults/dry-run', file)).json() as ImportDryRunDto;
    expect(plan.problems.map((p) => [p.row, p.column, p.message])).toEqual([[2, 'Note', FORMULA_CELL]]);
  });

  it('refuses a mapping it cannot read and a file with nothing to import', async () => {
    const file = Buffer.from(`${HEADER}\r\nMain,A1,3,V-1,SMITH,O-1,vault,x\r\n`);
    const mapped = (mapping: string) =>
      me.request({
        method: 'POST',
        url: '/api/import/vaults/dry-run',
        ...multipartBody(
          { mapping },
          { file: { fileName: 'v.csv', contentType: 'text/csv', content: file } },
        ),
      });
    for (const mapping of ['{not json', '["Customer"]', '{"customer": 5}']) {
      const res = await mapped(mapping);
      expect(res.statusCode, mapping).toBe(400);
      expect(res.json().errors).toEqual([INVALID_MAPPING]);
    }
    const unknown = (await mapped('{"customer": "Client"}')).json() as ImportDryRunDto;
    expect(unknown.problems).toEqual([{ row: 1, column: 'Customer', message: unknownHeader('Client') }]);
    const headerOnly = await send('/api/import/vaults', Buffer.from(`${HEADER}\r\n`));
    expect(headerOnly.statusCode).toBe(400);
    expect(headerOnly.json().errors).toEqual([NOTHING_TO_IMPORT]);
  });

  it('asks for a file when the form has none', async () => {
    const res = await me.request({ method: 'POST', url: '/api/import/vaults/dry-run', ...multipartBody({}) });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([MISSING_IMPORT_FILE]);
  });

  it.each([
    ['UTF-8 without a byte-order mark', Buffer.from(`${HEADER}\r\nMain,A1,3,V-1,MÜLLER,O-1,vault,café\r\n`)],
    [
      'UTF-8 with a byte-order mark',
      Buffer.from(`\uFEFF${HEADER}\r\nMain,A1,3,V-1,MÜLLER,O-1,vault,café\r\n`),
    ],
    ['Windows-1252', Buffer.from(`${HEADER}\r\nMain,A1,3,V-1,M\u00dcLLER,O-1,vault,caf\u00e9\r\n`, 'latin1')],
    ['semicolons', Buffer.from(`${HEADER.replace(/,/g, ';')}\r\nMain;A1;3;V-1;MÜLLER;O-1;vault;café\r\n`)],
  ])('reads %s', async (_label, content) => {
    const res = await send('/api/import/vaults/dry-run', content);
    expect(res.statusCode, res.body).toBe(200);
    const plan = res.json() as ImportDryRunDto;
    expect(plan.problems).toEqual([]);
    expect(plan.mapping.customer).toBe('Customer');
    expect(plan.placed_count).toBe(1);
    const commit = await send('/api/import/vaults', content);
    expect(commit.statusCode, commit.body).toBe(201);
    const row = await ctx.database.db
      .selectFrom('vaults as v')
      .innerJoin('customers as c', 'c.id', 'v.customer_id')
      .select(['c.name', 'v.note'])
      .where('v.company_id', '=', me.companyId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ name: 'MÜLLER', note: 'café' });
    const undo = await me.request({ method: 'POST', url: `/api/imports/${commit.json().id}/undo` });
    expect(undo.statusCode).toBe(200);
  });

  it('offers the templates as CSV and XLSX, and each imports its example row', async () => {
    for (const file of ['vaults.csv', 'vaults.xlsx']) {
      const res = await me.request({ method: 'GET', url: `/api/import/templates/${file}` });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-disposition']).toContain(`import-template-${file}`);
      const plan = (await send('/api/import/vaults/dry-run', res.rawPayload, file)).json() as ImportDryRunDto;
      expect(plan.row_count).toBe(1);
      // the example names a warehouse the company does not have; everything else about it is right
      expect(plan.problems.map((p) => p.column)).toEqual(['Warehouse']);
    }
    expect((await me.request({ method: 'GET', url: '/api/import/templates/__proto__' })).statusCode).toBe(
      404,
    );
  });
});
