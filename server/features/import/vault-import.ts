import { DEFAULT_FIELD_CAPACITY, isCouchboxField, VAULT_TYPES } from '@domain/rules/capacity';
import {
  beyondSlots,
  freeSlot,
  type SlotField,
  type SlotRefusalReason,
  slotRefusals,
} from '@domain/rules/slots';
import { columnLetters, fieldName, parseFieldName } from '@domain/rules/field-names';
import {
  type ColumnMapping,
  IMPORT_COLUMN_LABELS,
  REQUIRED_COLUMNS,
  VAULT_ACCOUNT_COLUMNS,
  VAULT_READ_COLUMNS,
  VAULT_DIMENSION_COLUMNS,
  type VaultImportColumn,
} from '@domain/rules/import-columns';
import { STAGED_FIELD_NAME } from '@domain/rules/print-order';
import { readAccountCells } from '@domain/rules/import-accounts';
import { AccountTermsSchema, type AccountTermsValues } from '@domain/schemas/billing.schema';
import type { ImportProblemDto, NewWarehouseDto } from '@domain/schemas/import.schema';
import { UpdateVaultSchema } from '@domain/schemas/vault.schema';
import {
  AddWarehouseSchema,
  FieldGridLocationSchema,
  MAX_GRID_COLS,
  MAX_GRID_ROWS,
} from '@domain/schemas/warehouse.schema';
import type { Db } from '../../db/database';
import { slotField } from '../vaults/slot-placement';
import { belowIsPaired, noFieldBelow } from '../fields/fields.service';
import { normaliseDetails, type VaultDetails } from '@domain/rules/placeholders';
import {
  type ImportFieldRow,
  type ImportWarehouseRow,
  findCompanyFields,
  findCompanyVaultPlaces,
  findCompanyWarehouses,
} from './import.repo';
import type { Sheet } from './read-sheet';
import { findBilledOrderNames } from '../accounts/accounts.repo';

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

/** A warehouse the import creates: its dimensions, and its couchboxes (upper fields) and full fields. */
export interface PlannedWarehouse extends NewWarehouseDto {
  length: number;
  width: number;
  /** where the field grid stands on the floor plan */
  gridX: number;
  gridY: number;
  couchboxes: { col: number; row: number }[];
  fullFields: { col: number; row: number }[];
}

/** A storage account the import opens for an order its rows name (issue 28). */
export interface PlannedAccount {
  /** the first row that gives the account's columns */
  row: number;
  orderName: string;
  terms: AccountTermsValues;
}

export interface VaultPlan {
  mapping: ColumnMapping;
  vaults: PlannedVault[];
  accounts: PlannedAccount[];
  newWarehouses: PlannedWarehouse[];
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
export const beyondCapacity = beyondSlots;
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
export const ACCOUNT_NEEDS_ORDER =
  'A storage account is opened for an order: give the row its order, or leave the account columns empty.';
export const accountDiffersFromRow = (order: string, row: number) =>
  `Row ${row} gives order ${order} other account columns; give them once, or the same on every row.`;
export const accountOfSeveralCustomers = (order: string) =>
  `Order ${order} has vaults of several customers in the file; a storage account is for one customer.`;
export const orderAlreadyBilled = (order: string) =>
  `Order ${order} is already billed on a storage account; this row's account columns are not used.`;
export const tooLargeForWarehouse = (what: string) => `A new warehouse cannot have ${what}.`;
export const FIELD_TYPE_WORDS = 'Field type must be vault or couchbox (or empty).';
export const FIELD_FULL_WORDS = 'Field full must be yes or no (or empty).';
export const FIELD_FOR_LAYOUT = 'A field type or full flag needs the field it belongs to.';
export const layoutDiffers = (what: string, has: string | number) =>
  `The warehouse already has ${what} ${has}; change it in the layout editor first, or leave the cell empty.`;
export const differsFromRow = (row: number, value: string | number) =>
  `Row ${row} gives ${value} for the same warehouse or field.`;
export const outsideGrid = (field: string, cols: number, rows: number) =>
  `Field ${field} lies outside the ${cols} columns and ${rows} rows the file gives the warehouse.`;

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

type DimensionColumn = (typeof VAULT_DIMENSION_COLUMNS)[number];
const GRID_POINT = FieldGridLocationSchema.shape.fieldgridLocation.shape;
/** Each dimension by the rule of adding a warehouse by hand, and where a stored warehouse keeps it. */
const DIMENSION_RULES = {
  warehouse_rows: { schema: AddWarehouseSchema.shape.rows, stored: 'rows' },
  warehouse_cols: { schema: AddWarehouseSchema.shape.cols, stored: 'cols' },
  field_capacity: { schema: AddWarehouseSchema.shape.field_capacity, stored: 'field_capacity' },
  warehouse_length: { schema: AddWarehouseSchema.shape.length, stored: 'length' },
  warehouse_width: { schema: AddWarehouseSchema.shape.width, stored: 'width' },
  grid_x: { schema: GRID_POINT.x, stored: 'grid_x' },
  grid_y: { schema: GRID_POINT.y, stored: 'grid_y' },
} as const;

/** A field's type and full flag as a file writes them: 'couchbox' or 'vault', 'yes' or 'no'. */
function readFieldType(text: string): 'vault' | 'couchbox' | null | undefined {
  const t = text.trim().toLowerCase();
  if (t === '') return undefined;
  if (t === 'vault' || t === 'normal') return 'vault';
  if (t === 'couchbox' || t === 'couchbox-t') return 'couchbox';
  return null;
}
function readFlag(text: string): boolean | null | undefined {
  const t = text.trim().toLowerCase();
  if (t === '') return undefined;
  if (['yes', 'true', 'full', '1'].includes(t)) return true;
  if (['no', 'false', '0'].includes(t)) return false;
  return null;
}

/** A warehouse the import creates, with what its rows said about its layout. */
interface WarehouseDraft extends PlannedWarehouse {
  firstRow: number;
  /** dimensions the file gives, with the row that first gave each */
  given: Partial<Record<DimensionColumn, { value: number; row: number }>>;
  /** field "col:row" -> its type and full flag as the file gives them, with their rows */
  fieldTypes: Map<string, { value: 'vault' | 'couchbox'; row: number }>;
  fullFlags: Map<string, { value: boolean; row: number }>;
  /** every row naming one of its fields */
  places: { row: number; col: number; fieldRow: number }[];
}

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
    ...mappingProblems('vaults', mapping, sheet.headers, VAULT_READ_COLUMNS),
    ...sheet.problems,
  ];
  const plan: VaultPlan = { mapping, vaults: [], accounts: [], newWarehouses: [], problems, warnings: [] };
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
  const drafts = new Map<string, WarehouseDraft>();
  const slotRows = new Map<string, number>();
  const numberRows = new Map<string, number>();
  /** rows that name a slot but are refused: their slots still count when the file's stacks are checked */
  const refused: SlotOfRow[] = [];
  /** the storage account each order gets, from the first row that gives its account columns */
  const accounts = new Map<string, PlannedAccount>();
  const readAccount = (row: number, cells: readonly string[], details: VaultDetails, hasOrder: boolean) => {
    const account = readAccountCells(VAULT_ACCOUNT_COLUMNS, (c) => cell(cells, c));
    if (!account.given) return;
    const report = (column: VaultImportColumn, message: string) =>
      problems.push({ row, column: columnLabel(column), message });
    if (!hasOrder || !details.orderName) {
      report('account_kind', ACCOUNT_NEEDS_ORDER);
      return;
    }
    const parsed = AccountTermsSchema.safeParse(account.input);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const path = String(issue.path[0]);
        report(path === 'kind' ? 'account_kind' : (path as VaultImportColumn), issue.message);
      }
      return;
    }
    const earlier = accounts.get(details.orderName);
    if (!earlier) accounts.set(details.orderName, { row, orderName: details.orderName, terms: parsed.data });
    else if (JSON.stringify(earlier.terms) !== JSON.stringify(parsed.data))
      report('account_kind', accountDiffersFromRow(details.orderName, earlier.row));
  };

  for (const { row, cells } of sheet.rows) {
    // a formula or a date is already listed for its cell; the rest of the row is checked once it holds its value, but
    // the slot it names still counts for the rows around it (`refused`)
    if (cellProblemRows.has(row)) {
      const place = parseFieldName(cell(cells, 'field'));
      const position = /^\d+$/.test(cell(cells, 'position')) ? Number(cell(cells, 'position')) : null;
      const named = cell(cells, 'warehouse');
      if (place && position !== null && named !== '')
        refused.push({
          warehouse: findWarehouse(named)?.id ?? drafts.get(named.toLowerCase())?.name ?? named,
          col: place.col,
          fieldRow: place.row,
        });
      continue;
    }
    const problem = (column: VaultImportColumn, message: string) =>
      problems.push({ row, column: columnLabel(column), message });
    const before = problems.length;
    const fieldText = cell(cells, 'field');
    const positionText = cell(cells, 'position');
    const warehouseText = cell(cells, 'warehouse');
    // a row with a warehouse but no vault describes only the layout (an empty warehouse, a couchbox, a full field)
    const layoutOnly =
      warehouseText !== '' &&
      positionText === '' &&
      (['vault_number', 'customer', 'order', 'type', 'note'] as const).every((c) => cell(cells, c) === '');

    // the layout columns: compared with a stored warehouse, given to a new one
    const layout = {
      fieldType: readFieldType(cell(cells, 'field_type')),
      full: readFlag(cell(cells, 'field_full')),
      dimensions: new Map<DimensionColumn, number>(),
    };
    if (layout.fieldType === null) problem('field_type', FIELD_TYPE_WORDS);
    if (layout.full === null) problem('field_full', FIELD_FULL_WORDS);
    for (const column of VAULT_DIMENSION_COLUMNS) {
      const text = cell(cells, column);
      if (text === '') continue;
      const checked = DIMENSION_RULES[column].schema.safeParse(text);
      if (checked.success) layout.dimensions.set(column, checked.data);
      else problem(column, checked.error.issues[0]!.message);
    }

    let details: VaultDetails | null = null;
    if (!layoutOnly) {
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
      details = parsed.success
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
    }

    // where it goes: a field of a warehouse, or the stage
    const staged = !layoutOnly && (fieldText === '' || sameName(fieldText, STAGED_FIELD_NAME));
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
      const place = fieldText === '' ? null : parseFieldName(fieldText);
      if (fieldText !== '' && !place) problem('field', notAFieldName(fieldText));
      const position = /^\d+(\.0+)?$/.test(positionText) ? Number(positionText) : null;
      if (layoutOnly) {
        if (fieldText === '' && (layout.fieldType !== undefined || layout.full !== undefined))
          problem('field', FIELD_FOR_LAYOUT);
      } else if (positionText === '') problem('position', POSITION_REQUIRED);
      else if (position === null || position < 1) problem('position', notAPosition(positionText));
      let warehouse: number | string | null = null;
      let field: ImportFieldRow | undefined;
      if (warehouseText === '') problem('warehouse', WAREHOUSE_REQUIRED);
      else {
        const found = findWarehouse(warehouseText);
        if (found) {
          warehouse = found.id;
          for (const [column, value] of layout.dimensions) {
            const has = Number(found[DIMENSION_RULES[column].stored]);
            if (has !== value) problem(column, layoutDiffers(IMPORT_COLUMN_LABELS[column], has));
          }
          if (place) {
            field = fieldAt.get(`${found.id}:${place.col}:${place.row}`);
            if (!field) problem('field', missingField(fieldName(place.col, place.row), found.name));
            else {
              const couchbox = isCouchboxField(field.type);
              if (layout.fieldType !== undefined && (layout.fieldType === 'couchbox') !== couchbox)
                problem('field_type', layoutDiffers('Field Type', couchbox ? 'couchbox' : 'vault'));
              if (layout.full !== undefined && layout.full !== Boolean(Number(field.full)))
                problem('field_full', layoutDiffers('Field Full', field.full ? 'yes' : 'no'));
            }
          }
        } else if (!createWarehouses) problem('warehouse', MISSING_WAREHOUSE);
        else {
          const nameCheck = AddWarehouseSchema.shape.name.safeParse(warehouseText);
          if (!nameCheck.success) problem('warehouse', nameCheck.error.issues[0]!.message);
          else {
            const key = warehouseText.toLowerCase();
            let draft = drafts.get(key);
            if (!draft) {
              draft = {
                name: warehouseText,
                rows: 1,
                cols: 1,
                field_capacity: DEFAULT_FIELD_CAPACITY,
                length: 0,
                width: 0,
                gridX: 0,
                gridY: 0,
                couchboxes: [],
                fullFields: [],
                firstRow: row,
                given: {},
                fieldTypes: new Map(),
                fullFlags: new Map(),
                places: [],
              };
              drafts.set(key, draft);
            }
            warehouse = draft.name;
            for (const [column, value] of layout.dimensions) {
              const earlier = draft.given[column];
              if (!earlier) draft.given[column] = { value, row };
              else if (earlier.value !== value) problem(column, differsFromRow(earlier.row, earlier.value));
            }
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
                draft.places.push({ row, col: place.col, fieldRow: place.row });
                const at = `${place.col}:${place.row}`;
                const earlierType = draft.fieldTypes.get(at);
                if (layout.fieldType)
                  if (!earlierType) draft.fieldTypes.set(at, { value: layout.fieldType, row });
                  else if (earlierType.value !== layout.fieldType)
                    problem('field_type', differsFromRow(earlierType.row, earlierType.value));
                const earlierFull = draft.fullFlags.get(at);
                if (layout.full !== undefined && layout.full !== null)
                  if (!earlierFull) draft.fullFlags.set(at, { value: layout.full, row });
                  else if (earlierFull.value !== layout.full)
                    problem('field_full', differsFromRow(earlierFull.row, earlierFull.value ? 'yes' : 'no'));
              }
            }
            // a couchbox field has one slot more than the warehouse's capacity
            if (position !== null && position > MAX_FIELD_CAPACITY + 1)
              problem(
                'position',
                tooLargeForWarehouse(`more than ${MAX_FIELD_CAPACITY + 1} slots in a field`),
              );
          }
        }
      }
      if (!layoutOnly && field && position !== null && position >= 1) {
        const storedWarehouse = warehouses.find((w) => w.id === field.warehouse_id)!;
        const place = { ...slotField(field), capacity: Number(storedWarehouse.field_capacity) };
        for (const p of slotProblems(place, occupied.get(field.id) ?? [], details, position))
          problem(p.column, p.message);
      }
      if (!layoutOnly && place && position !== null && warehouse !== null) {
        const slot = `${warehouse}:${place.col}:${place.row}:${position}`;
        const first = slotRows.get(slot);
        if (first !== undefined)
          problem('position', slotInFile(fieldName(place.col, place.row), position, first));
        else slotRows.set(slot, row);
      }
      if (!layoutOnly)
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
    if (details) readAccount(row, cells, details, orderColumn);
    if (problems.length === before && planned) plan.vaults.push(planned);
    else if (planned && planned.warehouse !== null && planned.position !== null) refused.push(planned);
  }

  await planAccounts(db, companyId, plan, accounts, columnLabel('account_kind'));
  const slotsOfNew = planNewWarehouses(plan, drafts, columnLabel);
  checkContiguous(plan, refused, occupied, fieldById, warehouses, slotsOfNew, columnLabel('position'));
  problems.sort((a, b) => a.row - b.row);
  plan.warnings.sort((a, b) => a.row - b.row);
  return plan;
}

/**
 * The accounts to open: one per order whose rows give account columns, for the one customer of the order's rows; an
 * order already billed keeps its account (a warning says so).
 */
async function planAccounts(
  db: Db,
  companyId: number,
  plan: VaultPlan,
  accounts: Map<string, PlannedAccount>,
  label: string,
): Promise<void> {
  if (accounts.size === 0) return;
  const customersOf = new Map<string, Set<string>>();
  for (const v of plan.vaults)
    if (v.details.orderName)
      customersOf.set(
        v.details.orderName,
        (customersOf.get(v.details.orderName) ?? new Set()).add(v.details.customerName),
      );
  const billed = await findBilledOrderNames(db, companyId, [...accounts.keys()]);
  for (const account of accounts.values()) {
    if (billed.has(account.orderName))
      plan.warnings.push({ row: account.row, column: label, message: orderAlreadyBilled(account.orderName) });
    else if ((customersOf.get(account.orderName)?.size ?? 0) > 1)
      plan.problems.push({
        row: account.row,
        column: label,
        message: accountOfSeveralCustomers(account.orderName),
      });
    else plan.accounts.push(account);
  }
}

/**
 * The warehouses to create: the dimensions the file gives (each at least what its rows need), otherwise the
 * smallest that hold its rows; its couchboxes and full fields. The vaults of a new warehouse are then checked as a
 * stored one's are: no vault in a couchbox's hidden lower half, within the field's slots, couchbox vaults only in
 * couchbox fields. Answers the slot count of a new warehouse's field.
 */
function planNewWarehouses(
  plan: VaultPlan,
  drafts: Map<string, WarehouseDraft>,
  columnLabel: (c: VaultImportColumn) => string,
): (warehouse: string, col: number, row: number) => NewField {
  const report = (row: number, column: VaultImportColumn, message: string) =>
    plan.problems.push({ row, column: columnLabel(column), message });
  const byName = new Map<string, WarehouseDraft>();
  for (const draft of drafts.values()) {
    // (a loop, not Math.max(...): a file may name 50,000 places)
    let needCols = 1;
    let needRows = 1;
    for (const p of draft.places) {
      needCols = Math.max(needCols, p.col);
      needRows = Math.max(needRows, p.fieldRow);
    }
    draft.cols = draft.given.warehouse_cols?.value ?? needCols;
    draft.rows = draft.given.warehouse_rows?.value ?? needRows;
    draft.length = draft.given.warehouse_length?.value ?? 0;
    draft.width = draft.given.warehouse_width?.value ?? 0;
    draft.gridX = draft.given.grid_x?.value ?? 0;
    draft.gridY = draft.given.grid_y?.value ?? 0;
    for (const p of draft.places)
      if (p.col > draft.cols || p.fieldRow > draft.rows)
        report(p.row, 'field', outsideGrid(fieldName(p.col, p.fieldRow), draft.cols, draft.rows));
    for (const [at, { value, row }] of draft.fieldTypes) {
      if (value !== 'couchbox') continue;
      const [col, fieldRow] = at.split(':').map(Number) as [number, number];
      const name = fieldName(col, fieldRow);
      if (fieldRow + 1 > draft.rows) report(row, 'field_type', noFieldBelow(name));
      else if (draft.fieldTypes.get(`${col}:${fieldRow + 1}`)?.value === 'couchbox')
        report(row, 'field_type', belowIsPaired(fieldName(col, fieldRow + 1)));
      else draft.couchboxes.push({ col, row: fieldRow });
    }
    for (const [at, { value }] of draft.fullFlags) {
      const [col, fieldRow] = at.split(':').map(Number) as [number, number];
      if (value) draft.fullFields.push({ col, row: fieldRow });
    }
    byName.set(draft.name, draft);
  }
  const typeOf = (draft: WarehouseDraft, col: number, row: number) =>
    draft.couchboxes.some((c) => c.col === col && c.row === row)
      ? 'couchbox-T'
      : draft.couchboxes.some((c) => c.col === col && c.row === row - 1)
        ? 'couchbox-B'
        : 'vault';
  const newField = (draft: WarehouseDraft, col: number, row: number): NewField => ({
    type: typeOf(draft, col, row),
    full: false,
    capacity: draft.field_capacity,
  });
  // without a given capacity: the smallest that holds the file's positions (a couchbox holds one more)
  for (const draft of byName.values()) {
    if (draft.given.field_capacity) {
      draft.field_capacity = draft.given.field_capacity.value;
      continue;
    }
    let need = DEFAULT_FIELD_CAPACITY;
    for (const v of plan.vaults)
      if (v.warehouse === draft.name && v.position !== null && v.col !== null && v.fieldRow !== null)
        need = Math.max(
          need,
          typeOf(draft, v.col, v.fieldRow) === 'couchbox-T' ? v.position - 1 : v.position,
        );
    draft.field_capacity = Math.min(MAX_FIELD_CAPACITY, need);
  }
  const bad = new Set<PlannedVault>();
  for (const v of plan.vaults) {
    if (typeof v.warehouse !== 'string' || v.col === null || v.fieldRow === null || v.position === null)
      continue;
    const draft = byName.get(v.warehouse)!;
    const before = plan.problems.length;
    // a new field is empty; a full flag of the file marks it once its vaults are in
    const place = { name: fieldName(v.col, v.fieldRow), ...newField(draft, v.col, v.fieldRow) };
    if (v.col > draft.cols || v.fieldRow > draft.rows)
      bad.add(v); // already said
    else for (const p of slotProblems(place, [], v.details, v.position)) report(v.row, p.column, p.message);
    if (plan.problems.length > before) bad.add(v);
  }
  if (bad.size > 0) plan.vaults = plan.vaults.filter((v) => !bad.has(v));
  for (const draft of byName.values())
    plan.newWarehouses.push({
      name: draft.name,
      rows: draft.rows,
      cols: draft.cols,
      field_capacity: draft.field_capacity,
      length: draft.length,
      width: draft.width,
      gridX: draft.gridX,
      gridY: draft.gridY,
      couchboxes: draft.couchboxes,
      fullFields: draft.fullFields,
    });
  return (warehouse, col, row) => {
    const draft = byName.get(warehouse);
    return draft
      ? newField(draft, col, row)
      : { type: 'vault', full: false, capacity: DEFAULT_FIELD_CAPACITY };
  };
}

/** A field as the slot rules see it, before it exists or without its name. */
type NewField = Pick<SlotField, 'type' | 'full' | 'capacity'>;

/** Where each slot refusal of a row is reported: the field's kind and flag, the position, the type. */
const PROBLEM_COLUMN: Partial<Record<SlotRefusalReason, 'field' | 'position'>> = {
  'couchbox-bottom': 'field',
  full: 'field',
  beyond: 'position',
  taken: 'position',
};

/**
 * A row's slot problems, from the domain's slot decision: the first about its field or position, and its type's. The
 * order of the field's vaults (no gap, from the bottom up) is checked over the whole file (`checkContiguous`).
 */
function slotProblems(
  field: SlotField,
  occupied: readonly number[],
  details: VaultDetails | null | undefined,
  position: number,
): { column: VaultImportColumn; message: string }[] {
  // without readable details the row's type is not known: only its place is checked
  const unit = details ? { type: details.type, customerName: details.customerName } : null;
  const refusals = slotRefusals(field, occupied, unit ?? { type: 'vault', customerName: 'EMPTY' }, position);
  const out: { column: VaultImportColumn; message: string }[] = [];
  const place = refusals.find((r) => PROBLEM_COLUMN[r.reason] !== undefined);
  if (place)
    out.push({
      column: PROBLEM_COLUMN[place.reason]!,
      message: place.reason === 'taken' ? slotTaken(field.name, position) : place.message,
    });
  const type = refusals.find((r) => r.reason === 'wrong-type');
  if (type && unit) out.push({ column: 'type', message: type.message });
  return out;
}

type SlotOfRow = Pick<PlannedVault, 'warehouse' | 'col' | 'fieldRow'>;

/**
 * A field fills from its bottom slot up (the API's next free slot), so the file's vaults of one field must take
 * exactly its highest free positions: what adding them one by one through the API would give. The rows refused for
 * another reason (`refused`) count as the slots they name, so a row above one of them is not also said to leave a gap.
 */
function checkContiguous(
  plan: VaultPlan,
  refused: readonly SlotOfRow[],
  occupied: Map<number, number[]>,
  fieldById: Map<number, ImportFieldRow>,
  warehouses: ImportWarehouseRow[],
  slotsOfNew: (warehouse: string, col: number, row: number) => NewField,
  positionLabel: string,
): void {
  const byField = new Map<string, PlannedVault[]>();
  const refusedIn = new Map<string, number>();
  const keyOf = (v: SlotOfRow) => `${v.warehouse}:${v.col}:${v.fieldRow}`;
  for (const v of plan.vaults) {
    if (v.warehouse === null || v.position === null) continue;
    const list = byField.get(keyOf(v));
    if (list) list.push(v);
    else byField.set(keyOf(v), [v]);
  }
  for (const v of refused) refusedIn.set(keyOf(v), (refusedIn.get(keyOf(v)) ?? 0) + 1);
  const bad = new Set<PlannedVault>();
  for (const [key, vaults] of byField) {
    const first = vaults[0]!;
    let taken: number[] = [];
    let place: NewField;
    if (first.fieldId !== null) {
      const field = fieldById.get(first.fieldId)!;
      const capacity = warehouses.find((w) => w.id === field.warehouse_id)!.field_capacity;
      // the file's rows are checked against the field's slots; its full flag was said once per row already
      place = { type: field.type, full: false, capacity: Number(capacity) };
      taken = [...(occupied.get(first.fieldId) ?? [])];
    } else place = slotsOfNew(String(first.warehouse), first.col!, first.fieldRow!);
    const expected: number[] = [];
    for (let i = 0; i < vaults.length + (refusedIn.get(key) ?? 0); i++) {
      const next = freeSlot(place, [...taken, ...expected]);
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
