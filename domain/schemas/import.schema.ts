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
