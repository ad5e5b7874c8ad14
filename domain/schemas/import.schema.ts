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
  new_warehouses: NewWarehouseDto[];
  problems: ImportProblemDto[];
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
}
