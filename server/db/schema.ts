import type { Generated } from 'kysely';

/** Flags are stored as 0/1 on both engines so one code path reads and writes them. */
type Flag = number;
/** Timestamps are ISO-8601 text on both engines. */
type Timestamp = string;

export interface CompaniesTable {
  id: Generated<number>;
  name: string;
  /** changes with every change to the company's stage (staged vaults); the stage list's ETag */
  stage_revision: Generated<number>;
  created_at: Timestamp;
}

export interface UsersTable {
  id: Generated<number>;
  company_id: number;
  email: string;
  username: string;
  password_hash: string;
  created_at: Timestamp;
}

export interface SessionsTable {
  /** sha-256 of the cookie token; the token itself is never stored */
  id: string;
  user_id: number;
  company_id: number;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface LoginFailuresTable {
  id: Generated<number>;
  email: string;
  ip: string;
  created_at: Timestamp;
}

export interface WarehousesTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  slug: string;
  rows: number;
  cols: number;
  field_capacity: number;
  length: number;
  width: number;
  grid_x: number;
  grid_y: number;
  version: Generated<number>;
  created_at: Timestamp;
}

/**
 * Kept by database triggers in the writing transaction (migration 0005): the warehouse's placed-vault counts and a
 * revision that changes with every write to the warehouse (the ETag of its answers). Derived, so never exported.
 */
export interface WarehouseStatsTable {
  warehouse_id: number;
  company_id: number;
  revision: Generated<number>;
  vault_count: Generated<number>;
  real_count: Generated<number>;
  empty_vault_count: Generated<number>;
  empty_couchbox_count: Generated<number>;
}

export interface FieldsTable {
  id: Generated<number>;
  company_id: number;
  warehouse_id: number;
  /** 1-based column (A = 1) and row; the name is derived from them */
  col: number;
  row: number;
  type: string;
  full: Flag;
}

export interface CustomersTable {
  id: Generated<number>;
  company_id: number;
  name: string;
}

export interface OrdersTable {
  id: Generated<number>;
  company_id: number;
  name: string;
}

export interface VaultsTable {
  id: Generated<number>;
  company_id: number;
  /** the vault number; null for placeholders that have none */
  name: string | null;
  customer_id: number;
  order_id: number | null;
  /** null while staged */
  field_id: number | null;
  position: number | null;
  type: string;
  note: string | null;
  version: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** the code of the vault's label link /v/{code}, unique within the company (null: imported without one) */
  label_code: string | null;
}

export interface AttachmentsTable {
  id: Generated<number>;
  company_id: number;
  vault_id: number;
  file_name: string;
  content_type: string;
  size: number;
  content: Buffer;
  created_at: Timestamp;
}

export interface RacksTable {
  id: Generated<number>;
  company_id: number;
  warehouse_id: number;
  name: string;
  orientation: string;
  width: number;
  length: number;
  x: number;
  y: number;
  /** pallet slots on each shelf */
  capacity: number;
  version: Generated<number>;
  created_at: Timestamp;
}

export interface ShelvesTable {
  id: Generated<number>;
  company_id: number;
  rack_id: number;
  /** 1 is the top shelf */
  position: number;
  capacity: number;
}

export interface PalletsTable {
  id: Generated<number>;
  company_id: number;
  shelf_id: number;
  customer_id: number;
  name: string | null;
  pallet_number: string | null;
  notes: string | null;
  weight: number;
  shelf_spots: number;
  slot_index: number;
  version: Generated<number>;
  created_at: Timestamp;
}

export interface ChecklistsTable {
  id: Generated<number>;
  company_id: number;
  warehouse_id: number;
  description: string;
  is_active: Flag;
  filled_out_by: string | null;
  /** the secret of the public fill-in link (null: none issued yet, e.g. imported from an older export) */
  link_key: string | null;
  version: Generated<number>;
  created_at: Timestamp;
}

export interface ChecklistTasksTable {
  id: Generated<number>;
  company_id: number;
  checklist_id: number;
  position: number;
  text: string;
  completed: Flag;
  completed_by: string | null;
  reason: string | null;
  completed_at: Timestamp | null;
}

export interface ContactMessagesTable {
  id: Generated<number>;
  name: string;
  company: string | null;
  email: string;
  message: string;
  ip: string;
  created_at: Timestamp;
}

export interface EventsTable {
  id: Generated<number>;
  company_id: number;
  user_id: number | null;
  actor: string | null;
  kind: string;
  entity_type: string;
  entity_id: number | null;
  warehouse_id: number | null;
  payload: string | null;
  created_at: Timestamp;
}

/** Secrets shared by every server process of the installation (e.g. the key that seals live event ids). */
export interface InstallationSecretsTable {
  name: string;
  /** base64 */
  value: string;
  created_at: Timestamp;
}

export interface Database {
  companies: CompaniesTable;
  users: UsersTable;
  sessions: SessionsTable;
  login_failures: LoginFailuresTable;
  warehouses: WarehousesTable;
  warehouse_stats: WarehouseStatsTable;
  fields: FieldsTable;
  customers: CustomersTable;
  orders: OrdersTable;
  vaults: VaultsTable;
  attachments: AttachmentsTable;
  racks: RacksTable;
  shelves: ShelvesTable;
  pallets: PalletsTable;
  checklists: ChecklistsTable;
  checklist_tasks: ChecklistTasksTable;
  contact_messages: ContactMessagesTable;
  events: EventsTable;
  installation_secrets: InstallationSecretsTable;
}
