import { z } from 'zod';
import { fieldGridFloorProblems } from '../rules/field-grid-floor';
import { decimalFrom, intFrom, rowId, safeName } from './form-values';

export const MAX_GRID_COLS = 60;
export const MAX_GRID_ROWS = 99;

export const AddWarehouseSchema = z
  .object({
    name: safeName(
      'Name',
      z
        .string({ error: 'Name is required.' })
        .trim()
        .min(1, 'Name is required.')
        .max(80, 'Name must be at most 80 characters.')
        .refine((n) => !/[/\\?#%]/.test(n), 'Name cannot contain / \\ ? # or %.'),
    ),
    rows: intFrom('Rows', 1, MAX_GRID_ROWS),
    cols: intFrom('Cols', 1, MAX_GRID_COLS),
    field_capacity: intFrom('Field capacity', 0, 10),
    length: decimalFrom('Length', 0, 100_000).describe(
      'feet; 0 with width 0 while the floor is not measured, else at least 5 ft per row',
    ),
    width: decimalFrom('Width', 0, 100_000).describe(
      'feet; 0 with length 0 while the floor is not measured, else at least 5 ft per column',
    ),
  })
  // the grid has to fit the floor it is laid out on, shown at the floor's side
  .superRefine((warehouse, ctx) => {
    for (const problem of fieldGridFloorProblems(warehouse, warehouse)) {
      ctx.addIssue({ code: 'custom', path: [problem.side], message: problem.message });
    }
  });
export type AddWarehouseInput = z.infer<typeof AddWarehouseSchema>;

export const EditDimensionsSchema = z
  .object({
    field_capacity: intFrom('Field capacity', 0, 10).optional(),
    length: decimalFrom('Length', 0, 100_000).optional(),
    width: decimalFrom('Width', 0, 100_000).optional(),
  })
  .refine((v) => v.field_capacity !== undefined || v.length !== undefined || v.width !== undefined, {
    message: 'Give at least one of field capacity, length or width.',
  });
export type EditDimensionsInput = z.infer<typeof EditDimensionsSchema>;

export const FieldGridLocationSchema = z.object({
  fieldgridLocation: z.object(
    { x: decimalFrom('x', 0, 100_000), y: decimalFrom('y', 0, 100_000) },
    { error: 'Field grid position is required.' },
  ),
});

export const FieldTypeSchema = z.object({
  type: z.enum(['couchbox', 'vault'], { error: 'Type must be couchbox or vault.' }),
  field2: z.string().max(20).optional(),
  warehouseId: z.union([z.number(), z.string()]).optional(),
});

export const FieldFullSchema = z.object({
  full: z.preprocess(
    (v) => (v === 'true' ? true : v === 'false' ? false : v),
    z.boolean({ error: 'full must be true or false.' }),
  ),
});

export const GridChangeSchema = z.object({
  warehouse_id: rowId('warehouse_id'),
  direction: z.enum(['left', 'right', 'bottom'], { error: 'Direction must be left, right or bottom.' }),
  opperation: z.enum(['plus', 'minus']).optional(),
  operation: z.enum(['plus', 'minus']).optional(),
  count: intFrom('Count', 1, MAX_GRID_COLS),
  warehouse_cols: z.unknown().optional(),
  warehouse_rows: z.unknown().optional(),
});
export type GridChangeInput = z.infer<typeof GridChangeSchema>;

export interface AttachmentDto {
  id: number;
  file_name: string;
  file_url: string;
}

export interface VaultDto {
  id: number;
  name: string | null;
  field_id: number | null;
  field_name: string | null;
  warehouse_id: number | null;
  warehouse_name: string | null;
  customer_id: number;
  customer_name: string;
  order_id: number | null;
  order_name: string | null;
  note: string | null;
  type: string;
  position: number | null;
  /** how many vaults stand above it in its field (issue 16); null while staged */
  dig_out: number | null;
  /** when and by whom it left the warehouse (issue 16); null while it is stored */
  released_at: string | null;
  released_by: string | null;
  version: number;
  attachments: AttachmentDto[];
}

export interface FieldDto {
  id: number;
  name: string;
  type: string;
  full: boolean;
  warehouse_id: number;
  vaults: Record<number, VaultDto>;
}

export interface WarehouseStats {
  vaultCount: number;
  realVaultCount: number;
  emptyVaultCount: number;
  emptyCouchboxCount: number;
}

/** The lean warehouse of the company list: no fields, but the counts the dashboard and statistics show. */
export interface WarehouseSummaryDto {
  id: number;
  name: string;
  slug: string;
  companyId: number;
  rows: number;
  cols: number;
  fieldCapacity: number;
  field_capacity: number;
  length: number;
  width: number;
  warehouseCapacity: number;
  fieldgridLocation: { x: number; y: number };
  version: number;
  stats: WarehouseStats;
}

export interface WarehouseDto extends WarehouseSummaryDto {
  fields: Record<number, FieldDto>;
  customers: string[];
  orders: string[];
}

// Answer schemas (issue 31, decision 045): each typed to its DTO, so the declaration and the presenter cannot drift.
export const AttachmentDtoSchema: z.ZodType<AttachmentDto> = z.object({
  id: z.number().int(),
  file_name: z.string(),
  file_url: z.string(),
});

/** The fields of a vault's answer, for answers that add to it (a staged vault names the field it left). */
export const vaultDtoShape = {
  id: z.number().int(),
  name: z.string().nullable(),
  field_id: z.number().int().nullable(),
  field_name: z.string().nullable(),
  warehouse_id: z.number().int().nullable(),
  warehouse_name: z.string().nullable(),
  customer_id: z.number().int(),
  customer_name: z.string(),
  order_id: z.number().int().nullable(),
  order_name: z.string().nullable(),
  note: z.string().nullable(),
  type: z.string(),
  position: z.number().int().nullable(),
  dig_out: z.number().int().nullable(),
  released_at: z.string().nullable(),
  released_by: z.string().nullable(),
  version: z.number().int(),
  attachments: z.array(AttachmentDtoSchema),
};

export const VaultDtoSchema: z.ZodType<VaultDto> = z.object(vaultDtoShape);

export const FieldDtoSchema: z.ZodType<FieldDto> = z.object({
  id: z.number().int(),
  name: z.string(),
  type: z.string(),
  full: z.boolean(),
  warehouse_id: z.number().int(),
  vaults: z.record(z.string(), VaultDtoSchema).describe('the vaults of the field, by position'),
});

const warehouseSummaryShape = {
  id: z.number().int(),
  name: z.string(),
  slug: z.string(),
  companyId: z.number().int(),
  rows: z.number().int(),
  cols: z.number().int(),
  fieldCapacity: z.number().int(),
  field_capacity: z.number().int(),
  length: z.number(),
  width: z.number(),
  warehouseCapacity: z.number().int(),
  fieldgridLocation: z.object({ x: z.number(), y: z.number() }),
  version: z.number().int(),
  stats: z.object({
    vaultCount: z.number().int(),
    realVaultCount: z.number().int(),
    emptyVaultCount: z.number().int(),
    emptyCouchboxCount: z.number().int(),
  }),
};

export const WarehouseSummaryDtoSchema: z.ZodType<WarehouseSummaryDto> = z.object(warehouseSummaryShape);

export const WarehouseDtoSchema: z.ZodType<WarehouseDto> = z.object({
  ...warehouseSummaryShape,
  fields: z.record(z.string(), FieldDtoSchema).describe('the fields of the warehouse, by id'),
  customers: z.array(z.string()),
  orders: z.array(z.string()),
});

/** PATCH /api/fields/{id}: the field and, when a couchbox pair was made or undone, the field below it. */
export const FieldTypeAnswerSchema = z.object({ field1: FieldDtoSchema, field2: FieldDtoSchema.nullable() });

export const DeletedAnswerSchema = z.object({ message: z.string(), id: z.number().int() });
