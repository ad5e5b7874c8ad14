import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { toCsv } from '@domain/rules/csv';
import type { ImportDryRunDto, ImportRecordDto } from '@domain/schemas/import.schema';
import { findInvariantViolations } from '../../test/invariants.repo';
import { type SignedIn, signIn, testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';
import { postSheet } from '../../test/multipart-body';
import { countRows } from '../../test/row-count.repo';
import { COUCHBOX_FIELD_ONLY, FIELD_FULL, couchboxBottom } from '../vaults/vaults.service';
import { buildStagedVault, buildVault, buildWarehouse, makeCouchbox } from '../../factories';
import { ALREADY_UNDONE, importChanged } from './import.service';
import {
  POSITION_REQUIRED,
  STAGED_HAS_POSITION,
  beyondCapacity,
  leavesGap,
  missingColumn,
  missingField,
  MISSING_WAREHOUSE,
  notAFieldName,
  notAPosition,
  numberInFile,
  numberStored,
  slotInFile,
  slotTaken,
} from './vault-import';

const HEADER = ['Warehouse', 'Field', 'Position', 'Vault Number', 'Customer', 'Order', 'Type', 'Note'];
type Line = (string | number | null)[];
const csv = (lines: Line[], header: string[] = HEADER) => Buffer.from(toCsv(header, lines));

describe.each(testEngines())('vault import on %s', (engine) => {
  const { ctx } = useTestApp(engine, { users: 0 });
  const db = () => ctx.database.db;

  const send = (
    as: SignedIn,
    url: string,
    content: Buffer,
    fields: Record<string, string> = {},
    fileName = 'vaults.csv',
  ) => postSheet(as, url, content, { fileName, contentType: 'text/csv', fields });
  const dryRun = async (as: SignedIn, content: Buffer, fields: Record<string, string> = {}) => {
    const res = await send(as, '/api/import/vaults/dry-run', content, fields);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as ImportDryRunDto;
  };
  const vaultCount = (companyId: number) => countRows(db(), 'vaults', companyId);

  it('recognises the headers, places vaults, stages rows without a field, records the import and undoes it', async () => {
    const me = await signIn(ctx);
    const w = await buildWarehouse(db(), { companyId: me.companyId, name: 'Main' });
    const file = csv([
      ['Main', 'A1', 3, 'V-1', 'smith', 'O-1', 'vault', 'piano'],
      ['Main', 'A1', 2, 'V-2', 'SMITH', 'O-1', '', null],
      ['', '', '', 'V-3', 'jones', 'O-2', 'liftvan', null],
      ['Main', 'B2', 3, null, 'EMPTY T2', null, null, null],
    ]);
    const plan = await dryRun(me, file);
    expect(plan.problems).toEqual([]);
    expect(plan.mapping).toMatchObject({
      warehouse: 'Warehouse',
      field: 'Field',
      vault_number: 'Vault Number',
    });
    expect([plan.row_count, plan.placed_count, plan.staged_count]).toEqual([4, 3, 1]);
    expect(await vaultCount(me.companyId)).toBe(0);

    const res = await send(me, '/api/import/vaults', file);
    expect(res.statusCode, res.body).toBe(201);
    const record = res.json() as ImportRecordDto;
    const who = await db()
      .selectFrom('users')
      .select('username')
      .where('id', '=', me.userId)
      .executeTakeFirstOrThrow();
    expect(record.username).toBe(who.username);
    expect(record).toMatchObject({
      kind: 'vaults',
      file_name: 'vaults.csv',
      row_count: 4,
    });
    const warehouse = (await me.request({ method: 'GET', url: `/api/warehouse/${w.id}` })).json();
    const a1 = Object.values(warehouse.fields as Record<string, { name: string; vaults: object }>).find(
      (f) => f.name === 'A1',
    )!;
    const vaults = Object.values(
      a1.vaults as Record<string, { name: string; position: number; customer_name: string }>,
    );
    expect(vaults.map((v) => [v.name, v.position, v.customer_name]).sort()).toEqual([
      ['V-1', 3, 'SMITH'],
      ['V-2', 2, 'SMITH'],
    ]);
    const staged = Object.values((await me.request({ method: 'GET', url: '/api/stage/vaults' })).json());
    expect(staged).toMatchObject([{ name: 'V-3', customer_name: 'JONES', type: 'liftvan' }]);
    const events = await db()
      .selectFrom('events')
      .select(['kind', 'warehouse_id'])
      .where('company_id', '=', me.companyId)
      .where('kind', '=', 'vaults.imported')
      .execute();
    expect(events.map((e) => e.warehouse_id).sort()).toEqual([null, w.id].sort());
    expect(await findInvariantViolations(db(), me.companyId)).toEqual([]);
    const list = (await me.request({ method: 'GET', url: '/api/imports' })).json() as ImportRecordDto[];
    expect(list.map((i) => i.id)).toEqual([record.id]);

    const undo = await me.request({ method: 'POST', url: `/api/imports/${record.id}/undo` });
    expect(undo.statusCode, undo.body).toBe(200);
    expect((undo.json() as ImportRecordDto).undone_at).not.toBeNull();
    expect(await vaultCount(me.companyId)).toBe(0);
    expect(await findInvariantViolations(db(), me.companyId)).toEqual([]);
    const customers = await db()
      .selectFrom('customers')
      .select('name')
      .where('company_id', '=', me.companyId)
      .execute();
    expect(customers).toEqual([]);
    const again = await me.request({ method: 'POST', url: `/api/imports/${record.id}/undo` });
    expect(again.statusCode).toBe(409);
    expect(again.json().errors).toEqual([ALREADY_UNDONE]);
  });

  it('refuses the undo once one of the vaults changed, and keeps everything', async () => {
    const me = await signIn(ctx);
    await buildWarehouse(db(), { companyId: me.companyId, name: 'Main' });
    const record = (
      await send(
        me,
        '/api/import/vaults',
        csv([
          ['Main', 'A1', 3, 'V-1', 'SMITH', 'O-1', 'vault', null],
          ['Main', 'A2', 3, 'V-2', 'SMITH', 'O-1', 'vault', null],
        ]),
      )
    ).json() as ImportRecordDto;
    const vault = await db()
      .selectFrom('vaults')
      .select('id')
      .where('name', '=', 'V-2')
      .where('company_id', '=', me.companyId)
      .executeTakeFirstOrThrow();
    const edit = await me.request({
      method: 'PUT',
      url: `/api/vaults/${vault.id}`,
      payload: { name: 'V-2', customer_name: 'SMITH', order_name: 'O-9' },
    });
    expect(edit.statusCode).toBe(200);
    const undo = await me.request({ method: 'POST', url: `/api/imports/${record.id}/undo` });
    expect(undo.statusCode).toBe(409);
    expect(undo.json().errors).toEqual([importChanged(1)]);
    expect(await vaultCount(me.companyId)).toBe(2);
  });

  it('lists every problem with its row and column, and a refused commit writes nothing', async () => {
    const me = await signIn(ctx);
    const w = await buildWarehouse(db(), { companyId: me.companyId, name: 'Main', rows: 4, cols: 3 });
    await buildVault(db(), { companyId: me.companyId, fieldId: w.field('C1').id, name: 'OLD-1' });
    await makeCouchbox(db(), { companyId: me.companyId, fieldId: w.field('B1').id });
    await me.request({
      method: 'PATCH',
      url: `/api/fields/${w.field('C4').id}/full`,
      payload: { full: true },
    });
    await buildStagedVault(db(), { companyId: me.companyId, name: 'OLD-2' });
    const lines: Line[] = [
      ['Nowhere', 'A1', 3, 'N-1', 'X', 'O', 'vault', null], // 2: warehouse missing
      ['Main', 'Z9', 3, 'N-2', 'X', 'O', 'vault', null], // 3: field missing
      ['Main', '1A', 3, 'N-3', 'X', 'O', 'vault', null], // 4: not a field name
      ['Main', 'A1', 'top', 'N-4', 'X', 'O', 'vault', null], // 5: not a position
      ['Main', 'A1', 4, 'N-5', 'X', 'O', 'vault', null], // 6: beyond capacity
      ['Main', 'A2', 3, 'N-6', 'X', 'O', 'couchbox', null], // 7: couchbox in a vault field
      ['Main', 'A3', 3, 'N-7', 'X', 'O', 'crate', null], // 8: type not allowed
      ['Main', 'A4', 3, 'N-8', 'X', 'O', 'vault', null], // 9: fine
      ['Main', 'A4', 3, 'N-9', 'X', 'O', 'vault', null], // 10: two vaults in one slot
      ['Main', 'C1', 3, 'N-10', 'X', 'O', 'vault', null], // 11: slot taken by a stored vault
      ['Main', 'C2', 1, 'N-11', 'X', 'O', 'vault', null], // 12: gap below it
      ['Main', 'C3', 3, 'N-12', 'X', 'O', 'vault', null], // 13: fine
      ['Main', 'C3', 3, 'N-12', 'X', 'O', 'vault', null], // 14: number twice + slot twice
      ['Main', 'A2', 2, 'OLD-2', 'X', 'O', 'vault', null], // 15: number stored (and a gap: A2 has nothing at 3)
      ['Main', 'B2', 3, 'N-14', 'X', 'O', 'vault', null], // 16: couchbox bottom
      ['Main', 'C4', 3, 'N-15', 'X', 'O', 'vault', null], // 17: field full
      ['Main', 'B3', '', 'N-16', 'X', 'O', 'vault', null], // 18: position missing
      ['', 'staged', 2, 'N-17', 'X', 'O', 'vault', null], // 19: staged with a position
      ['Main', 'B4', 3, 'N-18', '', 'O', 'vault', null], // 20: customer missing
      ['Main', 'A3', 3, 'N-19', 'X', '', 'vault', null], // 21: order missing for a real customer
    ];
    const plan = await dryRun(me, csv(lines));
    const seen = plan.problems.map((p) => [p.row, p.column, p.message]);
    expect(seen).toEqual(
      expect.arrayContaining([
        [2, 'Warehouse', MISSING_WAREHOUSE],
        [3, 'Field', missingField('Z9', 'Main')],
        [4, 'Field', notAFieldName('1A')],
        [5, 'Position', notAPosition('top')],
        [6, 'Position', beyondCapacity(4, 'A1', 3)],
        [7, 'Type', COUCHBOX_FIELD_ONLY],
        [8, 'Type', 'Type must be vault, liftvan, t2 or couchbox.'],
        [10, 'Position', slotInFile('A4', 3, 9)],
        [11, 'Position', slotTaken('C1', 3)],
        [12, 'Position', leavesGap(1, 'C2', [3])],
        [14, 'Vault Number', numberInFile('N-12', 13)],
        [14, 'Position', slotInFile('C3', 3, 13)],
        [15, 'Vault Number', numberStored('OLD-2')],
        [16, 'Field', couchboxBottom('B2')],
        [17, 'Field', FIELD_FULL],
        [18, 'Position', POSITION_REQUIRED],
        [19, 'Position', STAGED_HAS_POSITION],
        [20, 'Customer', 'Customer name is required.'],
        [21, 'Order', 'Order number is required.'],
      ]),
    );
    // row 9 and 13 are fine; every other row has at least one problem
    expect(new Set(plan.problems.map((p) => p.row))).toEqual(
      new Set([2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 14, 15, 16, 17, 18, 19, 20, 21]),
    );
    const before = await vaultCount(me.companyId);
    const res = await send(me, '/api/import/vaults', csv(lines));
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0]).toBe('Nothing was imported: the file has problems.');
    expect(await vaultCount(me.companyId)).toBe(before);
    expect(
      await db().selectFrom('imports').select('id').where('company_id', '=', me.companyId).execute(),
    ).toEqual([]);
  });

  it('follows a changed mapping, and says when a required column has none', async () => {
    const me = await signIn(ctx);
    await buildWarehouse(db(), { companyId: me.companyId, name: 'Depot' });
    const header = ['Site', 'Spot', 'Level', 'Crate', 'Who', 'Job', 'Kind', 'Remarks'];
    const file = csv([['Depot', 'A1', 3, 'K-1', 'LEE', 'J-1', 'vault', 'x']], header);
    const recognised = await dryRun(me, file);
    // 'Site' and 'Level' are known names; 'Who' is not
    expect(recognised.mapping).toMatchObject({ warehouse: 'Site', position: 'Level' });
    expect(recognised.problems).toContainEqual({
      row: 1,
      column: 'Customer',
      message: missingColumn('Customer'),
    });
    const mapping = JSON.stringify({
      warehouse: 'Site',
      field: 'Spot',
      position: 'Level',
      vault_number: 'Crate',
      customer: 'Who',
      order: 'Job',
      type: 'Kind',
      note: 'Remarks',
    });
    expect((await dryRun(me, file, { mapping })).problems).toEqual([]);
    const res = await send(me, '/api/import/vaults', file, { mapping });
    expect(res.statusCode, res.body).toBe(201);
    const row = await db()
      .selectFrom('vaults')
      .select(['name', 'note', 'position'])
      .where('company_id', '=', me.companyId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ name: 'K-1', note: 'x', position: 3 });
  });

  it('creates missing warehouses from the dimensions of the file when asked', async () => {
    const me = await signIn(ctx);
    const file = csv([
      ['New Hall', 'C5', 4, 'H-1', 'SMITH', 'O-1', 'vault', null],
      ['New Hall', 'C5', 3, 'H-2', 'SMITH', 'O-1', 'vault', null],
      ['New Hall', 'C5', 2, 'H-3', 'SMITH', 'O-1', 'vault', null],
      ['New Hall', 'C5', 1, 'H-4', 'SMITH', 'O-1', 'vault', null],
    ]);
    expect((await dryRun(me, file)).problems[0]!.message).toBe(MISSING_WAREHOUSE);
    const plan = await dryRun(me, file, { create_warehouses: 'true' });
    expect(plan.problems).toEqual([]);
    expect(plan.new_warehouses).toEqual([{ name: 'New Hall', rows: 5, cols: 3, field_capacity: 4 }]);
    const res = await send(me, '/api/import/vaults', file, { create_warehouses: 'true' });
    expect(res.statusCode, res.body).toBe(201);
    const record = res.json() as ImportRecordDto;
    expect(record.created_warehouses).toHaveLength(1);
    const warehouse = (
      await me.request({ method: 'GET', url: `/api/warehouse/${record.created_warehouses[0]}` })
    ).json();
    expect([warehouse.name, warehouse.rows, warehouse.cols, warehouse.field_capacity]).toEqual([
      'New Hall',
      5,
      3,
      4,
    ]);
    // the undo takes the warehouse it created with it
    expect((await me.request({ method: 'POST', url: `/api/imports/${record.id}/undo` })).statusCode).toBe(
      200,
    );
    const left = await db()
      .selectFrom('warehouses')
      .select('id')
      .where('company_id', '=', me.companyId)
      .execute();
    expect(left).toEqual([]);
  });

  it('exports CSV and XLSX that import back into an empty company as the same vaults', async () => {
    const source = await signIn(ctx);
    const w = await buildWarehouse(db(), { companyId: source.companyId, name: 'Main', rows: 3, cols: 2 });
    await buildVault(db(), {
      companyId: source.companyId,
      fieldId: w.field('A1').id,
      note: '=SUM(1,2) "quoted", ünïcode',
    });
    await buildVault(db(), { companyId: source.companyId, fieldId: w.field('A1').id, type: 'liftvan' });
    await buildVault(db(), {
      companyId: source.companyId,
      fieldId: w.field('B3').id,
      customerName: 'EMPTY VAULT',
    });
    await buildVault(db(), {
      companyId: source.companyId,
      fieldId: w.field('B2').id,
      customerName: 'EMPTY T2',
    });
    await buildStagedVault(db(), { companyId: source.companyId, note: 'line one\nline two' });
    const snapshot = async (companyId: number) =>
      (
        await db()
          .selectFrom('vaults as v')
          .innerJoin('customers as c', 'c.id', 'v.customer_id')
          .leftJoin('orders as o', 'o.id', 'v.order_id')
          .leftJoin('fields as f', 'f.id', 'v.field_id')
          .leftJoin('warehouses as wh', 'wh.id', 'f.warehouse_id')
          .select([
            'v.name',
            'c.name as customer',
            'o.name as order',
            'v.type',
            'v.note',
            'v.position',
            'f.col',
            'f.row',
            'wh.name as warehouse',
          ])
          .where('v.company_id', '=', companyId)
          .execute()
      )
        .map((r) => JSON.stringify(r))
        .sort();
    const expected = await snapshot(source.companyId);
    for (const format of ['csv', 'xlsx'] as const) {
      const exported = await source.request({ method: 'GET', url: `/api/export/vaults.${format}` });
      expect(exported.statusCode).toBe(200);
      const target = await signIn(ctx);
      const res = await send(
        target,
        '/api/import/vaults',
        exported.rawPayload,
        { create_warehouses: 'true' },
        `vaults.${format}`,
      );
      expect(res.statusCode, res.body).toBe(201);
      expect(await snapshot(target.companyId)).toEqual(expected);
      expect(await findInvariantViolations(db(), target.companyId)).toEqual([]);
    }
  });

  it('reads an XLSX file and refuses formula and date cells with their row and column', async () => {
    const me = await signIn(ctx);
    await buildWarehouse(db(), { companyId: me.companyId, name: 'Main' });
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Vaults');
    sheet.addRow(HEADER);
    sheet.addRow(['Main', 'A1', 3, 'X-1', 'SMITH', 'O-1', 'vault', 'ok']);
    sheet.addRow(['Main', 'A2', { formula: '1+2', result: 3 }, 'X-2', 'SMITH', 'O-1', 'vault', null]);
    sheet.addRow(['Main', 'A3', 3, 'X-3', 'SMITH', 'O-1', 'vault', new Date('2024-01-02')]);
    const content = Buffer.from(await workbook.xlsx.writeBuffer());
    const res = await send(me, '/api/import/vaults/dry-run', content, {}, 'v.xlsx');
    const plan = res.json() as ImportDryRunDto;
    expect(plan.problems.map((p) => [p.row, p.column])).toEqual([
      [3, 'Position'],
      [4, 'Note'],
    ]);
    expect(plan.placed_count).toBe(1);
  });
});
