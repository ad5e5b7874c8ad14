import { describe, expect, it } from 'vitest';
import { AddWarehouseSchema } from '../schemas/warehouse.schema';
import { clampFieldGrid, fieldGridFloorProblems, fieldGridRoom } from './field-grid-floor';

describe('the field grid on the floor', () => {
  it('fits a grid of 5 ft fields up to the walls, and any grid while the floor is not measured', () => {
    expect(fieldGridFloorProblems({ rows: 4, cols: 3 }, { width: 15, length: 20 })).toEqual([]);
    expect(fieldGridFloorProblems({ rows: 99, cols: 60 }, { width: 0, length: 0 })).toEqual([]);
    expect(fieldGridRoom({ width: 24.9, length: 20 })).toEqual({ cols: 4, rows: 4 });
    expect(fieldGridRoom({ width: 0, length: 0 })).toBeNull();
  });

  it('names the side a grid overruns, with the sizes and what to change', () => {
    expect(fieldGridFloorProblems({ rows: 1, cols: 3 }, { width: 14.5, length: 100 })).toEqual([
      {
        side: 'width',
        message:
          'The field grid is 15 ft wide (3 columns of 5 ft), wider than the 14.5 ft floor. Make the floor wider or use fewer columns.',
      },
    ]);
    expect(fieldGridFloorProblems({ rows: 1, cols: 1 }, { width: 100, length: 4 })).toEqual([
      {
        side: 'length',
        message:
          'The field grid is 5 ft long (1 row of 5 ft), longer than the 4 ft floor. Make the floor longer or use fewer rows.',
      },
    ]);
  });

  it('refuses a floor with one side measured, at the side that is not', () => {
    expect(fieldGridFloorProblems({ rows: 1, cols: 1 }, { width: 50, length: 0 })).toEqual([
      {
        side: 'length',
        message: 'Give both the length and the width, or leave both at 0 while the floor is not measured.',
      },
    ]);
    expect(fieldGridFloorProblems({ rows: 1, cols: 1 }, { width: 0, length: 50 })[0]?.side).toBe('width');
  });

  it('keeps a block that fits inside the walls, and one that does not at the wall it starts from', () => {
    expect(clampFieldGrid({ x: 45, y: 29 }, { rows: 2, cols: 4 }, { width: 50, length: 30 })).toEqual({
      x: 30,
      y: 20,
    });
    expect(clampFieldGrid({ x: 5, y: 5 }, { rows: 2, cols: 20 }, { width: 50, length: 30 })).toEqual({
      x: 0,
      y: 5,
    });
  });

  it('is the Add Warehouse form and request rule, shown at the floor side', () => {
    const parsed = AddWarehouseSchema.safeParse({
      name: 'Depot',
      rows: '2',
      cols: '12',
      field_capacity: '3',
      length: '40',
      width: '50',
    });
    expect(parsed.error?.issues.map((issue) => [issue.path, issue.message])).toEqual([
      [
        ['width'],
        'The field grid is 60 ft wide (12 columns of 5 ft), wider than the 50 ft floor. Make the floor wider or use fewer columns.',
      ],
    ]);
  });
});
