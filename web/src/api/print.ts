import { useQuery } from '@tanstack/react-query';
import type { PrintVaultDto } from '@domain/rules/print-order';
import { useSession } from './session';
import { useStagedVaults } from './stage';
import { useWarehouseDetails, useWarehouses } from './warehouses';
import { getQuery } from './get-query';

export const printQueries = {
  /** every vault of the company in print order (placed and staged) */
  vaults: () => getQuery<PrintVaultDto[]>(['print', 'vaults'], '/api/vaults/all'),
};

/** Every vault of the company in print order (placed and staged). */
export function usePrintVaults() {
  return useQuery(printQueries.vaults());
}

/**
 * The order number of every vault, by vault id. The print list does not carry it, so it comes from the warehouses
 * and the stage, and only once someone filters by order (`enabled`).
 */
export function useVaultOrders(enabled: boolean): { orderOf: Map<number, string>; pending: boolean } {
  const session = useSession();
  const warehouses = useWarehouses(enabled ? session.data?.companyId : undefined);
  const details = useWarehouseDetails(enabled ? (warehouses.data ?? []).map((w) => w.id) : []);
  const staged = useStagedVaults(enabled);
  const orderOf = new Map<number, string>();
  for (const detail of details) {
    for (const field of Object.values(detail.data?.fields ?? {}))
      for (const vault of Object.values(field.vaults))
        if (vault.order_name) orderOf.set(vault.id, vault.order_name);
  }
  for (const vault of Object.values(staged.data ?? {}))
    if (vault.order_name) orderOf.set(vault.id, vault.order_name);
  const pending =
    enabled && (warehouses.isPending || staged.isPending || details.some((detail) => detail.isPending));
  return { orderOf, pending };
}
