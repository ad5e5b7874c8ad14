import { type PrintVaultDto, STAGED_FIELD_NAME } from '@domain/rules/print-order';
import { naturalCompare } from '@domain/rules/text';

export type Placement = 'all' | 'placed' | 'staged';

/** What the list is narrowed to; an empty text means "any". Customer and order match anywhere, in any case. */
export interface PrintFilters {
  warehouse: string;
  customer: string;
  order: string;
  type: string;
  placement: Placement;
}

export const NO_FILTERS: PrintFilters = {
  warehouse: '',
  customer: '',
  order: '',
  type: '',
  placement: 'all',
};

const PLACEMENTS: readonly Placement[] = ['all', 'placed', 'staged'];

/** The filters kept in the address, so a narrowed list can be bookmarked and reloaded. */
export function filtersFromParams(params: URLSearchParams): PrintFilters {
  const placement = params.get('placement') ?? 'all';
  return {
    warehouse: params.get('warehouse') ?? '',
    customer: params.get('customer') ?? '',
    order: params.get('order') ?? '',
    type: params.get('type') ?? '',
    placement: (PLACEMENTS as readonly string[]).includes(placement) ? (placement as Placement) : 'all',
  };
}

export function filtersToParams(filters: PrintFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of ['warehouse', 'customer', 'order', 'type'] as const)
    if (filters[key].trim() !== '') params.set(key, filters[key]);
  if (filters.placement !== 'all') params.set('placement', filters.placement);
  return params;
}

export function hasFilters(filters: PrintFilters): boolean {
  return filtersToParams(filters).size > 0;
}

/** A staged vault sits in no warehouse; the list names its field 'staged'. */
export function isStaged(vault: Pick<PrintVaultDto, 'field_name' | 'warehouse_name'>): boolean {
  return vault.field_name === STAGED_FIELD_NAME && !vault.warehouse_name;
}

const contains = (text: string | null | undefined, part: string) =>
  (text ?? '').toLocaleLowerCase().includes(part.trim().toLocaleLowerCase());

/**
 * The vaults that pass every filter, in their order. `orderOf` gives a vault's order number; the list itself does not
 * carry it, so without it the order filter lets nothing through.
 */
export function filterVaults(
  vaults: readonly PrintVaultDto[],
  filters: PrintFilters,
  orderOf?: (vaultId: number) => string | null | undefined,
): PrintVaultDto[] {
  const order = filters.order.trim();
  return vaults.filter((vault) => {
    const staged = isStaged(vault);
    if (filters.placement === 'placed' && staged) return false;
    if (filters.placement === 'staged' && !staged) return false;
    if (filters.warehouse && (staged || vault.warehouse_name !== filters.warehouse)) return false;
    if (filters.type && vault.type !== filters.type) return false;
    if (filters.customer.trim() && !contains(vault.customer_name, filters.customer)) return false;
    if (order && !(orderOf && contains(orderOf(vault.id), order))) return false;
    return true;
  });
}

/** Placed vaults (in print order) apart from staged ones, which belong to no warehouse. */
export function groupByPlacement(vaults: readonly PrintVaultDto[]): {
  placed: PrintVaultDto[];
  staged: PrintVaultDto[];
} {
  const placed: PrintVaultDto[] = [];
  const staged: PrintVaultDto[] = [];
  for (const vault of vaults) (isStaged(vault) ? staged : placed).push(vault);
  return { placed, staged };
}

/** The choices the filters offer: each warehouse and type the list holds, sorted. */
export function filterChoices(vaults: readonly PrintVaultDto[]): { warehouses: string[]; types: string[] } {
  const warehouses = new Set<string>();
  const types = new Set<string>();
  for (const vault of vaults) {
    if (!isStaged(vault) && vault.warehouse_name) warehouses.add(vault.warehouse_name);
    if (vault.type) types.add(vault.type);
  }
  return { warehouses: [...warehouses].sort(naturalCompare), types: [...types].sort(naturalCompare) };
}
