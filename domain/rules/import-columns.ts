/**
 * The columns of a spreadsheet import (issue 17) and the header names they are recognised by. Shared by the server,
 * which reads the file, and the web app, which shows the mapping step; the export writes the same headers, so an
 * exported file imports back as it is.
 */

/** The vault columns a template shows: where a vault stands and what it is. */
export const VAULT_TEMPLATE_COLUMNS = [
  'warehouse',
  'field',
  'position',
  'vault_number',
  'customer',
  'order',
  'type',
  'note',
] as const;

/**
 * Optional layout columns the vault export writes, so a company's warehouses come back as they were when the import
 * creates them: the field's type (vault or couchbox) and full flag, and the warehouse's dimensions. A row with a
 * warehouse (and maybe a field) but no vault columns and no position describes only the layout.
 */
export const VAULT_DIMENSION_COLUMNS = [
  'warehouse_rows',
  'warehouse_cols',
  'field_capacity',
  'warehouse_length',
  'warehouse_width',
  'grid_x',
  'grid_y',
] as const;
export const VAULT_LAYOUT_COLUMNS = ['field_type', 'field_full', ...VAULT_DIMENSION_COLUMNS] as const;

export const VAULT_IMPORT_COLUMNS = [...VAULT_TEMPLATE_COLUMNS, ...VAULT_LAYOUT_COLUMNS] as const;

/**
 * Optional storage-account columns of a vault import (issue 28): an order whose rows name an account kind gets its
 * storage account in the import's transaction, billed to the order's customer. The export does not write them
 * (accounts travel in the company file), so they are read, never written.
 */
export const VAULT_ACCOUNT_COLUMNS = [
  'account_kind',
  'sit_authorization',
  'sit_start',
  'sit_days_allowed',
  'sit_payer',
  'agency_name',
  'agency_reference',
  'billing_cycle',
  'bill_to_name',
  'bill_to_address',
] as const;
export type VaultAccountColumn = (typeof VAULT_ACCOUNT_COLUMNS)[number];

/** Every column a vault import reads: the exported ones and the account columns. */
export const VAULT_READ_COLUMNS = [...VAULT_IMPORT_COLUMNS, ...VAULT_ACCOUNT_COLUMNS] as const;
export type VaultImportColumn = (typeof VAULT_READ_COLUMNS)[number];

/** What a pallet row says of the pallet itself, apart from where it stands (warehouse, rack, shelf). */
export const PALLET_ROW_COLUMNS = [
  'slot',
  'customer',
  'pallet_name',
  'pallet_number',
  'spaces',
  'weight',
  'notes',
] as const;

/** The pallet columns a template shows. */
export const PALLET_TEMPLATE_COLUMNS = ['warehouse', 'rack', 'shelf', ...PALLET_ROW_COLUMNS] as const;

/**
 * Optional rack columns the pallet export writes, so the import can create a rack the warehouse does not have yet:
 * its shelves, the slots of each shelf, its size, orientation and place on the floor. A row with a rack but no shelf
 * and no pallet columns describes only the rack (an empty rack).
 */
export const RACK_LAYOUT_COLUMNS = [
  'rack_shelves',
  'shelf_capacity',
  'rack_width',
  'rack_length',
  'rack_orientation',
  'rack_x',
  'rack_y',
] as const;

/**
 * The order (lot) a pallet belongs to, optional: its storage account bills the pallet (issue 28). Last, so files
 * written before it existed read the same.
 */
export const PALLET_ORDER_COLUMNS = ['order'] as const;

export const PALLET_IMPORT_COLUMNS = [
  ...PALLET_TEMPLATE_COLUMNS,
  ...RACK_LAYOUT_COLUMNS,
  ...PALLET_ORDER_COLUMNS,
] as const;
export type PalletImportColumn = (typeof PALLET_IMPORT_COLUMNS)[number];

export type ImportKind = 'vaults' | 'pallets';

/** The header an export and a template write for each column. */
export const IMPORT_COLUMN_LABELS: Record<VaultImportColumn | PalletImportColumn, string> = {
  warehouse: 'Warehouse',
  field: 'Field',
  position: 'Position',
  vault_number: 'Vault Number',
  customer: 'Customer',
  order: 'Order',
  type: 'Type',
  note: 'Note',
  field_type: 'Field Type',
  field_full: 'Field Full',
  warehouse_rows: 'Warehouse Rows',
  warehouse_cols: 'Warehouse Columns',
  field_capacity: 'Field Capacity',
  warehouse_length: 'Warehouse Length',
  warehouse_width: 'Warehouse Width',
  grid_x: 'Field Grid X',
  grid_y: 'Field Grid Y',
  account_kind: 'Account Kind',
  sit_authorization: 'SIT Authorization',
  sit_start: 'SIT Start',
  sit_days_allowed: 'SIT Days Allowed',
  sit_payer: 'SIT Payer',
  agency_name: 'Agency',
  agency_reference: 'Agency Reference',
  billing_cycle: 'Billing Day',
  bill_to_name: 'Bill To',
  bill_to_address: 'Bill To Address',
  rack: 'Rack',
  shelf: 'Shelf',
  slot: 'Slot',
  pallet_name: 'Pallet Name',
  pallet_number: 'Pallet Number',
  spaces: 'Spaces',
  weight: 'Weight',
  notes: 'Notes',
  rack_shelves: 'Rack Shelves',
  shelf_capacity: 'Shelf Capacity',
  rack_width: 'Rack Width',
  rack_length: 'Rack Length',
  rack_orientation: 'Rack Orientation',
  rack_x: 'Rack X',
  rack_y: 'Rack Y',
};

/** Other names spreadsheets use for a column (compared after `headerKey`); Print Studio's CSV headers among them. */
const SYNONYMS: Record<ImportKind, Record<string, readonly string[]>> = {
  vaults: {
    warehouse: ['warehouse', 'warehouse name', 'location', 'facility', 'site', 'building'],
    field: ['field', 'field name', 'bay', 'area', 'zone', 'row'],
    position: ['position', 'pos', 'level', 'tier', 'height', 'slot'],
    vault_number: [
      'vault number',
      'vault name',
      'vault',
      'vault no',
      'vault #',
      'vault id',
      'container',
      'container number',
      'unit',
      'unit number',
      'number',
      '#',
    ],
    customer: ['customer', 'customer name', 'client', 'client name', 'account', 'account name', 'owner'],
    order: ['order', 'order name', 'order number', 'order no', 'job', 'job number', 'shipment', 'reference'],
    type: ['type', 'vault type', 'kind'],
    note: ['note', 'notes', 'comment', 'comments', 'remarks', 'description'],
    // only their own names: a bare "Width" or "Rows" in a customer's sheet may mean something else
    warehouse_cols: ['warehouse cols'],
    account_kind: ['account type', 'storage account', 'storage kind', 'storage type'],
    sit_authorization: [
      'sit authorization number',
      'sit authorization #',
      'sit auth',
      'authorization number',
      'authorization #',
      'authorization',
    ],
    sit_start: ['sit start date', 'sit from'],
    sit_days_allowed: ['sit days'],
    sit_payer: ['sit paid by', 'paid by during sit'],
    agency_name: ['agency name', 'carrier'],
    agency_reference: ['agency ref', 'carrier reference'],
    billing_cycle: ['billing cycle', 'billing'],
    bill_to_name: ['bill to name', 'billed to'],
  },
  pallets: {
    warehouse: ['warehouse', 'warehouse name', 'location', 'facility', 'site'],
    rack: ['rack', 'rack name'],
    shelf: ['shelf', 'shelf number', 'level'],
    slot: ['slot', 'slot number', 'spot', 'position'],
    customer: ['customer', 'customer name', 'client', 'account', 'owner'],
    pallet_name: ['pallet name', 'pallet', 'name', 'description'],
    pallet_number: ['pallet number', 'pallet no', 'pallet #', 'number', '#'],
    spaces: ['spaces', 'shelf spaces', 'spots', 'size', 'width'],
    weight: ['weight', 'weight lbs', 'weight kg', 'lbs', 'kg'],
    notes: ['notes', 'note', 'comment', 'comments', 'remarks'],
    order: ['order', 'order name', 'order number', 'order no', 'lot', 'job', 'job number'],
  },
};

/** A header as compared: lower case, single spaces, without punctuation other than '#'. */
export function headerKey(header: string): string {
  return header
    .toLowerCase()
    .replace(/[^a-z0-9#]+/g, ' ')
    .trim();
}

export function importColumns(kind: ImportKind): readonly string[] {
  return kind === 'vaults' ? VAULT_READ_COLUMNS : PALLET_IMPORT_COLUMNS;
}

/** Which file header each column is read from, by column; a column no header names is missing. */
export type ColumnMapping = Partial<Record<string, string>>;

/**
 * The recognised mapping of a file's headers: each column takes the first header that is one of its names, each
 * header serves one column at most, and a column's own name wins over a synonym another column would take.
 */
export function recogniseHeaders(kind: ImportKind, headers: readonly string[]): ColumnMapping {
  const mapping: ColumnMapping = {};
  const used = new Set<string>();
  const keys = headers.map(headerKey);
  const synonyms = SYNONYMS[kind];
  // two passes: exact labels first (an exported file maps back exactly), then the other names in order
  for (const column of importColumns(kind)) {
    const label = headerKey(IMPORT_COLUMN_LABELS[column as VaultImportColumn]);
    const at = keys.findIndex((k, i) => k === label && !used.has(headers[i]!));
    if (at >= 0) {
      mapping[column] = headers[at]!;
      used.add(headers[at]!);
    }
  }
  for (const column of importColumns(kind)) {
    if (mapping[column] !== undefined) continue;
    for (const name of synonyms[column] ?? []) {
      const at = keys.findIndex((k, i) => k === name && !used.has(headers[i]!));
      if (at >= 0) {
        mapping[column] = headers[at]!;
        used.add(headers[at]!);
        break;
      }
    }
  }
  return mapping;
}

/** The columns an import cannot do without. */
export const REQUIRED_COLUMNS: Record<ImportKind, readonly string[]> = {
  vaults: ['customer'],
  pallets: ['warehouse', 'rack', 'shelf', 'customer'],
};

/** The template's header and example row. */
export function importTemplate(kind: ImportKind): { header: string[]; example: (string | number)[] } {
  if (kind === 'vaults')
    return {
      header: VAULT_TEMPLATE_COLUMNS.map((c) => IMPORT_COLUMN_LABELS[c]),
      example: [
        'Example Warehouse',
        'A1',
        3,
        'EX-1001',
        'EXAMPLE CUSTOMER',
        'EX-ORDER-1',
        'vault',
        'Example note',
      ],
    };
  return {
    header: PALLET_TEMPLATE_COLUMNS.map((c) => IMPORT_COLUMN_LABELS[c]),
    example: [
      'Example Warehouse',
      'Example Rack',
      1,
      1,
      'EXAMPLE CUSTOMER',
      'Example pallet',
      'EX-P-1',
      1,
      120,
      'Example note',
    ],
  };
}

/** The most rows one file may hold, and the largest file, both said in the refusal. */
export const MAX_IMPORT_ROWS = 50_000;
