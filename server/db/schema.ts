import type { Generated } from 'kysely';

/** Flags are stored as 0/1 on both engines so one code path reads and writes them. */
type Flag = number;
/** Timestamps are ISO-8601 text on both engines. */
type Timestamp = string;

export interface CompaniesTable {
  id: Generated<number>;
  name: string;
  /** the locale its dates and numbers are shown in (domain/rules/locale.ts) */
  locale: Generated<string>;
  created_at: Timestamp;
}

export interface UsersTable {
  id: Generated<number>;
  company_id: number;
  email: string;
  username: string;
  password_hash: string;
  /** 'manager' | 'floor' | 'viewer' (domain/rules/roles.ts) */
  role: Generated<string>;
  /** 0 once deactivated: no sign-in, no session; the member's history stays */
  active: Generated<Flag>;
  last_sign_in_at: Timestamp | null;
  created_at: Timestamp;
}

/** A one-time link that invites a new member or resets a member's password; only the token's hash is kept. */
export interface MemberLinksTable {
  id: Generated<number>;
  company_id: number;
  kind: 'invite' | 'reset';
  token_hash: string;
  /** who may use it: the invited address, or the member whose password it resets */
  email: string;
  /** the role an invited member gets */
  role: string | null;
  /** the member whose password a reset link sets */
  user_id: number | null;
  created_by: number | null;
  expires_at: Timestamp;
  used_at: Timestamp | null;
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
/**
 * A warehouse's kept counts and revision (migrations 0005 and 0010): on PostgreSQL one row per warehouse and database
 * connection ("slot"), summed when read; on SQLite slot 0 only.
 */
export interface WarehouseStatsTable {
  warehouse_id: number;
  company_id: number;
  slot: Generated<number>;
  revision: Generated<number>;
  vault_count: Generated<number>;
  real_count: Generated<number>;
  empty_vault_count: Generated<number>;
  empty_couchbox_count: Generated<number>;
}

/** The revision of a company's stage (staged vaults), kept in slots like the warehouse counts; summed when read. */
export interface StageRevisionsTable {
  company_id: number;
  slot: Generated<number>;
  revision: Generated<number>;
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
  /** where the customer's portal link goes (migration 0046); a customer with an address is never cleaned up */
  email: string | null;
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
  /** set when the vault left the warehouse (issue 16); a released vault has no field and is kept for history */
  released_at: Timestamp | null;
  /** the name of who released it */
  released_by: string | null;
  /** the code of the vault's label link /v/{code}, unique within the company (null: imported without one) */
  label_code: string | null;
}

/** Issue 16: the vaults of an order or a customer to take out (migration 0007). */
export interface PullListsTable {
  id: Generated<number>;
  company_id: number;
  /** 'Order ORD-1' or 'Customer SMITH', as it was when the list was made */
  title: string;
  customer_id: number | null;
  order_id: number | null;
  created_by: string | null;
  created_at: Timestamp;
  released_at: Timestamp | null;
  released_by: string | null;
  version: Generated<number>;
}

export interface PullListItemsTable {
  id: Generated<number>;
  company_id: number;
  pull_list_id: number;
  vault_id: number;
  /** 'pull' (a vault of the list) or 'in-the-way' (set aside to reach one) */
  role: string;
  /** pull: 'todo' | 'pulled'; in-the-way: 'set-aside' | 'put-back' */
  state: string;
  from_field_id: number | null;
  from_position: number | null;
  done_by: string | null;
  done_at: Timestamp | null;
}

/** Issue 15: a warehouse check (audit) of some fields of one warehouse (migration 0011). */
export interface WarehouseChecksTable {
  id: Generated<number>;
  company_id: number;
  warehouse_id: number;
  started_by: string | null;
  started_at: Timestamp;
  finished_by: string | null;
  finished_at: Timestamp | null;
  /** a check given up before it was finished (migration 0030) */
  cancelled_by: string | null;
  cancelled_at: Timestamp | null;
  version: Generated<number>;
}

/** The report of a check whose warehouse was deleted, kept under the check's id (migration 0030, issue 34). */
export interface CheckReportsTable {
  id: Generated<number>;
  check_id: number;
  company_id: number;
  warehouse_id: number;
  warehouse_name: string;
  started_at: Timestamp;
  /** the CheckDto as JSON */
  report: string;
  archived_at: Timestamp;
}

/** A field a check covers, and who opened it for checking. */
export interface WarehouseCheckFieldsTable {
  id: Generated<number>;
  company_id: number;
  check_id: number;
  field_id: number;
  opened_by: string | null;
  opened_at: Timestamp | null;
}

/** One vault a check met: where it was expected when the check started, where it was found, how it was resolved. */
export interface WarehouseCheckVaultsTable {
  id: Generated<number>;
  company_id: number;
  check_id: number;
  vault_id: number;
  expected_field_id: number | null;
  found_field_id: number | null;
  found_by: string | null;
  found_at: Timestamp | null;
  /** 'moved' | 'searched' */
  resolution: string | null;
  resolved_by: string | null;
  resolved_at: Timestamp | null;
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
  /** a photo or signature of the unit's condition inventory (migration 0048), else null */
  inventory_id: number | null;
  inventory_item_id: number | null;
  /** 'photo' | 'pickup' | 'delivery' */
  inventory_role: string | null;
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
  /** the order (lot) the pallet belongs to, billed on that order's account (migration 0049) */
  order_id: number | null;
}

/** A pallet that left (was deleted) while it belonged to an order: its move-out, for billing (migration 0049). */
export interface PalletDeparturesTable {
  id: Generated<number>;
  company_id: number;
  /** the gone pallet's id (no foreign key) */
  pallet_id: number;
  order_id: number;
  warehouse_id: number | null;
  /** the pallet number (or name) it had */
  label: string | null;
  moved_in_at: Timestamp;
  moved_out_by: string | null;
  moved_out_at: Timestamp;
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
  /** the vault or pallet number the event is about, as it was then (the Activity page's search) */
  subject: string | null;
  /** the customer the event is about, as it was then */
  customer: string | null;
  /** the warehouse's name as it was then */
  warehouse_name: string | null;
  created_at: Timestamp;
}

/**
 * The search keys of an event (migration 0017), with the indexes of the Activity page's filters and the vault
 * timeline; filled off the write's path on SQLite and by a trigger on PostgreSQL (server/events/event-search.repo.ts).
 */
export interface EventSearchTable {
  event_id: number;
  company_id: number;
  warehouse_id: number | null;
  user_id: number | null;
  kind: string;
  entity_type: string;
  entity_id: number | null;
  subject: string | null;
  customer: string | null;
  created_at: Timestamp;
}

/**
 * PostgreSQL's mark of the indexed search keys (migration 0019, decision 021), one row (id 1): every event with an id
 * up to `indexed_through` is in event_search or will never exist. SQLite has the row but never uses it.
 */
export interface EventSearchProgressTable {
  id: number;
  indexed_through: number;
  pending_through: number | null;
  pending_xid: number | null;
}

/** A spreadsheet import (issue 17): who brought which file in, and when; undone_at once undone. */
export interface ImportsTable {
  id: Generated<number>;
  company_id: number;
  user_id: number | null;
  /** 'vaults' or 'pallets' */
  kind: string;
  file_name: string;
  row_count: number;
  placed_count: number;
  staged_count: number;
  /** JSON array of the ids of the warehouses the import created */
  created_warehouses: Generated<string>;
  created_at: Timestamp;
  undone_at: Timestamp | null;
}

/** The vaults or pallets an import created (no foreign key: a deleted one is what blocks the undo). */
export interface ImportItemsTable {
  import_id: number;
  company_id: number;
  item_id: number;
}

/** Secrets shared by every server process of the installation (e.g. the key that seals live event ids). */
export interface InstallationSecretsTable {
  name: string;
  /** base64 */
  value: string;
  created_at: Timestamp;
}

/** Issue 28: a company's billing settings and its invoice counter (one row, made on first use). */
export interface BillingSettingsTable {
  company_id: number;
  currency: Generated<string>;
  tax_basis_points: Generated<number>;
  sit_days_default: Generated<number>;
  payment_terms_days: Generated<number>;
  hold_after_days: Generated<number>;
  next_invoice_number: Generated<number>;
  version: Generated<number>;
  /** whether the billing day's run issues invoices by itself (migration 0049) */
  auto_billing: Generated<Flag>;
}

/** A storage account: one customer's orders (lots), billed together (migration 0040). */
export interface StorageAccountsTable {
  id: Generated<number>;
  company_id: number;
  customer_id: number;
  /** 'permanent' | 'sit' */
  kind: string;
  sit_authorization: string | null;
  /** 'customer' | 'agency' */
  sit_payer: string | null;
  agency_name: string | null;
  agency_reference: string | null;
  sit_start: string | null;
  sit_days_allowed: number | null;
  converted_on: string | null;
  /** 'calendar' | 'thirty-days' */
  billing_cycle: Generated<string>;
  bill_to_name: string;
  bill_to_address: string | null;
  declared_value: Generated<number>;
  note: string | null;
  on_hold: Generated<Flag>;
  created_by: string | null;
  created_at: Timestamp;
  version: Generated<number>;
}

export interface StorageAccountOrdersTable {
  id: Generated<number>;
  company_id: number;
  account_id: number;
  order_id: number;
}

export interface StorageAccountHistoryTable {
  id: Generated<number>;
  company_id: number;
  account_id: number;
  kind: string;
  detail: string;
  created_by: string | null;
  created_at: Timestamp;
}

export interface BillingRatesTable {
  id: Generated<number>;
  company_id: number;
  /** 'storage' | 'handling-in' | 'handling-out' | 'valuation' */
  kind: string;
  unit_type: string | null;
  warehouse_id: number | null;
  account_id: number | null;
  amount: number;
  effective_from: string;
  created_by: string | null;
  created_at: Timestamp;
}

export interface InvoicesTable {
  id: Generated<number>;
  company_id: number;
  account_id: number;
  /** 'invoice' | 'credit' */
  kind: string;
  number: number | null;
  status: string;
  period_start: string | null;
  period_end: string | null;
  billing_key: string | null;
  issue_date: string | null;
  due_date: string | null;
  currency: string;
  subtotal: number;
  tax: number;
  total: number;
  paid: Generated<number>;
  credited: Generated<number>;
  credit_of: number | null;
  reason: string | null;
  created_by: string | null;
  created_at: Timestamp;
  version: Generated<number>;
}

export interface InvoiceLinesTable {
  id: Generated<number>;
  company_id: number;
  invoice_id: number;
  position: number;
  kind: string;
  /** 'customer' | 'agency' */
  payer: string;
  unit_id: number | null;
  /** the pallet the line is for (migration 0049); unit_id names vaults only */
  pallet_id: number | null;
  description: string;
  from_day: string;
  to_day: string;
  rate: number;
  amount: number;
  tax: number;
}

export interface PaymentsTable {
  id: Generated<number>;
  company_id: number;
  account_id: number;
  paid_on: string;
  amount: number;
  method: string;
  reference: string | null;
  created_by: string | null;
  created_at: Timestamp;
}

export interface PaymentAllocationsTable {
  id: Generated<number>;
  company_id: number;
  payment_id: number;
  invoice_id: number;
  amount: number;
}

export interface Database {
  companies: CompaniesTable;
  users: UsersTable;
  member_links: MemberLinksTable;
  sessions: SessionsTable;
  login_failures: LoginFailuresTable;
  warehouses: WarehousesTable;
  warehouse_stats: WarehouseStatsTable;
  stage_revisions: StageRevisionsTable;
  fields: FieldsTable;
  customers: CustomersTable;
  orders: OrdersTable;
  vaults: VaultsTable;
  attachments: AttachmentsTable;
  racks: RacksTable;
  shelves: ShelvesTable;
  pallets: PalletsTable;
  pallet_departures: PalletDeparturesTable;
  checklists: ChecklistsTable;
  checklist_tasks: ChecklistTasksTable;
  contact_messages: ContactMessagesTable;
  events: EventsTable;
  event_search: EventSearchTable;
  event_search_progress: EventSearchProgressTable;
  pull_lists: PullListsTable;
  pull_list_items: PullListItemsTable;
  warehouse_checks: WarehouseChecksTable;
  warehouse_check_fields: WarehouseCheckFieldsTable;
  warehouse_check_vaults: WarehouseCheckVaultsTable;
  check_reports: CheckReportsTable;
  installation_secrets: InstallationSecretsTable;
  imports: ImportsTable;
  import_items: ImportItemsTable;
  company_file_jobs: CompanyFileJobsTable;
  company_file_chunks: CompanyFileChunksTable;
  billing_settings: BillingSettingsTable;
  storage_accounts: StorageAccountsTable;
  storage_account_orders: StorageAccountOrdersTable;
  storage_account_history: StorageAccountHistoryTable;
  billing_rates: BillingRatesTable;
  invoices: InvoicesTable;
  invoice_lines: InvoiceLinesTable;
  payments: PaymentsTable;
  payment_allocations: PaymentAllocationsTable;
  idempotency_keys: IdempotencyKeysTable;
  api_tokens: ApiTokensTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_subscriptions: WebhookSubscriptionsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  mail_outbox: MailOutboxTable;
  portal_links: PortalLinksTable;
  portal_sessions: PortalSessionsTable;
  customer_requests: CustomerRequestsTable;
  customer_request_units: CustomerRequestUnitsTable;
  inventory_codes: InventoryCodesTable;
  inventories: InventoriesTable;
  inventory_items: InventoryItemsTable;
}

/** A company's own condition code beside the standard ones (migration 0048, decision 049). */
export interface InventoryCodesTable {
  id: Generated<number>;
  company_id: number;
  code: string;
  meaning: string;
  created_by: string | null;
  created_at: Timestamp;
}

/** A unit's condition inventory, at most one per unit, with its two signatures' signer and time. */
export interface InventoriesTable {
  id: Generated<number>;
  company_id: number;
  vault_id: number;
  pickup_signer: string | null;
  pickup_signed_at: Timestamp | null;
  delivery_signer: string | null;
  delivery_signed_at: Timestamp | null;
  created_by: string | null;
  created_at: Timestamp;
}

/** One numbered item of an inventory; `codes` holds its condition codes separated by spaces. */
export interface InventoryItemsTable {
  id: Generated<number>;
  company_id: number;
  inventory_id: number;
  sticker: string;
  description: string;
  room: string | null;
  codes: Generated<string>;
  high_value: Generated<Flag>;
  delivered_by: string | null;
  delivered_at: Timestamp | null;
  created_by: string | null;
  created_at: Timestamp;
}

/** A company's API token (migration 0045, decision 044): only the secret's SHA-256 is kept. */
export interface ApiTokensTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  /** the role the token acts with (domain/rules/roles.ts) */
  role: string;
  secret_hash: string;
  hint: string;
  created_by_user_id: number;
  created_at: Timestamp;
  expires_at: Timestamp | null;
  last_used_at: Timestamp | null;
  revoked_at: Timestamp | null;
  revoked_by: string | null;
}

/** Where a company's events are sent (migration 0045, decision 044). */
export interface WebhookEndpointsTable {
  id: Generated<number>;
  company_id: number;
  url: string;
  description: string | null;
  secret: string;
  enabled: Generated<Flag>;
  failing_since: Timestamp | null;
  disabled_reason: string | null;
  created_by: string | null;
  created_at: Timestamp;
}

/** The event kinds an endpoint is sent. */
export interface WebhookSubscriptionsTable {
  endpoint_id: number;
  company_id: number;
  kind: string;
}

/** The webhook outbox: one row per event and endpoint, written by a trigger on `events` (migration 0045). */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  company_id: number;
  endpoint_id: number;
  event_id: number | null;
  kind: string;
  /** pending, sent or failed */
  status: Generated<string>;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  claimed_until: Timestamp | null;
  last_status_code: number | null;
  last_error: string | null;
  last_attempt_at: Timestamp | null;
  created_at: Timestamp;
}

/** A mail to send, written with the change that causes it; a worker sends it (migration 0046, decision 042). */
export interface MailOutboxTable {
  id: Generated<number>;
  company_id: number;
  /** 'invite' | 'reset' | 'portal-link' | 'request' | 'invoice' | 'sit-notice' */
  kind: string;
  recipient: string;
  subject: string;
  body: string;
  /** a PDF the worker renders when it sends: 'invoice:<id>' or 'sit-notice:<account id>:<date>' (migration 0050) */
  attachment: string | null;
  /** a mail sent at most once per key in its company (unique with company_id; migration 0050) */
  once_key: string | null;
  /** 'queued' | 'sending' | 'sent' | 'failed' */
  status: Generated<string>;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  lease_until: Timestamp | null;
  claim_token: string | null;
  last_error: string | null;
  sent_at: Timestamp | null;
  created_by: string | null;
  created_at: Timestamp;
}

/** A customer's one-time sign-in link to the portal: only the token's hash is kept (migration 0046). */
export interface PortalLinksTable {
  id: Generated<number>;
  company_id: number;
  customer_id: number;
  email: string;
  token_hash: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_by: string | null;
  created_at: Timestamp;
}

/** A customer's signed-in portal session, apart from staff sessions (the id is the cookie token's hash). */
export interface PortalSessionsTable {
  id: string;
  company_id: number;
  customer_id: number;
  created_at: Timestamp;
  expires_at: Timestamp;
}

/** A Manager's download of the company file (migration 0026, issue 25). */
export interface CompanyFileJobsTable {
  id: Generated<number>;
  company_id: number;
  requested_by: string | null;
  status: 'running' | 'ready' | 'failed';
  done: Generated<number>;
  total: Generated<number>;
  bytes: Generated<number | string>;
  error: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The finished file of a job, in pieces, on PostgreSQL only (any server process can send it). */
export interface CompanyFileChunksTable {
  job_id: number;
  seq: number;
  data: Buffer;
}

/** A write's Idempotency-Key and, once it ran, its answer (migration 0044, issue 30, decision 043). */
export interface IdempotencyKeysTable {
  id: Generated<number>;
  company_id: number | null;
  scope: string;
  idem_key: string;
  fingerprint: string;
  claim_token: string;
  claimed_at: Timestamp;
  status: number | null;
  content_type: string | null;
  body: string | null;
  completed_at: Timestamp | null;
  created_at: Timestamp;
}

/** A customer's request to get goods out (migration 0047, decision 048), with each step's who and when. */
export interface CustomerRequestsTable {
  id: Generated<number>;
  company_id: number;
  customer_id: number;
  /** 'delivery' | 'access' | 'pickup' */
  kind: string;
  /** 'requested' | 'scheduled' | 'pulling' | 'loaded' | 'delivered' | 'cancelled' */
  state: Generated<string>;
  /** YYYY-MM-DD */
  wished_date: string;
  address: string | null;
  notes: string | null;
  /** YYYY-MM-DD, once scheduled */
  scheduled_date: string | null;
  crew: string | null;
  truck: string | null;
  /** the pull list scheduling made; null before, or when that list was removed */
  pull_list_id: number | null;
  /** a Manager's reason to mark it loaded with units missing */
  override_reason: string | null;
  created_by: string | null;
  created_at: Timestamp;
  scheduled_by: string | null;
  scheduled_at: Timestamp | null;
  pulling_by: string | null;
  pulling_at: Timestamp | null;
  loaded_by: string | null;
  loaded_at: Timestamp | null;
  delivered_by: string | null;
  delivered_at: Timestamp | null;
  cancelled_by: string | null;
  cancelled_at: Timestamp | null;
  version: Generated<number>;
}

/** A unit a request names; loaded_at/by once it was scanned onto the truck. */
export interface CustomerRequestUnitsTable {
  id: Generated<number>;
  company_id: number;
  request_id: number;
  vault_id: number;
  loaded_by: string | null;
  loaded_at: Timestamp | null;
}
