import { describe, expect, it } from 'vitest';
import { toCsv } from '@domain/rules/csv';
import { PRINT_CSV_HEADER, type PrintVaultDto, printCsvRow } from '@domain/rules/print-order';
import type { ImportDryRunDto } from '@domain/schemas/import.schema';
import { findInvariantViolations } from '../../test/invariants.repo';
import { postSheet } from '../../test/multipart-body';
import { type SignedIn, signIn, testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';
import {
  buildPallet,
  buildRack,
  buildStagedVault,
  buildVault,
  buildWarehouse,
  makeCouchbox,
} from '../../factories';
import { belowIsPaired, noFieldBelow } from '../fields/fields.service';
import { couchboxBottom, plainFieldOnly } from '../vaults/vaults.service';
import { MISSING_RACK, MISSING_RACK_CREATE, missingShelf, rackDiffers, rackPlacement } from './pallet-import';
import {
  FIELD_FULL_WORDS,
  FIELD_TYPE_WORDS,
  NO_ORDER_COLUMN,
  beyondCapacity,
  differsFromRow,
  layoutDiffers,
  outsideGrid,
  numberInFile,
  numberStored,
  repeatedNumberInFile,
  repeatedNumberStored,
} from './vault-import';

/** Exports that import back unchanged (issue 17): Print Studio's files, and a company with repeated vault numbers. */
describe.each(testEngines())('files that import back on %s', (engine) => {
  const { ctx } = useTestApp(engine, { users: 0 });
  const db = () => ctx.database.db;

  const send = (
    as: SignedIn,
    url: string,
    content: Buffer,
    fields: Record<string, string>,
    fileName: string,
  ) => postSheet(as, url, content, { fileName, contentType: 'application/octet-stream', fields });
  const printList = async (as: SignedIn) =>
    (await as.request({ method: 'GET', url: '/api/vaults/all' })).json() as PrintVaultDto[];
  /** Print Studio's lines without the ids, which differ between companies. */
  const printLines = async (as: SignedIn) => (await printList(as)).map((v) => printCsvRow(v));

  /** Everything of a company's warehouses and vaults an import can make, by name (ids differ between companies). */
  const companyData = async (companyId: number) => {
    const warehouses = await db()
      .selectFrom('warehouses')
      .select(['name', 'rows', 'cols', 'field_capacity', 'length', 'width', 'grid_x', 'grid_y'])
      .where('company_id', '=', companyId)
      .orderBy('name')
      .execute();
    const fields = await db()
      .selectFrom('fields as f')
      .innerJoin('warehouses as w', 'w.id', 'f.warehouse_id')
      .select(['w.name as warehouse', 'f.col', 'f.row', 'f.type', 'f.full'])
      .where('f.company_id', '=', companyId)
      .execute();
    const vaults = await db()
      .selectFrom('vaults as v')
      .innerJoin('customers as c', 'c.id', 'v.customer_id')
      .leftJoin('orders as o', 'o.id', 'v.order_id')
      .leftJoin('fields as f', 'f.id', 'v.field_id')
      .leftJoin('warehouses as w', 'w.id', 'f.warehouse_id')
      .select(['v.name', 'c.name as customer', 'o.name as order', 'v.type', 'v.note', 'v.position'])
      .select(['f.col', 'f.row', 'w.name as warehouse'])
      .where('v.company_id', '=', companyId)
      .execute();
    const sorted = (rows: object[]) => rows.map((r) => JSON.stringify(r)).sort();
    return {
      warehouses: warehouses.map((w) => ({
        ...w,
        length: Number(w.length),
        width: Number(w.width),
        grid_x: Number(w.grid_x),
        grid_y: Number(w.grid_y),
      })),
      fields: sorted(fields.map((f) => ({ ...f, full: Number(f.full) }))),
      vaults: sorted(vaults),
    };
  };

  it('recreates warehouses, couchboxes, full fields and vaults exactly in an empty company, from CSV and XLSX', async () => {
    const source = await signIn(ctx);
    const companyId = source.companyId;
    const alpha = await buildWarehouse(db(), {
      companyId,
      name: 'Alpha',
      rows: 4,
      cols: 3,
      fieldCapacity: 4,
      length: 120.5,
      width: 80,
      gridX: 40,
      gridY: 10,
    });
    // a couchbox with vaults (B1 over B2), one without (C3 over C4), a full field with and one without vaults
    await makeCouchbox(db(), { companyId, fieldId: alpha.field('B1').id });
    await makeCouchbox(db(), { companyId, fieldId: alpha.field('C3').id });
    for (let i = 0; i < 5; i++)
      await buildVault(db(), {
        companyId,
        fieldId: alpha.field('B1').id,
        type: 'couchbox',
      });
    await buildVault(db(), { companyId, fieldId: alpha.field('A2').id, customerName: 'EMPTY LIFTVAN' });
    await buildVault(db(), { companyId, fieldId: alpha.field('A2').id });
    for (const name of ['A2', 'A4']) {
      const res = await source.request({
        method: 'PATCH',
        url: `/api/fields/${alpha.field(name).id}/full`,
        payload: { full: true },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    // an empty warehouse of its own size
    await buildWarehouse(db(), {
      companyId,
      name: 'Beta',
      rows: 2,
      cols: 5,
      fieldCapacity: 2,
      length: 10,
      width: 7,
    });
    await buildStagedVault(db(), { companyId, note: 'waiting' });
    const expected = await companyData(companyId);
    expect(expected.fields.filter((f) => f.includes('couchbox'))).toHaveLength(4);

    for (const format of ['csv', 'xlsx'] as const) {
      const exported = await source.request({ method: 'GET', url: `/api/export/vaults.${format}` });
      expect(exported.statusCode).toBe(200);
      const target = await signIn(ctx);
      const fields = { create_warehouses: 'true' };
      const plan = (
        await send(target, '/api/import/vaults/dry-run', exported.rawPayload, fields, `v.${format}`)
      ).json() as ImportDryRunDto;
      expect(plan.problems).toEqual([]);
      expect(plan.new_warehouses).toEqual([
        { name: 'Alpha', rows: 4, cols: 3, field_capacity: 4 },
        { name: 'Beta', rows: 2, cols: 5, field_capacity: 2 },
      ]);
      const res = await send(target, '/api/import/vaults', exported.rawPayload, fields, `v.${format}`);
      expect(res.statusCode, res.body).toBe(201);
      expect(await companyData(target.companyId)).toEqual(expected);
      expect(await findInvariantViolations(db(), target.companyId)).toEqual([]);
      // and the target's export is the source's file again
      const again = await target.request({ method: 'GET', url: '/api/export/vaults.csv' });
      if (format === 'csv') expect(again.body).toBe(exported.body);
    }
  });

  it('checks the layout columns: words, agreeing rows, room for the fields, and a stored warehouse as it is', async () => {
    const me = await signIn(ctx);
    await buildWarehouse(db(), {
      companyId: me.companyId,
      name: 'Stored',
      rows: 2,
      cols: 2,
      fieldCapacity: 3,
    });
    const header = [
      'Warehouse',
      'Field',
      'Position',
      'Customer',
      'Order',
      'Field Type',
      'Field Full',
      'Warehouse Rows',
      'Field Capacity',
    ];
    const file = Buffer.from(
      toCsv(header, [
        ['New', 'A1', 3, 'SMITH', 'O-1', 'round', 'maybe', 2, 3],
        ['New', 'A2', 3, 'SMITH', 'O-1', 'vault', '', 3, 3],
        ['New', 'B1', '', '', '', 'couchbox', '', '', ''],
        ['New', 'B2', '', '', '', 'couchbox', '', '', ''],
        ['New', 'B3', 3, 'SMITH', 'O-1', '', '', '', ''],
        ['New', 'C1', '', '', '', 'couchbox', '', '', ''],
        ['New', 'C2', 3, 'SMITH', 'O-1', '', '', '', ''],
        ['New', 'C1', 5, 'SMITH', 'O-1', '', '', '', ''],
        ['Stored', 'A1', 3, 'SMITH', 'O-1', 'couchbox', 'yes', 5, ''],
      ]),
    );
    const plan = (
      await send(me, '/api/import/vaults/dry-run', file, { create_warehouses: 'true' }, 'v.csv')
    ).json() as ImportDryRunDto;
    expect(plan.problems.map((p) => [p.row, p.column, p.message])).toEqual([
      [2, 'Field Type', FIELD_TYPE_WORDS],
      [2, 'Field Full', FIELD_FULL_WORDS],
      [3, 'Warehouse Rows', differsFromRow(2, 2)],
      [4, 'Field Type', belowIsPaired('B2')],
      [5, 'Field Type', noFieldBelow('B2')],
      [6, 'Field', outsideGrid('B3', 3, 2)],
      [8, 'Field', couchboxBottom('C2')],
      [9, 'Position', beyondCapacity(5, 'C1', 4)],
      [9, 'Type', plainFieldOnly('vault', 'C1')],
      [10, 'Warehouse Rows', layoutDiffers('Warehouse Rows', 2)],
      [10, 'Field Type', layoutDiffers('Field Type', 'vault')],
      [10, 'Field Full', layoutDiffers('Field Full', 'no')],
    ]);
  });

  it('recreates racks, shelves and pallets in an empty company from the vault and pallet exports', async () => {
    const source = await signIn(ctx);
    const companyId = source.companyId;
    const w = await buildWarehouse(db(), {
      companyId,
      name: 'Rack Hall',
      rows: 2,
      cols: 2,
      length: 100,
      width: 90,
    });
    const r1 = await buildRack(db(), {
      companyId,
      warehouseId: w.id,
      name: 'R1',
      x: 20,
      y: 30,
      width: 4,
      length: 12.5,
      shelves: 3,
      capacity: 6,
    });
    await buildRack(db(), {
      companyId,
      warehouseId: w.id,
      name: 'R2',
      x: 50,
      y: 50,
      width: 3,
      length: 8,
      orientation: 'vertical',
      shelves: 2,
      capacity: 4,
    });
    await buildPallet(db(), {
      companyId,
      shelfId: r1.shelfIds[0]!,
      customer: 'SMITH',
      slotIndex: 2,
      spots: 3,
    });
    await buildPallet(db(), {
      companyId,
      shelfId: r1.shelfIds[2]!,
      customer: 'JONES',
      slotIndex: 0,
      name: 'books',
      palletNumber: 'P-7',
      weight: 40.5,
      notes: 'top',
    });
    const racksOf = async (id: number) => ({
      racks: (
        await db()
          .selectFrom('racks as r')
          .innerJoin('warehouses as w', 'w.id', 'r.warehouse_id')
          .select([
            'w.name as w',
            'r.name',
            'r.orientation',
            'r.width',
            'r.length',
            'r.x',
            'r.y',
            'r.capacity',
          ])
          .where('r.company_id', '=', id)
          .orderBy('r.name')
          .execute()
      ).map((r) => ({
        ...r,
        width: Number(r.width),
        length: Number(r.length),
        x: Number(r.x),
        y: Number(r.y),
      })),
      shelves: (
        await db()
          .selectFrom('shelves as s')
          .innerJoin('racks as r', 'r.id', 's.rack_id')
          .select(['r.name', 's.position', 's.capacity'])
          .where('s.company_id', '=', id)
          .execute()
      )
        .map((r) => JSON.stringify(r))
        .sort(),
      pallets: (
        await db()
          .selectFrom('pallets as p')
          .innerJoin('shelves as s', 's.id', 'p.shelf_id')
          .innerJoin('racks as r', 'r.id', 's.rack_id')
          .innerJoin('customers as c', 'c.id', 'p.customer_id')
          .select(['r.name as r', 's.position', 'p.slot_index', 'p.shelf_spots', 'c.name as c'])
          .select(['p.name', 'p.pallet_number', 'p.weight', 'p.notes'])
          .where('p.company_id', '=', id)
          .execute()
      )
        .map((r) => JSON.stringify({ ...r, weight: Number(r.weight) }))
        .sort(),
    });
    const expected = await racksOf(companyId);
    expect(expected.racks).toHaveLength(2);
    const vaults = await source.request({ method: 'GET', url: '/api/export/vaults.csv' });
    for (const format of ['csv', 'xlsx'] as const) {
      const pallets = await source.request({ method: 'GET', url: `/api/export/pallets.${format}` });
      const target = await signIn(ctx);
      const create = { create_warehouses: 'true' };
      const made = await send(target, '/api/import/vaults', vaults.rawPayload, create, 'v.csv');
      expect(made.statusCode, made.body).toBe(201);
      // without the choice the racks are missing; with it they are created, pallets and all
      const refused = (
        await send(target, '/api/import/pallets/dry-run', pallets.rawPayload, {}, `p.${format}`)
      ).json() as ImportDryRunDto;
      expect(new Set(refused.problems.map((p) => p.message))).toEqual(new Set([MISSING_RACK]));
      const res = await send(target, '/api/import/pallets', pallets.rawPayload, create, `p.${format}`);
      expect(res.statusCode, res.body).toBe(201);
      expect(await racksOf(target.companyId)).toEqual(expected);
      expect(await findInvariantViolations(db(), target.companyId)).toEqual([]);
    }
  });

  it('creates a rack only where the rule of adding one by hand lets it stand', async () => {
    const me = await signIn(ctx);
    await buildWarehouse(db(), {
      companyId: me.companyId,
      name: 'Small',
      rows: 2,
      cols: 2,
      length: 40,
      width: 40,
    });
    const header = [
      'Warehouse',
      'Rack',
      'Shelf',
      'Customer',
      'Spaces',
      'Weight',
      'Rack Shelves',
      'Shelf Capacity',
      'Rack Width',
      'Rack Length',
      'Rack X',
      'Rack Y',
    ];
    const file = Buffer.from(
      toCsv(header, [
        ['Small', 'On the fields', 1, 'SMITH', 1, 10, 2, 4, 3, 3, 1, 1],
        ['Small', 'Outside', 1, 'SMITH', 1, 10, 2, 4, 3, 3, 39, 20],
        ['Small', 'Fine', 1, 'SMITH', 1, 10, 2, 4, 3, 3, 20, 20],
        ['Small', 'Fine', 2, 'SMITH', 1, 10, 3, 4, 3, 3, 20, 20],
        ['Small', 'Unsaid', 1, 'SMITH', 1, 10, '', '', '', '', '', ''],
        ['Small', 'Fine', 3, 'SMITH', 1, 10, '', '', '', '', '', ''],
      ]),
    );
    const plan = (
      await send(me, '/api/import/pallets/dry-run', file, { create_warehouses: 'true' }, 'p.csv')
    ).json() as ImportDryRunDto;
    expect(plan.problems.map((p) => [p.row, p.column, p.message])).toEqual([
      [2, 'Rack X', rackPlacement('it overlaps the VAULTS field block.')],
      [3, 'Rack X', rackPlacement('the rack must stay inside the warehouse walls.')],
      [5, 'Rack', rackDiffers(4)],
      [6, 'Rack', MISSING_RACK_CREATE],
      [7, 'Shelf', missingShelf('3', 2)],
    ]);
  });

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
