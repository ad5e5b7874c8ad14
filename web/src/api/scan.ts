import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { vaultLinkPath } from '@domain/rules/scan-text';
import type { ScanAnswer, ScannedVaultDto } from '@domain/schemas/scan.schema';
import { api } from '../lib/api-client';
import { refreshVaultData } from './stage';

/** What a scanned text names: a vault of the company or one of its fields ("B4" within the given warehouse). */
export function lookUpScan(text: string, warehouseId?: number): Promise<ScanAnswer> {
  const query = new URLSearchParams({ text });
  if (warehouseId !== undefined) query.set('warehouseId', String(warehouseId));
  return api.get<ScanAnswer>(`/api/scan?${query}`);
}

/** One of several vaults that share a scanned number, as the person chose it. */
export function lookUpVault(vaultId: number): Promise<ScanAnswer> {
  return api.get<ScanAnswer>(`/api/scan/vaults/${vaultId}`);
}

export const scanQueries = {
  /** the vault a label's link names (`/v/{code}`) */
  vaultLink: (code: string) =>
    queryOptions({
      queryKey: ['scan', 'vault-link', code] as const,
      queryFn: () => lookUpScan(vaultLinkPath(code)),
      retry: false,
    }),
};

export function useVaultLink(code: string) {
  return useQuery(scanQueries.vaultLink(code));
}

/** A scanned vault into a scanned field's next free slot (the server picks the slot and may refuse). */
export function useScanMove() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { vaultId: number; fieldId: number }) =>
      api.post<ScannedVaultDto>('/api/scan/move', input),
    onSettled: () => refreshVaultData(queryClient),
  });
}
