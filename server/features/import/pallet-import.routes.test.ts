import { describe, expect, it } from 'vitest';
import { toCsv } from '@domain/rules/csv';
import type { ImportDryRunDto, ImportRecordDto } from '@domain/schemas/import.schema';
import { PALLET_OVERLAP, shelfSpaceMessage } from '@domain/schemas/rack.schema';
import { type SignedIn, signIn, testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';
import { buildPallet, buildRack, buildWarehouse } from '../../factories';
import { postSheet } from '../../test/multipart-body';
import { MISSING_RACK, missingShelf } from './pallet-import';
import { MISSING_WAREHOUSE } from './vault-import';

const HEADER = [
  'Warehouse',
  'Rack',
  'Shelf',
  'Slot',
  'Customer',
  'Pallet Name',
  'Pallet Number',
  'Spaces',
  'Weight',
  'Notes',
];
type Line = (string | number | null)[];
const csv = (lines: Line[]) => Buffer.from(toCsv(HEADER, lines));

describe.each(testEngines())('pallet import on %s', (engine) => {
  const { ctx } = useTestApp(engine, { users: 0 });
  const db = () => ctx.database.db;
  const send = (as: SignedIn, url: string, content: Buffer, fileName = 'pallets.csv') =>
    postSheet(as, url, content, { fileName, contentType: 'text/csv' });
  const pallets = async (companyId: number) =>
    (
      await db()
        .selectFrom('pallets as p')
        .innerJoin('shelves as s', 's.id', 'p.shelf_id')
        .innerJoin('racks as r', 'r.id', 's.rack_id')
        .innerJoin('warehouses as w', 'w.id', 'r.warehouse_id')
        .innerJoin('customers as c', 'c.id', 'p.customer_id')
        .select([
          'w.name as w',
          'r.name as r',
          's.position',
          'p.slot_index',
          'c.name as c',
          'p.name',
          'p.pallet_number',
          'p.shelf_spots',
          'p.weight',
          'p.notes',
        ])
        .where('p.company_id', '=', companyId)
        .execute()
    )
      .map((r) => JSON.stringify({ ...r, position: Number(r.position), weight: Number(r.weight) }))
      .sort();

  it('checks the shelf-space rules row by row, imports all or none, and undoes the import', async () => {
    const me = await signIn(ctx);
    const w = await buildWarehouse(db(), { companyId: me.companyId, name: 'Main' });
    const rack = await buildRack(db(), {
      companyId: me.companyId,
      warehouseId: w.id,
      name: 'R1',
      shelves: 2,
      capacity: 4,
    });
    await buildPallet(db(), {
      companyId: me.companyId,
      shelfId: rack.shelfIds[0]!,
      customer: 'OLD',
      slotIndex: 0,
      spots: 2,
    });
    const bad: Line[] = [
      ['Nowhere', 'R1', 1, 3, 'SMITH', 'Books', 'P-1', 1, 10, null], // 2
      ['Main', 'R9', 1, 3, 'SMITH', 'Books', 'P-2', 1, 10, null], // 3
      ['Main', 'R1', 5, 3, 'SMITH', 'Books', 'P-3', 1, 10, null], // 4
      ['Main', 'R1', 1, 2, 'SMITH', 'Books', 'P-4', 1, 10, null], // 5: onto the stored pallet
      ['Main', 'R1', 1, 3, 'SMITH', 'Books', 'P-5', 2, 10, null], // 6: fine (slots 3-4)
      ['Main', 'R1', 1, '', 'SMITH', 'Books', 'P-6', 1, 10, null], // 7: the shelf is full now
      ['Main', 'R1', 2, 1, '', 'Books', 'P-7', 1, 'heavy', null], // 8: no customer, weight not a number
    ];
    const plan = (await send(me, '/api/import/pallets/dry-run', csv(bad))).json() as ImportDryRunDto;
    expect(plan.problems.map((p) => [p.row, p.column, p.message])).toEqual(
      expect.arrayContaining([
        [2, 'Warehouse', MISSING_WAREHOUSE],
        [3, 'Rack', MISSING_RACK],
        [4, 'Shelf', missingShelf('5', 2)],
        [5, 'Slot', PALLET_OVERLAP],
        [7, 'Spaces', shelfSpaceMessage(4, 0)],
        [8, 'Weight', 'Weight must be a number.'],
        [8, 'Customer', 'Customer name is required.'],
      ]),
    );
    expect(plan.problems.some((p) => p.row === 6)).toBe(false);
    const before = await pallets(me.companyId);
    expect((await send(me, '/api/import/pallets', csv(bad))).statusCode).toBe(400);
    expect(await pallets(me.companyId)).toEqual(before);

    const good: Line[] = [
      ['Main', 'R1', 1, 3, 'smith', 'Books', 'P-5', 2, 10.5, 'top'],
      ['Main', 'r1', 2, '', 'JONES', null, null, 1, null, null],
    ];
    const res = await send(me, '/api/import/pallets', csv(good));
    expect(res.statusCode, res.body).toBe(201);
    const record = res.json() as ImportRecordDto;
    expect([record.kind, record.placed_count]).toEqual(['pallets', 2]);
    expect(await pallets(me.companyId)).toHaveLength(3);
    const undo = await me.request({ method: 'POST', url: `/api/imports/${record.id}/undo` });
    expect(undo.statusCode, undo.body).toBe(200);
    expect(await pallets(me.companyId)).toEqual(before);
  });

  it('exports pallets as CSV and XLSX that import back into a company with the same racks', async () => {
    const source = await signIn(ctx);
    const w = await buildWarehouse(db(), { companyId: source.companyId, name: 'Main' });
    const rack = await buildRack(db(), {
      companyId: source.companyId,
      warehouseId: w.id,
      name: 'R1',
      shelves: 2,
      capacity: 5,
    });
    await buildPallet(db(), {
      companyId: source.companyId,
      shelfId: rack.shelfIds[0]!,
      customer: 'SMITH',
      slotIndex: 1,
      spots: 2,
      name: 'books',
      palletNumber: 'P-1',
      notes: '=not a formula',
      weight: 12.5,
    });
    await buildPallet(db(), {
      companyId: source.companyId,
      shelfId: rack.shelfIds[1]!,
      customer: 'JONES',
      slotIndex: 4,
    });
    const expected = (await pallets(source.companyId)).map((p) => p);
    for (const format of ['csv', 'xlsx'] as const) {
      const exported = await source.request({ method: 'GET', url: `/api/export/pallets.${format}` });
      expect(exported.statusCode).toBe(200);
      const target = await signIn(ctx);
      const tw = await buildWarehouse(db(), { companyId: target.companyId, name: 'Main' });
      await buildRack(db(), {
        companyId: target.companyId,
        warehouseId: tw.id,
        name: 'R1',
        shelves: 2,
        capacity: 5,
      });
      const res = await send(target, '/api/import/pallets', exported.rawPayload, `pallets.${format}`);
      expect(res.statusCode, res.body).toBe(201);
      expect(await pallets(target.companyId)).toEqual(expected);
    }
  });
});
