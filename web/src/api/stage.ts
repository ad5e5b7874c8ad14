import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { StagedVaultDto, VaultBasis } from '@domain/schemas/vault.schema';
import type { VaultDto } from '@domain/schemas/warehouse.schema';
import { api } from '../lib/api-client';
import { type SentOrQueued, sendOrQueue } from '../lib/outbox/floor-outbox';
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

/** A stage made on the floor: where the vault was seen, so it can wait in the outbox while the network is away. */
export interface FloorStage {
  vaultId: number;
  basis: VaultBasis;
  /** what the outbox's list calls it: "Stage vault V-1" */
  label: string;
}

/**
 * Takes a vault off its field into the stage. Given where the vault was seen (`FloorStage`), a stage that gets no
 * answer waits in the tablet's outbox (issue 30) and the answer says `queued`; a bare id is sent once, as before.
 */
export function useStageVault() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: number | FloorStage): Promise<SentOrQueued<VaultDto>> => {
      if (typeof input === 'number')
        return { queued: false, answer: await api.post<VaultDto>(`/api/stage/vaults/${input}`) };
      return sendOrQueue<VaultDto>({
        kind: 'stage',
        label: input.label,
        method: 'POST',
        url: `/api/stage/vaults/${input.vaultId}`,
        body: { basis: input.basis },
        vaultId: input.vaultId,
      });
    },
    onSettled: () => refreshVaultData(queryClient),
  });
}
