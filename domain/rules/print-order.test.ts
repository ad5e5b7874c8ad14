import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fieldName } from './field-names';
import {
  comparePositions,
  comparePrintOrder,
  printCsvRow,
  sortForPrint,
  type PrintVaultDto,
} from './print-order';

const line = (warehouse_name: string, field_name: string, position: number | string | null) => ({
  warehouse_name,
  field_name,
  position,
});

describe('print order', () => {
  it('sorts by warehouse, then field name in natural order, then position', () => {
    const sorted = sortForPrint([
      line('North', 'A10', 1),
      line('North', 'A2', 3),
      line('Main', 'B1', 2),
      line('North', 'A2', 1),
      line('Main', 'A1', 3),
      line('North', 'AA1', 1),
      line('North', 'Z9', 1),
    ]);
    expect(sorted.map((v) => `${v.warehouse_name}/${v.field_name}/${v.position}`)).toEqual([
      'Main/A1/3',
      'Main/B1/2',
      'North/A2/1',
      'North/A2/3',
      'North/A10/1',
      'North/Z9/1',
      'North/AA1/1',
    ]);
  });

  it('puts staged vaults (no warehouse) first', () => {
    const sorted = sortForPrint([line('Main', 'A1', 1), line('', 'staged', null)]);
    expect(sorted[0]!.field_name).toBe('staged');
  });

  it('compares warehouse names with numbers naturally and ignoring case', () => {
    const sorted = sortForPrint([
      line('warehouse 10', 'A1', 1),
      line('Warehouse 2', 'A1', 1),
      line('alpha', 'A1', 1),
    ]);
    expect(sorted.map((v) => v.warehouse_name)).toEqual(['alpha', 'Warehouse 2', 'warehouse 10']);
  });

  it('compares positions numerically when numeric, otherwise as text, missing last', () => {
    expect(comparePositions(2, 10)).toBeLessThan(0);
    expect(comparePositions('2', '10')).toBeLessThan(0);
    expect(comparePositions('b', 'a')).toBeGreaterThan(0);
    expect(comparePositions(null, 1)).toBeGreaterThan(0);
    expect(comparePositions(1, null)).toBeLessThan(0);
    expect(comparePositions(null, null)).toBe(0);
  });

  it('sorts exactly as the pairwise rule would, for any mix of warehouses, fields and staged vaults', () => {
    const placed = fc.record({
      warehouse_name: fc.constantFrom('Main', 'main', 'North 2', 'North 10', 'Ünter', 'B'),
      field_name: fc
        .tuple(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 1, max: 25 }))
        .map(([col, row]) => fieldName(col, row)),
      position: fc.option(fc.integer({ min: 1, max: 11 })),
    });
    const staged = fc.constant({ warehouse_name: '', field_name: 'staged', position: null });
    fc.assert(
      fc.property(fc.array(fc.oneof(placed, staged), { maxLength: 200 }), (vaults) => {
        // both sorts are stable, so the same order means the very same sequence of objects
        expect(sortForPrint(vaults)).toEqual([...vaults].sort(comparePrintOrder));
      }),
    );
  });

  it('does not change the input list', () => {
    const input = [line('B', 'A1', 1), line('A', 'A1', 1)];
    sortForPrint(input);
    expect(input[0]!.warehouse_name).toBe('B');
  });

  it('lays a vault out in the CSV header order', () => {
    const vault: PrintVaultDto = {
      id: 1,
      name: '144',
      customer_name: 'KNOX',
      type: 'vault',
      position: 3,
      field_name: 'C1',
      warehouse_name: 'Main',
      note: null,
    };
    expect(printCsvRow(vault)).toEqual(['144', 'KNOX', 'vault', 3, 'C1', 'Main', null]);
  });
});
