import type { Selectable } from 'kysely';
import { INVOICE_STATUSES } from '@domain/billing/ledger';
import { RATE_KINDS, UNIT_TYPES } from '@domain/billing/rates';
import { ACCOUNT_KINDS, BILLING_CYCLES, SIT_PAYERS } from '@domain/schemas/billing.schema';
import { VAULT_TYPES } from '@domain/rules/capacity';
import { INVENTORY_ROLES } from '@domain/rules/inventory';
import { RACK_ORIENTATIONS } from '@domain/rules/rack-placement';
import { ROLES } from '@domain/rules/roles';
import type { Database } from '../db/schema';
import type { EventRecord } from '../events/event-log.repo';
import type { TenantTable } from './transfer.repo';

export const EXPORT_FORMAT = 'warehouse-manager-company';
export const EXPORT_VERSION = 1;

export type Row = Record<string, unknown>;

export interface CompanyExport {
  format: typeof EXPORT_FORMAT;
  version: number;
  /** `locale`: absent from files written before companies had one */
  company: { name: string; created_at: string; locale?: string };
  tables: Record<TenantTable, Row[]>;
}

/**
 * How one column travels in the file. `ref` holds the id of a row of `table` in the same file; `entity` (events only)
 * the id of a row of the table its entity_type names. A `soft` reference has no foreign key: what it named may be
 * gone, and the export then writes null.
 */
type Kind = 'id' | 'integer' | 'real' | 'flag' | 'text' | 'timestamp' | 'bytes' | 'ref' | 'entity';

export interface ColumnRule {
  kind: Kind;
  nullable: boolean;
  table?: TenantTable;
  soft?: boolean;
  /** absent from files written before the column existed; read as null */
  optional?: boolean;
  /** the only texts the app writes into the column */
  values?: readonly string[];
}

// The kinds a column may have, from its type in schema.ts: a rule that does not fit its column does not compile.
type KindOf<V> = [NonNullable<V>] extends [string]
  ? 'text' | 'timestamp'
  : [NonNullable<V>] extends [number]
    ? 'id' | 'integer' | 'real' | 'flag' | 'ref' | 'entity'
    : [NonNullable<V>] extends [Buffer]
      ? 'bytes'
      : never;

type RuleFor<V> = ColumnRule & { kind: KindOf<V>; nullable: null extends V ? true : false };

/**
 * Every column of the table except company_id, which never comes from a file. A column added to schema.ts makes
 * this type demand a rule for it, so nobody adds a column without deciding how it is exported and checked.
 */
export type TableRules<T extends TenantTable> = {
  [C in Exclude<keyof Selectable<Database[T]>, 'company_id'>]: RuleFor<Selectable<Database[T]>[C]>;
};

const id = { kind: 'id', nullable: false } as const;
const integer = { kind: 'integer', nullable: false } as const;
const real = { kind: 'real', nullable: false } as const;
const flag = { kind: 'flag', nullable: false } as const;
const text = { kind: 'text', nullable: false } as const;
const timestamp = { kind: 'timestamp', nullable: false } as const;
/** a calendar day, YYYY-MM-DD */
const day = { kind: 'timestamp', nullable: false } as const;
const bytes = { kind: 'bytes', nullable: false } as const;
const ref = (table: TenantTable) => ({ kind: 'ref', nullable: false, table }) as const;
const oneOf = (values: readonly string[]) => ({ kind: 'text', nullable: false, values }) as const;
const orNull = <R extends ColumnRule>(rule: R) => ({ ...rule, nullable: true }) as const;

// a couchbox takes two fields, couchbox-T over couchbox-B; 'couchbox' is the older name of the top half
const FIELD_TYPES = ['vault', 'couchbox', 'couchbox-T', 'couchbox-B'];

/**
 * The tables of a company in an order where every reference points backwards (the import inserts in this order),
 * each with the only columns a file may hold for it.
 */
export const TABLE_RULES: { [T in TenantTable]: TableRules<T> } = {
  users: {
    id,
    email: text,
    username: text,
    password_hash: text,
    role: { kind: 'text', nullable: false, values: ROLES, optional: true },
    active: { kind: 'flag', nullable: false, optional: true },
    last_sign_in_at: { kind: 'timestamp', nullable: true, optional: true },
    created_at: timestamp,
  },
  warehouses: {
    id,
    name: text,
    slug: text,
    rows: integer,
    cols: integer,
    field_capacity: integer,
    length: real,
    width: real,
    grid_x: real,
    grid_y: real,
    version: integer,
    created_at: timestamp,
  },
  fields: {
    id,
    warehouse_id: ref('warehouses'),
    col: integer,
    row: integer,
    type: oneOf(FIELD_TYPES),
    full: flag,
  },
  // the customer's address (issue 29); files from before it travelled have none
  customers: { id, name: text, email: { kind: 'text', nullable: true, optional: true } },
  orders: { id, name: text },
  vaults: {
    id,
    name: orNull(text),
    customer_id: ref('customers'),
    order_id: orNull(ref('orders')),
    field_id: orNull(ref('fields')),
    position: orNull(integer),
    type: oneOf(VAULT_TYPES),
    note: orNull(text),
    version: integer,
    created_at: timestamp,
    updated_at: timestamp,
    // released vaults (issue 16); files from before release existed have neither
    released_at: { kind: 'timestamp', nullable: true, optional: true },
    released_by: { kind: 'text', nullable: true, optional: true },
    label_code: { kind: 'text', nullable: true, optional: true },
  },
  // condition inventories (issue 29, decision 049), before the attachments that hold their photos and signatures
  inventory_codes: { id, code: text, meaning: text, created_by: orNull(text), created_at: timestamp },
  inventories: {
    id,
    vault_id: ref('vaults'),
    pickup_signer: orNull(text),
    pickup_signed_at: orNull(timestamp),
    delivery_signer: orNull(text),
    delivery_signed_at: orNull(timestamp),
    created_by: orNull(text),
    created_at: timestamp,
  },
  inventory_items: {
    id,
    inventory_id: ref('inventories'),
    sticker: text,
    description: text,
    room: orNull(text),
    codes: text,
    high_value: flag,
    delivered_by: orNull(text),
    delivered_at: orNull(timestamp),
    created_by: orNull(text),
    created_at: timestamp,
  },
  attachments: {
    id,
    vault_id: ref('vaults'),
    file_name: text,
    content_type: text,
    size: integer,
    content: bytes,
    created_at: timestamp,
    // files from before inventories travelled have none
    inventory_id: { kind: 'ref', nullable: true, table: 'inventories', optional: true },
    inventory_item_id: { kind: 'ref', nullable: true, table: 'inventory_items', optional: true },
    inventory_role: { kind: 'text', nullable: true, values: INVENTORY_ROLES, optional: true },
  },
  racks: {
    id,
    warehouse_id: ref('warehouses'),
    name: text,
    orientation: oneOf(RACK_ORIENTATIONS),
    width: real,
    length: real,
    x: real,
    y: real,
    capacity: integer,
    version: integer,
    created_at: timestamp,
  },
  shelves: { id, rack_id: ref('racks'), position: integer, capacity: integer },
  pallets: {
    id,
    shelf_id: ref('shelves'),
    customer_id: ref('customers'),
    name: orNull(text),
    pallet_number: orNull(text),
    notes: orNull(text),
    weight: real,
    shelf_spots: integer,
    slot_index: integer,
    version: integer,
    created_at: timestamp,
    // the pallet's order (issue 28, billing); files from before pallets had orders have none
    order_id: { kind: 'ref', nullable: true, table: 'orders', optional: true },
  },
  // pallets gone while they belonged to an order: their move-out, billed on the order's account
  pallet_departures: {
    id,
    pallet_id: integer,
    order_id: ref('orders'),
    warehouse_id: { kind: 'ref', nullable: true, table: 'warehouses', soft: true },
    label: orNull(text),
    moved_in_at: timestamp,
    moved_out_by: orNull(text),
    moved_out_at: timestamp,
  },
  checklists: {
    id,
    warehouse_id: ref('warehouses'),
    description: text,
    is_active: flag,
    filled_out_by: orNull(text),
    // the secret of the public fill-in link travels with the company, so printed links keep working after a move;
    // files from before the keys existed have none, and the import issues new ones
    link_key: { kind: 'text', nullable: true, optional: true },
    version: integer,
    created_at: timestamp,
  },
  checklist_tasks: {
    id,
    checklist_id: ref('checklists'),
    position: integer,
    text,
    completed: flag,
    completed_by: orNull(text),
    reason: orNull(text),
    completed_at: orNull(timestamp),
  },
  pull_lists: {
    id,
    title: text,
    customer_id: orNull(ref('customers')),
    order_id: orNull(ref('orders')),
    created_by: orNull(text),
    created_at: timestamp,
    released_at: orNull(timestamp),
    released_by: orNull(text),
    version: integer,
  },
  pull_list_items: {
    id,
    pull_list_id: ref('pull_lists'),
    vault_id: ref('vaults'),
    role: oneOf(['pull', 'in-the-way']),
    state: oneOf(['todo', 'pulled', 'set-aside', 'put-back']),
    from_field_id: orNull(ref('fields')),
    from_position: orNull(integer),
    done_by: orNull(text),
    done_at: orNull(timestamp),
  },
  warehouse_checks: {
    id,
    warehouse_id: ref('warehouses'),
    started_by: orNull(text),
    started_at: timestamp,
    finished_by: orNull(text),
    finished_at: orNull(timestamp),
    cancelled_by: { kind: 'text', nullable: true, optional: true },
    cancelled_at: { kind: 'timestamp', nullable: true, optional: true },
    version: integer,
  },
  warehouse_check_fields: {
    id,
    check_id: ref('warehouse_checks'),
    field_id: ref('fields'),
    opened_by: orNull(text),
    opened_at: orNull(timestamp),
  },
  warehouse_check_vaults: {
    id,
    check_id: ref('warehouse_checks'),
    vault_id: ref('vaults'),
    expected_field_id: orNull(ref('fields')),
    found_field_id: orNull(ref('fields')),
    found_by: orNull(text),
    found_at: orNull(timestamp),
    resolution: { kind: 'text', nullable: true, values: ['moved', 'searched'] },
    resolved_by: orNull(text),
    resolved_at: orNull(timestamp),
  },
  // reports of checks whose warehouse was deleted; they keep the check's number and name no row of the file
  check_reports: {
    id,
    check_id: integer,
    warehouse_id: integer,
    warehouse_name: text,
    started_at: timestamp,
    report: text,
    archived_at: timestamp,
  },
  events: {
    id,
    user_id: orNull(ref('users')),
    actor: orNull(text),
    kind: text,
    entity_type: text,
    entity_id: { kind: 'entity', nullable: true },
    warehouse_id: { kind: 'ref', nullable: true, table: 'warehouses', soft: true },
    payload: orNull(text),
    subject: { kind: 'text', nullable: true, optional: true },
    customer: { kind: 'text', nullable: true, optional: true },
    warehouse_name: { kind: 'text', nullable: true, optional: true },
    created_at: timestamp,
  },
  // storage billing (issue 28): absent from files written before it travelled, which import without billing
  storage_accounts: {
    id,
    customer_id: ref('customers'),
    kind: oneOf(ACCOUNT_KINDS),
    sit_authorization: orNull(text),
    sit_payer: { kind: 'text', nullable: true, values: SIT_PAYERS },
    agency_name: orNull(text),
    agency_reference: orNull(text),
    sit_start: orNull(day),
    sit_days_allowed: orNull(integer),
    converted_on: orNull(day),
    billing_cycle: oneOf(BILLING_CYCLES),
    bill_to_name: text,
    bill_to_address: orNull(text),
    declared_value: integer,
    note: orNull(text),
    on_hold: flag,
    created_by: orNull(text),
    created_at: timestamp,
    version: integer,
  },
  storage_account_orders: { id, account_id: ref('storage_accounts'), order_id: ref('orders') },
  storage_account_history: {
    id,
    account_id: ref('storage_accounts'),
    kind: text,
    detail: text,
    created_by: orNull(text),
    created_at: timestamp,
  },
  billing_rates: {
    id,
    kind: oneOf(RATE_KINDS),
    unit_type: { kind: 'text', nullable: true, values: UNIT_TYPES },
    warehouse_id: orNull(ref('warehouses')),
    account_id: orNull(ref('storage_accounts')),
    amount: integer,
    effective_from: day,
    created_by: orNull(text),
    created_at: timestamp,
  },
  // a credit note names its invoice (credit_of), an earlier row of the same table
  invoices: {
    id,
    account_id: ref('storage_accounts'),
    kind: oneOf(['invoice', 'credit']),
    number: orNull(integer),
    status: oneOf(INVOICE_STATUSES),
    period_start: orNull(day),
    period_end: orNull(day),
    billing_key: orNull(text),
    issue_date: orNull(day),
    due_date: orNull(day),
    currency: text,
    subtotal: integer,
    tax: integer,
    total: integer,
    paid: integer,
    credited: integer,
    credit_of: orNull(ref('invoices')),
    reason: orNull(text),
    created_by: orNull(text),
    created_at: timestamp,
    version: integer,
  },
  invoice_lines: {
    id,
    invoice_id: ref('invoices'),
    position: integer,
    kind: text,
    payer: oneOf(SIT_PAYERS),
    // the vault the line is for; no foreign key (the invoice outlives the vault), so a gone vault travels as null
    unit_id: { kind: 'ref', nullable: true, table: 'vaults', soft: true },
    // the pallet the line is for, the same way (files from before pallets were billed have none)
    pallet_id: { kind: 'ref', nullable: true, table: 'pallets', soft: true, optional: true },
    description: text,
    from_day: day,
    to_day: day,
    rate: integer,
    amount: integer,
    tax: integer,
  },
  payments: {
    id,
    account_id: ref('storage_accounts'),
    paid_on: day,
    amount: integer,
    method: text,
    reference: orNull(text),
    created_by: orNull(text),
    created_at: timestamp,
  },
  payment_allocations: {
    id,
    payment_id: ref('payments'),
    invoice_id: ref('invoices'),
    amount: integer,
  },
  // a customer's requests and their units (issue 29, decision 048)
  customer_requests: {
    id,
    customer_id: ref('customers'),
    kind: oneOf(['delivery', 'access', 'pickup']),
    state: oneOf(['requested', 'scheduled', 'pulling', 'loaded', 'delivered', 'cancelled']),
    wished_date: day,
    address: orNull(text),
    notes: orNull(text),
    scheduled_date: orNull(day),
    crew: orNull(text),
    truck: orNull(text),
    pull_list_id: orNull(ref('pull_lists')),
    override_reason: orNull(text),
    created_by: orNull(text),
    created_at: timestamp,
    scheduled_by: orNull(text),
    scheduled_at: orNull(timestamp),
    pulling_by: orNull(text),
    pulling_at: orNull(timestamp),
    loaded_by: orNull(text),
    loaded_at: orNull(timestamp),
    delivered_by: orNull(text),
    delivered_at: orNull(timestamp),
    cancelled_by: orNull(text),
    cancelled_at: orNull(timestamp),
    version: integer,
  },
  customer_request_units: {
    id,
    request_id: ref('customer_requests'),
    vault_id: ref('vaults'),
    loaded_by: orNull(text),
    loaded_at: orNull(timestamp),
  },
  // one row at most, keyed by the company (no id); last, so that its counter is checked against the invoices
  billing_settings: {
    currency: text,
    tax_basis_points: integer,
    sit_days_default: integer,
    payment_terms_days: integer,
    hold_after_days: integer,
    next_invoice_number: integer,
    version: integer,
    // files from before the automatic run read as off
    auto_billing: { kind: 'flag', nullable: false, optional: true },
  },
};

/** The billing tables (issue 28), the first to come into the file later. */
export const BILLING_TABLES: readonly TenantTable[] = [
  'storage_accounts',
  'storage_account_orders',
  'storage_account_history',
  'billing_rates',
  'invoices',
  'invoice_lines',
  'payments',
  'payment_allocations',
  'billing_settings',
  'pallet_departures',
];

/**
 * Tables a company file may lack: they came into the file after files were written without them, and such a file
 * holds none of their rows.
 */
export const LATER_TABLES: ReadonlySet<TenantTable> = new Set([
  ...BILLING_TABLES,
  // customers' requests (issue 29, decision 048)
  'customer_requests',
  'customer_request_units',
  // condition inventories (issue 29, decision 049)
  'inventory_codes',
  'inventories',
  'inventory_items',
]);

/** Whether the table's rows have an id of their own (billing_settings is keyed by its company alone). */
export function hasId(table: TenantTable): boolean {
  return Object.hasOwn(rulesOf(table), 'id');
}

export const TABLES = Object.keys(TABLE_RULES) as TenantTable[];

export function rulesOf(table: TenantTable): Record<string, ColumnRule> {
  return TABLE_RULES[table] as Record<string, ColumnRule>;
}

/**
 * An event names its subject by type; the subject may be gone (a deleted vault), then the export writes null. API
 * tokens and webhooks stay with the installation (decision 044): their events travel with a null entity_id.
 */
const EVENT_ENTITY_TABLE: Partial<Record<EventRecord['entityType'], TenantTable>> = {
  vault: 'vaults',
  field: 'fields',
  warehouse: 'warehouses',
  rack: 'racks',
  pallet: 'pallets',
  checklist: 'checklists',
  member: 'users',
  'pull-list': 'pull_lists',
  check: 'warehouse_checks',
  request: 'customer_requests',
};

/** The table an event's entity_id points into; undefined for a type that names none (never a key of Object). */
export function entityTable(entityType: unknown): TenantTable | undefined {
  const type = String(entityType);
  return Object.hasOwn(EVENT_ENTITY_TABLE, type)
    ? EVENT_ENTITY_TABLE[type as EventRecord['entityType']]
    : undefined;
}

/** Every table an event's entity_id may point into. */
export function entityTables(): TenantTable[] {
  return [...new Set(Object.values(EVENT_ENTITY_TABLE).filter((table) => table !== undefined))];
}

/** Values that must be unique within the company (the database would refuse them half-way through the import). */
export const UNIQUE_KEYS: Partial<Record<TenantTable, string[][]>> = {
  users: [['email']],
  warehouses: [['name'], ['slug']],
  fields: [['warehouse_id', 'col', 'row']],
  customers: [['name']],
  customer_request_units: [['request_id', 'vault_id']],
  orders: [['name']],
  vaults: [['field_id', 'position'], ['label_code']],
  pull_list_items: [['pull_list_id', 'vault_id']],
  warehouse_check_fields: [['check_id', 'field_id']],
  warehouse_check_vaults: [['check_id', 'vault_id']],
  storage_account_orders: [['order_id']],
  invoices: [['number'], ['billing_key']],
  inventory_codes: [['code']],
  inventories: [['vault_id']],
  inventory_items: [['inventory_id', 'sticker']],
};

/** What the database's check constraints demand of one row, said before the import writes anything. */
export const ROW_CHECKS: Partial<Record<TenantTable, (row: Row) => string | null>> = {
  vaults: (row) =>
    (row.field_id === null) !== (row.position === null) ||
    (row.position !== null && (row.position as number) < 1)
      ? 'a vault on a field needs a position of 1 or more, a staged vault (field_id null) has none'
      : null,
  pallets: (row) =>
    (row.slot_index as number) < 0 || (row.shelf_spots as number) < 1
      ? 'slot_index must be 0 or more and shelf_spots 1 or more'
      : null,
};

/**
 * What is wrong with the company's invoice counter against its invoices, or null. Numbers are issued from the counter
 * without gaps, so it must be past every number in the file, or the next invoice issued after a move would take a
 * number again (the database refuses it) or skip some.
 */
export function invoiceCounterProblem(highestNumber: number, nextNumber: number | undefined): string | null {
  if (nextNumber !== undefined && nextNumber < 1)
    return `billing_settings: next_invoice_number must be 1 or more, found ${nextNumber}`;
  if (highestNumber === 0) return null;
  if (nextNumber === undefined)
    return `billing_settings: missing, but invoices are numbered up to ${highestNumber} (the counter must travel with them)`;
  return nextNumber === highestNumber + 1
    ? null
    : `billing_settings: next_invoice_number is ${nextNumber}, but the highest invoice number is ${highestNumber} (numbers are issued without gaps, so it must be ${highestNumber + 1})`;
}
