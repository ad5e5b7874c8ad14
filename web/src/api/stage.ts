import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { StagedVaultDto } from '../../../domain/schemas/vault.schema';
import type { VaultDto } from '../../../domain/schemas/warehouse.schema';
import { api } from '../lib/api-client';
import { refreshWarehouseData } from './warehouses';

export const stageQueryKey = ['stage'] as const;

/** The company's staged vaults, keyed by id. */
export function useStagedVaults(enabled = true) {
  return useQuery({
    queryKey: stageQueryKey,
    queryFn: () => api.get<Record<number, StagedVaultDto>>('/api/stage/vaults'),
    enabled,
  });
}

/** Takes a vault off its field into the stage. */
export function useStageVault() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (vaultId: number) => api.post<VaultDto>(`/api/stage/vaults/${vaultId}`),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: stageQueryKey }),
        refreshWarehouseData(queryClient),
      ]),
  });
}
