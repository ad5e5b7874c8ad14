import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CreatePullListInput,
  PullAction,
  PullListDto,
  PullListSummaryDto,
  ReleasedVaultDto,
} from '@domain/schemas/pull-list.schema';
import { api } from '../lib/api-client';
import { invalidate } from './invalidate';
import { refreshVaultData } from './stage';
import { getQuery } from './get-query';

export const pullListQueries = {
  /** every query of pull lists starts with this key; live vault changes refresh them (app/live-updates.ts) */
  all: ['pull-lists'] as const,
  list: () => getQuery<PullListSummaryDto[]>(['pull-lists'], '/api/pull-lists'),
  detail: (id: number) => getQuery<PullListDto>(['pull-lists', id], `/api/pull-lists/${id}`),
};

export function usePullLists() {
  return useQuery(pullListQueries.list());
}

export function usePullList(id: number | null) {
  return useQuery({ ...pullListQueries.detail(id ?? 0), enabled: id !== null });
}

export function useCreatePullList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreatePullListInput) => api.post<PullListDto>('/api/pull-lists', input),
    onSuccess: (list) => {
      queryClient.setQueryData(pullListQueries.detail(list.id).queryKey, list);
      return invalidate(queryClient, { queryKey: pullListQueries.list().queryKey, exact: true });
    },
  });
}

/** The list's answer after a step or a release, and everything the step moved. */
function usePullListChange<V>(listId: number, send: (input: V) => Promise<PullListDto>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (list) => queryClient.setQueryData(pullListQueries.detail(listId).queryKey, list),
    onSettled: () =>
      Promise.all([invalidate(queryClient, pullListQueries.all), refreshVaultData(queryClient)]),
  });
}

export function usePullStep(listId: number) {
  return usePullListChange(
    listId,
    (input: {
      vault_id: number;
      action: PullAction;
      field_id?: number;
      position?: number;
      /** a Manager's reason when the vault's account is on hold (decision 039) */
      override_reason?: string;
    }) => api.post<PullListDto>(`/api/pull-lists/${listId}/steps`, input),
  );
}

export function useReleasePullList(listId: number) {
  return usePullListChange(listId, (overrideReason?: string) =>
    api.post<PullListDto>(
      `/api/pull-lists/${listId}/release`,
      overrideReason ? { override_reason: overrideReason } : undefined,
    ),
  );
}

/** Cancels a list that is not released and has nothing set aside waiting (the server refuses otherwise). */
export function useCancelPullList(listId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete<void>(`/api/pull-lists/${listId}`),
    onSettled: () => invalidate(queryClient, { queryKey: pullListQueries.list().queryKey, exact: true }),
  });
}

/** Shortest search the released vaults are looked up for: one letter would match most of them. */
export const RELEASED_SEARCH_MIN = 2;

/**
 * Released vaults whose number, customer or order contains the term (the top-bar search). Under the pull lists' key,
 * so a release refreshes it.
 */
export function useReleasedVaults(term: string) {
  const q = term.trim();
  return useQuery({
    queryKey: [...pullListQueries.all, 'released', q],
    queryFn: () => api.get<ReleasedVaultDto[]>(`/api/released-vaults?q=${encodeURIComponent(q)}`),
    enabled: q.length >= RELEASED_SEARCH_MIN,
  });
}
