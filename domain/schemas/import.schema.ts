import { z } from 'zod';
import { MAX_ROW_ID } from './form-values';
import type { ColumnMapping, ImportKind } from '../rules/import-columns';

/** One problem the dry run found: the spreadsheet's row number (the header is row 1) and the column's header. */
export interface ImportProblemDto {
  row: number;
  column: string;
  message: string;
}

/** A warehouse the import would create from the file's dimensions. */
export interface NewWarehouseDto {
  name: string;
  rows: number;
  cols: number;
  field_capacity: number;
}

/** POST /api/import/{kind}/dry-run: what the file would do, and everything wrong with it; nothing is written. */
export interface ImportDryRunDto {
  kind: ImportKind;
  file_name: string;
  headers: string[];
  mapping: ColumnMapping;
  row_count: number;
  placed_count: number;
  staged_count: number;
  /** storage accounts the file's account columns open (issue 28), one per order */
  account_count: number;
  new_warehouses: NewWarehouseDto[];
  problems: ImportProblemDto[];
  /** what the import will do that is worth knowing but does not stop it (e.g. repeated vault numbers, as allowed) */
  warnings: ImportProblemDto[];
}

/** One recorded import (GET /api/imports, and the answer of a commit or an undo). */
export interface ImportRecordDto {
  id: number;
  kind: ImportKind;
  file_name: string;
  username: string | null;
  created_at: string;
  row_count: number;
  placed_count: number;
  staged_count: number;
  created_warehouses: number[];
  undone_at: string | null;
  /** whether Undo can still work now; if not, `undo_refusal` says why (the 409 the undo would answer) */
  can_undo: boolean;
  undo_refusal: string | null;
}

/** POST /api/export/print-vaults.xlsx: the vaults Print Studio shows, in its order (its filters are the browser's). */
export const PrintExportSchema = z.object({
  ids: z
    .array(z.number({ error: 'ids must be vault ids.' }).int().min(1).max(MAX_ROW_ID), {
      error: 'ids must be a list of vault ids.',
    })
    .max(100_000, 'At most 100,000 vaults can be exported at once.'),
});

/**
 * The form of POST /api/import/{kind} and its dry run: a multipart upload the server reads itself (decision 045's
 * `formBody`), described here for the API's document.
 */
export const ImportUploadFormSchema = z.object({
  file: z.string().meta({ contentMediaType: 'application/octet-stream' }).describe('the CSV or XLSX file'),
  mapping: z
    .string()
    .optional()
    .describe('the chosen columns as JSON, {"column": "header of the file"}; absent: the recognised ones'),
  create_warehouses: z
    .enum(['true', 'false'])
    .optional()
    .describe('create the warehouses the file names that do not exist, from its dimensions'),
  allow_repeated_numbers: z
    .enum(['true', 'false'])
    .optional()
    .describe('import vault numbers the company already has (a warning, not a problem)'),
});

// Answer schemas (decision 045), typed to the DTOs.
const importKind = z.enum(['vaults', 'pallets']);

const ImportProblemDtoSchema: z.ZodType<ImportProblemDto> = z.object({
  row: z.number().int().describe("the spreadsheet's row number; the header is row 1"),
  column: z.string(),
  message: z.string(),
});

export const ImportDryRunDtoSchema: z.ZodType<ImportDryRunDto> = z.object({
  kind: importKind,
  file_name: z.string(),
  headers: z.array(z.string()),
  mapping: z.record(z.string(), z.string()).describe('which header of the file each column is read from'),
  row_count: z.number().int(),
  placed_count: z.number().int(),
  staged_count: z.number().int(),
  account_count: z.number().int(),
  new_warehouses: z.array(
    z.object({
      name: z.string(),
      rows: z.number().int(),
      cols: z.number().int(),
      field_capacity: z.number().int(),
    }),
  ),
  problems: z.array(ImportProblemDtoSchema),
  warnings: z.array(ImportProblemDtoSchema),
});

export const ImportRecordDtoSchema: z.ZodType<ImportRecordDto> = z.object({
  id: z.number().int(),
  kind: importKind,
  file_name: z.string(),
  username: z.string().nullable(),
  created_at: z.string(),
  row_count: z.number().int(),
  placed_count: z.number().int(),
  staged_count: z.number().int(),
  created_warehouses: z.array(z.number().int()),
  undone_at: z.string().nullable(),
  can_undo: z.boolean(),
  undo_refusal: z.string().nullable().describe('why Undo would be refused now (its 409), or null'),
});
