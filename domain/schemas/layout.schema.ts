import { z } from 'zod';
import { type FieldDto, FieldDtoSchema } from './warehouse.schema';

/** Feet per field on the floor plan (spec 9: a vault cell is 5 ft per row or column). */
export const FIELD_CELL_FT = 5;

/** Spec 5's alert when rows to remove hold vaults. */
export const REMOVE_VAULTS_FIRST = 'Please remove all vaults from the row that you want to delete.';
/** The same alert for the columns of the left and right sides, which are not rows (decision 002). */
export const REMOVE_COLUMN_VAULTS_FIRST = 'Please remove all vaults from the column that you want to delete.';

/** The refusal of removing rows (bottom) or columns (left, right) that hold vaults. */
export function removeVaultsFirst(direction: 'left' | 'right' | 'bottom'): string {
  return direction === 'bottom' ? REMOVE_VAULTS_FIRST : REMOVE_COLUMN_VAULTS_FIRST;
}

/** The field grid block on the floor: cols x 5 ft wide, rows x 5 ft long. */
export function fieldGridSize(grid: { rows: number; cols: number }): { width: number; length: number } {
  return { width: grid.cols * FIELD_CELL_FT, length: grid.rows * FIELD_CELL_FT };
}

/** Keeps the field grid block inside the walls; a block larger than the floor stays at the wall it starts from. */
export function clampFieldGrid(
  point: { x: number; y: number },
  grid: { rows: number; cols: number },
  floor: { width: number; length: number },
): { x: number; y: number } {
  const size = fieldGridSize(grid);
  const clamp = (v: number, extent: number, wall: number) =>
    Math.min(Math.max(v, 0), Math.max(0, wall - extent));
  return { x: clamp(point.x, size.width, floor.width), y: clamp(point.y, size.length, floor.length) };
}

export type DimensionKey = 'field_capacity' | 'length' | 'width';
const DIMENSION_LABELS: Record<DimensionKey, string> = {
  field_capacity: 'Capacity',
  length: 'Length',
  width: 'Width',
};

/** '{list} updated successfully!' naming what changed, in the form's order (spec 2.8). */
export function dimensionsSavedMessage(changed: readonly DimensionKey[]): string {
  const order: DimensionKey[] = ['field_capacity', 'length', 'width'];
  const list = order.filter((key) => changed.includes(key)).map((key) => DIMENSION_LABELS[key]);
  return `${list.join(', ')} updated successfully!`;
}

/** The answer of POST and DELETE /api/fields/: every field of the warehouse after the change. */
export interface GridChangeDto {
  fields: FieldDto[];
  warehouseId: number;
  newWarehouseRowsCount: number;
  newWarehouseColsCount: number;
}

// Answer schemas (decision 045), typed to the DTOs.
export const GridChangeDtoSchema: z.ZodType<GridChangeDto> = z.object({
  fields: z.array(FieldDtoSchema),
  warehouseId: z.number().int(),
  newWarehouseRowsCount: z.number().int(),
  newWarehouseColsCount: z.number().int(),
});

/** PUT /api/warehouse/{id}/field-grid: where the block of fields now stands, kept inside the walls. */
export const FieldGridAnswerSchema = z.object({
  fieldgridLocation: z.object({ x: z.number(), y: z.number() }),
});
