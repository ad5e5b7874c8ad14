import type { Readable } from 'node:stream';
import type { CsvValue } from '@domain/rules/csv';
import { isCouchboxField } from '@domain/rules/capacity';
import { fieldName } from '@domain/rules/field-names';
import {
  IMPORT_COLUMN_LABELS,
  PALLET_IMPORT_COLUMNS,
  VAULT_IMPORT_COLUMNS,
  importTemplate,
} from '@domain/rules/import-columns';
import { PRINT_CSV_HEADER, STAGED_FIELD_NAME, printCsvRow, sortForPrint } from '@domain/rules/print-order';
import { presentPrintVault, printPlaceOf, printPlaces } from '../print/print.presenter';
import { type PrintVaultRow, listFieldsForPrint, listVaultsForPrint } from '../print/print.repo';
import type { Db } from '../../db/database';
import {
  type ImportFieldRow,
  type ImportWarehouseRow,
  findCompanyFields,
  findCompanyWarehouses,
  findVaultsForExport,
} from './import.repo';
import { findCompanyRacks, findCompanyShelves, findPalletsForExport } from './pallet-import.repo';
import { type SheetFormat, csvDocument, xlsxStream } from './write-sheet';
import { naturalCompare } from '@domain/rules/text';

export const VAULTS_HEADER = VAULT_IMPORT_COLUMNS.map((c) => IMPORT_COLUMN_LABELS[c]);

/**
 * The company's vaults in print order, one line each in the import's columns, with the layout of the field and
 * warehouse each stands in; then one line per warehouse without vaults and per couchbox or full field without vaults,
 * so the import recreates the warehouses as they are. The file imports back as it is.
 */
export async function vaultExportRows(db: Db, companyId: number): Promise<CsvValue[][]> {
  const [vaults, warehouses, fields] = await Promise.all([
    findVaultsForExport(db, companyId),
    findCompanyWarehouses(db, companyId),
    findCompanyFields(db, companyId),
  ]);
  const warehouseById = new Map(warehouses.map((w) => [w.id, w]));
  const fieldAt = new Map(fields.map((f) => [`${f.warehouse_id}:${f.col}:${f.row}`, f]));
  const dimensions = (w: ImportWarehouseRow): CsvValue[] => [
    Number(w.rows),
    Number(w.cols),
    Number(w.field_capacity),
    Number(w.length),
    Number(w.width),
    Number(w.grid_x),
    Number(w.grid_y),
  ];
  const fieldLayout = (f: ImportFieldRow): CsvValue[] => [
    isCouchboxField(f.type) ? 'couchbox' : 'vault',
    Number(f.full) ? 'yes' : 'no',
  ];
  const withVaults = new Set<string>();
  const rows = vaults.map((v) => {
    const placed = v.col !== null && v.row !== null && v.warehouse_id !== null;
    if (placed) withVaults.add(`${v.warehouse_id}:${v.col}:${v.row}`);
    return {
      warehouse_name: placed ? v.warehouse_name : '',
      field_name: placed ? fieldName(v.col!, v.row!) : STAGED_FIELD_NAME,
      position: placed ? v.position : null,
      v,
    };
  });
  const lines: CsvValue[][] = sortForPrint(rows).map((r) => {
    const w = r.v.warehouse_id === null ? undefined : warehouseById.get(r.v.warehouse_id);
    const f = w ? fieldAt.get(`${w.id}:${r.v.col}:${r.v.row}`) : undefined;
    return [
      r.warehouse_name,
      r.field_name,
      r.position,
      r.v.name,
      r.v.customer_name,
      r.v.order_name,
      r.v.type,
      r.v.note,
      ...(f ? fieldLayout(f) : ['', '']),
      ...(w ? dimensions(w) : ['', '', '', '', '', '', '']),
    ];
  });
  const blankVault = ['', '', '', '', '', ''];
  const sortedWarehouses = [...warehouses].sort((a, b) => naturalCompare(a.name, b.name));
  for (const w of sortedWarehouses) {
    const layoutFields = fields
      .filter((f) => f.warehouse_id === w.id && !withVaults.has(`${w.id}:${f.col}:${f.row}`))
      .filter((f) => f.type === 'couchbox-T' || Number(f.full))
      .sort((a, b) => a.col - b.col || a.row - b.row);
    for (const f of layoutFields)
      lines.push([w.name, fieldName(f.col, f.row), ...blankVault, ...fieldLayout(f), ...dimensions(w)]);
    if (layoutFields.length === 0 && !vaults.some((v) => v.warehouse_id === w.id))
      lines.push([w.name, '', ...blankVault, '', '', ...dimensions(w)]);
  }
  return lines;
}

export async function exportVaults(
  db: Db,
  companyId: number,
  format: SheetFormat,
): Promise<Buffer | Readable> {
  const rows = await vaultExportRows(db, companyId);
  return format === 'csv' ? csvDocument(VAULTS_HEADER, rows) : xlsxStream('Vaults', VAULTS_HEADER, rows);
}

/** The import template: its header and one example row. */
export function templateFile(kind: 'vaults' | 'pallets', format: SheetFormat): Buffer | Readable {
  const { header, example } = importTemplate(kind);
  return format === 'csv'
    ? csvDocument(header, [example])
    : xlsxStream(kind === 'vaults' ? 'Vaults' : 'Pallets', header, [example]);
}

/**
 * Print Studio's XLSX: the lines and columns of its CSV (spec: Vault Name ... Notes) for the vaults the browser shows,
 * in its order. Ids of vaults the company does not have (another company's, or deleted meanwhile) are left out.
 */
export async function exportPrintVaults(
  db: Db,
  companyId: number,
  ids: readonly number[],
): Promise<Readable> {
  const places = printPlaces(await listFieldsForPrint(db, companyId));
  const rows = new Map<number, PrintVaultRow>();
  for (let i = 0; i < ids.length; i += 500)
    for (const row of await listVaultsForPrint(db, companyId, ids.slice(i, i + 500))) rows.set(row.id, row);
  const lines = ids.flatMap((id) => {
    const row = rows.get(id);
    return row ? [printCsvRow(presentPrintVault(row, printPlaceOf(row, places)))] : [];
  });
  return xlsxStream('Vaults', PRINT_CSV_HEADER, lines);
}

export const PALLETS_HEADER = PALLET_IMPORT_COLUMNS.map((c) => IMPORT_COLUMN_LABELS[c]);

/**
 * The company's pallets in the pallet import's columns (slot 1 is a shelf's first slot), each with its rack's shelves,
 * slots per shelf, size, orientation and place; then a line per rack without pallets. The file imports back, and
 * into a company that has the warehouses but not the racks, the import creates them.
 */
export async function exportPallets(
  db: Db,
  companyId: number,
  format: SheetFormat,
): Promise<Buffer | Readable> {
  const [pallets, racks, shelves, warehouses] = await Promise.all([
    findPalletsForExport(db, companyId),
    findCompanyRacks(db, companyId),
    findCompanyShelves(db, companyId),
    findCompanyWarehouses(db, companyId),
  ]);
  const shelvesOf = new Map<number, { count: number; capacity: number }>();
  for (const s of shelves) {
    const seen = shelvesOf.get(s.rack_id);
    shelvesOf.set(s.rack_id, { count: (seen?.count ?? 0) + 1, capacity: Number(s.capacity) });
  }
  const rackLayout = (rackId: number): CsvValue[] => {
    const r = racks.find((rack) => rack.id === rackId)!;
    const s = shelvesOf.get(rackId) ?? { count: 0, capacity: 0 };
    return [s.count, s.capacity, Number(r.width), Number(r.length), r.orientation, Number(r.x), Number(r.y)];
  };
  const rows: CsvValue[][] = pallets.map((p) => [
    p.warehouse_name,
    p.rack_name,
    Number(p.shelf),
    Number(p.slot_index) + 1,
    p.customer_name,
    p.name,
    p.pallet_number,
    Number(p.shelf_spots),
    Number(p.weight),
    p.notes,
    ...rackLayout(p.rack_id),
    p.order_name,
  ]);
  const withPallets = new Set(pallets.map((p) => p.rack_id));
  const warehouseName = new Map(warehouses.map((w) => [w.id, w.name]));
  const empty = racks
    .filter((r) => !withPallets.has(r.id))
    .map((r) => ({ warehouse: warehouseName.get(r.warehouse_id)!, r }))
    .sort((a, b) => naturalCompare(a.warehouse, b.warehouse) || naturalCompare(a.r.name, b.r.name));
  for (const { warehouse, r } of empty)
    rows.push([warehouse, r.name, '', '', '', '', '', '', '', '', ...rackLayout(r.id), '']);
  return format === 'csv' ? csvDocument(PALLETS_HEADER, rows) : xlsxStream('Pallets', PALLETS_HEADER, rows);
}
