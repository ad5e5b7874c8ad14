import {
  fieldSlotCount,
  isCouchboxField,
  nextFreePosition,
  VAULT_TYPES,
} from '../../../domain/rules/capacity';
import { columnLetters, fieldName, parseFieldName } from '../../../domain/rules/field-names';
import {
  type ColumnMapping,
  IMPORT_COLUMN_LABELS,
  REQUIRED_COLUMNS,
  VAULT_IMPORT_COLUMNS,
  type VaultImportColumn,
} from '../../../domain/rules/import-columns';
import { STAGED_FIELD_NAME } from '../../../domain/rules/print-order';
import type { ImportProblemDto, NewWarehouseDto } from '../../../domain/schemas/import.schema';
import { UpdateVaultSchema } from '../../../domain/schemas/vault.schema';
import { AddWarehouseSchema, MAX_GRID_COLS, MAX_GRID_ROWS } from '../../../domain/schemas/warehouse.schema';
import type { Db } from '../../db/database';
import { COUCHBOX_FIELD_ONLY, FIELD_FULL, couchboxBottom } from '../vaults/vaults.service';
import { normaliseDetails, type VaultDetails } from '../../../domain/rules/placeholders';
import {
  type ImportFieldRow,
  type ImportWarehouseRow,
  findCompanyFields,
  findCompanyVaultPlaces,
  findCompanyWarehouses,
} from './import.repo';
import type { Sheet } from './read-sheet';

/** The most slots a field can have (AddWarehouseSchema's field capacity). */
const MAX_FIELD_CAPACITY = 10;

/** One vault the file would create. `warehouse` is a stored warehouse's id or the name of one to create. */
export interface PlannedVault {
  row: number;
  warehouse: number | string | null;
  col: number | null;
  fieldRow: number | null;
  /** the stored field, when the warehouse exists */
  fieldId: number | null;
  position: number | null;
  details: VaultDetails;
}

export interface VaultPlan {
  mapping: ColumnMapping;
  vaults: PlannedVault[];
  newWarehouses: NewWarehouseDto[];
  problems: ImportProblemDto[];
  /** what the import will do that the user should know, but that does not stop it */
  warnings: ImportProblemDto[];
}

/** The choices of the import form. */
export interface VaultImportOptions {
  /** create the warehouses the file names but the company does not have, sized to the file */
  createWarehouses: boolean;
  /** accept vault numbers that repeat within the file or exist already (the API accepts them too) */
  allowRepeatedNumbers: boolean;
}

export const missingColumn = (column: string) =>
  `No column of the file is chosen for ${column}; choose one in the mapping step.`;
export const unknownHeader = (header: string) => `The file has no column named "${header}".`;
// the name is not repeated: the row and column locate it, and an answer never echoes names of other companies
export const MISSING_WAREHOUSE =
  'No warehouse of this name exists. Create it first, or let the import create missing warehouses.';
export const WAREHOUSE_REQUIRED = 'A vault in a field needs its warehouse.';
export const notAFieldName = (text: string) => `"${text}" is not a field name like A1 (or "staged").`;
export const missingField = (field: string, warehouse: string) =>
  `Field ${field} does not exist in warehouse "${warehouse}".`;
export const POSITION_REQUIRED = 'A vault in a field needs its position (1 is the top slot).';
export const notAPosition = (text: string) => `"${text}" is not a position: write a whole number from 1.`;
export const STAGED_HAS_POSITION = 'A staged vault has no position; leave the cell empty or name a field.';
export const beyondCapacity = (position: number, field: string, slots: number) =>
  `Position ${position} is beyond the ${slots} slots of field ${field}.`;
export const slotInFile = (field: string, position: number, row: number) =>
  `Row ${row} already puts a vault in field ${field}, position ${position}.`;
export const slotTaken = (field: string, position: number) =>
  `Field ${field} already holds a vault at position ${position}.`;
export const leavesGap = (position: number, field: string, expected: number[]) =>
  `Position ${position} would leave an empty slot below it in field ${field}: a field fills from its bottom slot up, so use position${expected.length > 1 ? 's' : ''} ${expected.join(', ')}.`;
const REPEAT_HINT = 'If that is meant, choose "Allow vault numbers that repeat".';
export const numberInFile = (name: string, row: number) =>
  `Vault number ${name} is also in row ${row}. ${REPEAT_HINT}`;
export const numberStored = (name: string) => `Vault number ${name} already exists. ${REPEAT_HINT}`;
export const repeatedNumberInFile = (name: string, row: number) =>
  `Vault number ${name} is also in row ${row}; both are imported, as asked.`;
export const repeatedNumberStored = (name: string) =>
  `Vault number ${name} already exists; another vault with it is imported, as asked.`;
export const NO_ORDER_COLUMN =
  "The file has no order column: vaults of real customers come in without an order (like Print Studio's files); their order is asked for when they are next edited.";
const NO_ORDER_STAND_IN = 'NONE';
export const tooLargeForWarehouse = (what: string) => `A new warehouse cannot have ${what}.`;

const UPDATE_PATH_COLUMN: Record<string, VaultImportColumn> = {
  name: 'vault_number',
  customer_name: 'customer',
  order_name: 'order',
  note: 'note',
  type: 'type',
};

/** Checks a column mapping against the file's headers: unknown headers and missing required columns. */
export function mappingProblems(
  kind: 'vaults' | 'pallets',
  mapping: ColumnMapping,
  headers: readonly string[],
  columns: readonly string[],
): ImportProblemDto[] {
  const problems: ImportProblemDto[] = [];
  for (const column of columns) {
    const header = mapping[column];
    const label = IMPORT_COLUMN_LABELS[column as VaultImportColumn];
    if (header !== undefined && !headers.includes(header))
      problems.push({ row: 1, column: label, message: unknownHeader(header) });
    else if (header === undefined && REQUIRED_COLUMNS[kind].includes(column))
      problems.push({ row: 1, column: label, message: missingColumn(label) });
  }
  return problems;
}

/** A reader of one row's cells by column, through the mapping. */
export function cellReader(mapping: ColumnMapping, headers: readonly string[]) {
  const index = new Map<string, number>();
  for (const [column, header] of Object.entries(mapping))
    if (header !== undefined && headers.includes(header)) index.set(column, headers.indexOf(header));
  return (cells: readonly string[], column: string): string => {
    const at = index.get(column);
    return at === undefined ? '' : (cells[at] ?? '').trim();
  };
}

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * The dry run of a vault import: every row checked against the rules the API applies to one vault, and the rules
 * that only a whole file can break (two vaults in one slot, gaps in a field, duplicate vault numbers), against the
 * company's data as it is now. Nothing is written; the commit runs this again inside its transaction.
 */
export async function planVaultImport(
  db: Db,
  companyId: number,
  sheet: Sheet,
  mapping: ColumnMapping,
  options: VaultImportOptions,
): Promise<VaultPlan> {
  const { createWarehouses, allowRepeatedNumbers } = options;
  const columnLabel = (c: VaultImportColumn) => mapping[c] ?? IMPORT_COLUMN_LABELS[c];
  const problems: ImportProblemDto[] = [
    ...mappingProblems('vaults', mapping, sheet.headers, VAULT_IMPORT_COLUMNS),
    ...sheet.problems,
  ];
  const plan: VaultPlan = { mapping, vaults: [], newWarehouses: [], problems, warnings: [] };
  if (problems.some((p) => p.row === 1)) return plan;
  // a file without an order column (Print Studio's CSV has none) imports its vaults without an order; a file with
  // one follows the API's rule that a real customer's vault has an order
  const orderColumn = mapping.order !== undefined;
  if (!orderColumn && sheet.rows.length > 0)
    plan.warnings.push({ row: 1, column: IMPORT_COLUMN_LABELS.order, message: NO_ORDER_COLUMN });

  const [warehouses, fields, stored] = await Promise.all([
    findCompanyWarehouses(db, companyId),
    findCompanyFields(db, companyId),
    findCompanyVaultPlaces(db, companyId),
  ]);
  const fieldAt = new Map<string, ImportFieldRow>();
  for (const f of fields) fieldAt.set(`${f.warehouse_id}:${f.col}:${f.row}`, f);
  const fieldById = new Map(fields.map((f) => [f.id, f]));
  const occupied = new Map<number, number[]>();
  const storedNames = new Set<string>();
  for (const v of stored) {
    if (v.name !== null) storedNames.add(v.name.toUpperCase());
    if (v.field_id === null || v.position === null) continue;
    const list = occupied.get(v.field_id);
    if (list) list.push(Number(v.position));
    else occupied.set(v.field_id, [Number(v.position)]);
  }
  const findWarehouse = (name: string): ImportWarehouseRow | undefined =>
    warehouses.find((w) => w.name === name) ?? warehouses.find((w) => sameName(w.name, name));

  const cell = cellReader(mapping, sheet.headers);
  const cellProblemRows = new Set(sheet.problems.map((p) => p.row));
  const newWarehouses = new Map<string, NewWarehouseDto & { maxPosition: number; firstRow: number }>();
  const slotRows = new Map<string, number>();
  const numberRows = new Map<string, number>();

  for (const { row, cells } of sheet.rows) {
    // a formula or a date is already listed for its cell; the rest of the row is checked once it holds its value
    if (cellProblemRows.has(row)) continue;
    const problem = (column: VaultImportColumn, message: string) =>
      problems.push({ row, column: columnLabel(column), message });
    const before = problems.length;
    // the vault's own columns, by the API's schema for one vault
    const parsed = UpdateVaultSchema.safeParse({
      name: cell(cells, 'vault_number'),
      customer_name: cell(cells, 'customer'),
      // without an order column the schema's other rules still apply; the stand-in order is not kept
      order_name: orderColumn ? cell(cells, 'order') : NO_ORDER_STAND_IN,
      note: cell(cells, 'note'),
      type: cell(cells, 'type').toLowerCase(),
    });
    if (!parsed.success)
      for (const issue of parsed.error.issues)
        problem(UPDATE_PATH_COLUMN[String(issue.path[0])] ?? 'customer', issue.message);
    const details = parsed.success
      ? normaliseDetails({
          name: parsed.data.name,
          customer_name: parsed.data.customer_name,
          order_name: orderColumn ? parsed.data.order_name : undefined,
          type: parsed.data.type,
          note: parsed.data.note,
          fallbackType: 'vault',
        })
      : null;
    if (details && !(VAULT_TYPES as readonly string[]).includes(details.type))
      problem('type', 'Type must be vault, liftvan, t2 or couchbox.');

    // where it goes: a field of a warehouse, or the stage
    const fieldText = cell(cells, 'field');
    const positionText = cell(cells, 'position');
    const warehouseText = cell(cells, 'warehouse');
    const staged = fieldText === '' || sameName(fieldText, STAGED_FIELD_NAME);
    let planned: PlannedVault | null = null;
    if (staged) {
      if (positionText !== '') problem('position', STAGED_HAS_POSITION);
      planned = {
        row,
        warehouse: null,
        col: null,
        fieldRow: null,
        fieldId: null,
        position: null,
        details: details!,
      };
    } else {
      const place = parseFieldName(fieldText);
      if (!place) problem('field', notAFieldName(fieldText));
      const position = /^\d+(\.0+)?$/.test(positionText) ? Number(positionText) : null;
      if (positionText === '') problem('position', POSITION_REQUIRED);
      else if (position === null || position < 1) problem('position', notAPosition(positionText));
      let warehouse: number | string | null = null;
      let field: ImportFieldRow | undefined;
      if (warehouseText === '') problem('warehouse', WAREHOUSE_REQUIRED);
      else {
        const found = findWarehouse(warehouseText);
        if (found) {
          warehouse = found.id;
          if (place) {
            field = fieldAt.get(`${found.id}:${place.col}:${place.row}`);
            if (!field) problem('field', missingField(fieldName(place.col, place.row), found.name));
          }
        } else if (!createWarehouses) problem('warehouse', MISSING_WAREHOUSE);
        else {
          const nameCheck = AddWarehouseSchema.shape.name.safeParse(warehouseText);
          if (!nameCheck.success) problem('warehouse', nameCheck.error.issues[0]!.message);
          else {
            const key = warehouseText.toLowerCase();
            let planWarehouse = newWarehouses.get(key);
            if (!planWarehouse) {
              planWarehouse = {
                name: warehouseText,
                rows: 1,
                cols: 1,
                field_capacity: 3,
                maxPosition: 0,
                firstRow: row,
              };
              newWarehouses.set(key, planWarehouse);
            }
            warehouse = planWarehouse.name;
            if (place) {
              if (place.col > MAX_GRID_COLS)
                problem(
                  'field',
                  tooLargeForWarehouse(
                    `more than ${MAX_GRID_COLS} columns (${columnLetters(MAX_GRID_COLS)})`,
                  ),
                );
              else if (place.row > MAX_GRID_ROWS)
                problem('field', tooLargeForWarehouse(`more than ${MAX_GRID_ROWS} rows`));
              else {
                planWarehouse.cols = Math.max(planWarehouse.cols, place.col);
                planWarehouse.rows = Math.max(planWarehouse.rows, place.row);
              }
            }
            if (position !== null && position > MAX_FIELD_CAPACITY)
              problem('position', tooLargeForWarehouse(`more than ${MAX_FIELD_CAPACITY} slots in a field`));
            else if (position !== null)
              planWarehouse.maxPosition = Math.max(planWarehouse.maxPosition, position);
          }
        }
      }
      if (field && position !== null && position >= 1) {
        const name = fieldName(field.col, field.row);
        const stored = warehouses.find((w) => w.id === field.warehouse_id)!;
        const slots = fieldSlotCount(field.type, Number(stored.field_capacity));
        if (field.type === 'couchbox-B') problem('field', couchboxBottom(name));
        else if (field.full) problem('field', FIELD_FULL);
        else if (position > slots) problem('position', beyondCapacity(position, name, slots));
        else if (occupied.get(field.id)?.includes(position)) problem('position', slotTaken(name, position));
        if (details?.type === 'couchbox' && !isCouchboxField(field.type))
          problem('type', COUCHBOX_FIELD_ONLY);
      } else if (typeof warehouse === 'string' && details?.type === 'couchbox')
        problem('type', COUCHBOX_FIELD_ONLY);
      if (place && position !== null && warehouse !== null) {
        const slot = `${warehouse}:${place.col}:${place.row}:${position}`;
        const first = slotRows.get(slot);
        if (first !== undefined)
          problem('position', slotInFile(fieldName(place.col, place.row), position, first));
        else slotRows.set(slot, row);
      }
      planned = {
        row,
        warehouse,
        col: place?.col ?? null,
        fieldRow: place?.row ?? null,
        fieldId: field?.id ?? null,
        position,
        details: details!,
      };
    }
    if (details?.name) {
      const key = details.name.toUpperCase();
      const first = numberRows.get(key);
      const warn = (message: string) =>
        plan.warnings.push({ row, column: columnLabel('vault_number'), message });
      if (first === undefined) numberRows.set(key, row);
      else if (allowRepeatedNumbers) warn(repeatedNumberInFile(details.name, first));
      else problem('vault_number', numberInFile(details.name, first));
      if (storedNames.has(key))
        if (allowRepeatedNumbers) warn(repeatedNumberStored(details.name));
        else problem('vault_number', numberStored(details.name));
    }
    if (problems.length === before && planned) plan.vaults.push(planned);
  }

  for (const w of newWarehouses.values()) {
    w.field_capacity = Math.max(3, w.maxPosition);
    plan.newWarehouses.push({ name: w.name, rows: w.rows, cols: w.cols, field_capacity: w.field_capacity });
  }
  checkContiguous(plan, occupied, fieldById, warehouses, columnLabel('position'));
  problems.sort((a, b) => a.row - b.row);
  plan.warnings.sort((a, b) => a.row - b.row);
  return plan;
}

/**
 * A field fills from its bottom slot up (the API's next free slot), so the file's vaults of one field must take
 * exactly its highest free positions: what adding them one by one through the API would give.
 */
function checkContiguous(
  plan: VaultPlan,
  occupied: Map<number, number[]>,
  fieldById: Map<number, ImportFieldRow>,
  warehouses: ImportWarehouseRow[],
  positionLabel: string,
): void {
  const byField = new Map<string, PlannedVault[]>();
  for (const v of plan.vaults) {
    if (v.warehouse === null || v.position === null) continue;
    const key = `${v.warehouse}:${v.col}:${v.fieldRow}`;
    const list = byField.get(key);
    if (list) list.push(v);
    else byField.set(key, [v]);
  }
  const newCapacity = new Map(plan.newWarehouses.map((w) => [w.name, w.field_capacity]));
  const bad = new Set<PlannedVault>();
  for (const vaults of byField.values()) {
    const first = vaults[0]!;
    let taken: number[] = [];
    let slots: number;
    if (first.fieldId !== null) {
      const field = fieldById.get(first.fieldId)!;
      const capacity = warehouses.find((w) => w.id === field.warehouse_id)!.field_capacity;
      slots = fieldSlotCount(field.type, Number(capacity));
      taken = [...(occupied.get(first.fieldId) ?? [])];
    } else slots = newCapacity.get(String(first.warehouse)) ?? 3;
    const expected: number[] = [];
    for (let i = 0; i < vaults.length; i++) {
      const next = nextFreePosition([...taken, ...expected], slots);
      if (next === null) break;
      expected.push(next);
    }
    for (const v of vaults)
      if (!expected.includes(v.position!)) {
        bad.add(v);
        plan.problems.push({
          row: v.row,
          column: positionLabel,
          message: leavesGap(v.position!, fieldName(v.col!, v.fieldRow!), expected),
        });
      }
  }
  if (bad.size > 0) plan.vaults = plan.vaults.filter((v) => !bad.has(v));
}
