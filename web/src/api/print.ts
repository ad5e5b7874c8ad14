import { useQuery } from '@tanstack/react-query';
import type { PrintVaultDto } from '../../../domain/rules/print-order';
import { api } from '../lib/api-client';

export const printVaultsQueryKey = ['print', 'vaults'] as const;

/** Every vault of the company in print order (placed and staged). */
export function usePrintVaults() {
  return useQuery({
    queryKey: printVaultsQueryKey,
    queryFn: () => api.get<PrintVaultDto[]>('/api/vaults/all'),
  });
}
