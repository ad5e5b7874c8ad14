import { infiniteQueryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { ActivityItemDto, ActivityPageDto } from '@domain/schemas/activity.schema';
import { api } from '../lib/api-client';
import { getQuery } from './get-query';

export interface ActivityFilters {
  warehouse?: string;
  member?: string;
  kind?: string;
  from?: string;
  to?: string;
  q?: string;
}

/** The filters as a query string, empty ones left out. */
export function activityQuery(filters: ActivityFilters, cursor?: number | null): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
  if (cursor) params.set('cursor', String(cursor));
  const text = params.toString();
  return text ? `?${text}` : '';
}

export const activityQueries = {
  /** the Activity page's entries, a page at a time */
  pages: (filters: ActivityFilters) =>
    infiniteQueryOptions({
      queryKey: ['activity', filters] as const,
      queryFn: ({ pageParam }) =>
        api.get<ActivityPageDto>(`/api/activity${activityQuery(filters, pageParam)}`),
      initialPageParam: null as number | null,
      getNextPageParam: (page) => page.nextCursor,
    }),
  /** a vault's timeline; `version` (the vault's) in the key reloads it whenever the vault changes */
  vaultHistory: (vaultId: number, version?: number) =>
    getQuery<ActivityItemDto[]>(['vault-history', vaultId, version], `/api/vaults/${vaultId}/history`),
};

export function useActivity(filters: ActivityFilters) {
  return useInfiniteQuery(activityQueries.pages(filters));
}

/** A vault's timeline; `version` (the vault's) in the key reloads it whenever the vault changes. */
export function useVaultHistory(vaultId: number | undefined, version?: number) {
  return useQuery({ ...activityQueries.vaultHistory(vaultId ?? 0, version), enabled: vaultId !== undefined });
}
