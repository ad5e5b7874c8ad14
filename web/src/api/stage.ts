import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { StagedVaultDto } from '../../../domain/schemas/vault.schema';
import type { VaultDto } from '../../../domain/schemas/warehouse.schema';
import { api } from '../lib/api-client';
import { invalidate } from './invalidate';
import { refreshWarehouseData } from './warehouses';

export const stageQueries = {
  /** the company's staged vaults, keyed by id */
  vaults: () =>
    queryOptions({
      queryKey: ['stage'] as const,
      queryFn: () => api.get<Record<number, StagedVaultDto>>('/api/stage/vaults'),
    }),
};

/** A vault changed (added, edited, moved, staged, deleted): its warehouse, the dashboard's counts and the stage. */
export function refreshVaultData(queryClient: QueryClient) {
  return Promise.all([
    invalidate(queryClient, stageQueries.vaults().queryKey),
    refreshWarehouseData(queryClient),
  ]);
}

/** The company's staged vaults, keyed by id. */
export function useStagedVaults(enabled = true) {
  return useQuery({ ...stageQueries.vaults(), enabled });
}

/** Takes a vault off its field into the stage. */
export function useStageVault() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (vaultId: number) => api.post<VaultDto>(`/api/stage/vaults/${vaultId}`),
    onSettled: () => refreshVaultData(queryClient),
  });
}
