import { z } from 'zod';
import { type FieldDto, FieldDtoSchema } from './warehouse.schema';

/** Spec 5's alert when rows to remove hold vaults. */
export const REMOVE_VAULTS_FIRST = 'Please remove all vaults from the row that you want to delete.';
/** The same alert for the columns of the left and right sides, which are not rows (decision 002). */
export const REMOVE_COLUMN_VAULTS_FIRST = 'Please remove all vaults from the column that you want to delete.';

/** The refusal of removing rows (bottom) or columns (left, right) that hold vaults. */
export function removeVaultsFirst(direction: 'left' | 'right' | 'bottom'): string {
  return direction === 'bottom' ? REMOVE_VAULTS_FIRST : REMOVE_COLUMN_VAULTS_FIRST;
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
