import { warehouseSlug } from '@domain/rules/text';

/** The tabs of the Billing page (issue 28); 'accounts' is /billing itself. */
export const billingTabs = [
  'accounts',
  'not-billed',
  'rates',
  'run',
  'invoices',
  'payments',
  'aging',
] as const;
export type BillingTab = (typeof billingTabs)[number];

/** Every route of the app in one place (spec 2.1). */
export const paths = {
  landing: '/',
  login: '/login',
  dashboard: '/dashboard',
  stage: '/stage',
  addWarehouse: '/add-warehouse',
  statistics: '/statistics',
  printStudio: '/print-studio',
  import: '/import',
  checklistsAdmin: '/warehouse-checklists',
  messages: '/messages',
  team: '/team',
  backups: '/backups',
  apiReference: '/api-reference',
  activity: '/activity',
  join: '/join',
  pullLists: '/pull-lists',
  pullList: (id: number) => `/pull-lists/${id}`,
  receive: '/receive',
  /** a unit's condition inventory (issue 29, decision 049) */
  inventory: (vaultId: number) => `/inventory/${vaultId}`,
  customers: '/customers',
  /** customers' requests and the dock's load-out check (issue 29) */
  requests: '/requests',
  request: (id: number) => `/requests/${id}`,
  loadOut: (id: number) => `/requests/${id}/load-out`,
  /** the customer portal (issue 29) */
  portal: '/portal',
  checks: '/checks',
  check: (id: number) => `/checks/${id}`,
  billing: (tab: BillingTab = 'accounts') => (tab === 'accounts' ? '/billing' : `/billing/${tab}`),
  warehouse: (name: string) => `/warehouse/${warehouseSlug(name)}`,
  /** the warehouse page with one field chosen (its panel open) */
  warehouseField: (name: string, field: string) =>
    `/warehouse/${warehouseSlug(name)}?${new URLSearchParams({ field })}`,
  /** a warehouse's rack view with one rack chosen and one of its pallets marked */
  rackPallet: (name: string, rackId: number, palletId: number) =>
    `/warehouse/${warehouseSlug(name)}?${new URLSearchParams({ view: 'rack', rack: String(rackId), pallet: String(palletId) })}`,
  editWarehouse: (name: string) => `/edit/${warehouseSlug(name)}`,
  editVault: (vaultName: string) => `/edit/vault/${encodeURIComponent(vaultName)}`,
  checklist: (warehouseName: string) => `/${warehouseSlug(warehouseName)}-checklist`,
} as const;

// the server reads the same address to put the warehouse into a signed-in page's HTML
export { warehouseSlugInPath } from '@domain/rules/text';

/** The router's patterns of the addresses above that carry a name; `paths` builds them, the router matches them. */
export const routePatterns = {
  warehouse: '/warehouse/:warehouseName',
  editWarehouse: '/edit/:warehouseName',
  editVault: '/edit/vault/:vaultName',
} as const;
