import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CreatePullListInput,
  PullAction,
  PullListDto,
  PullListSummaryDto,
  ReleasedVaultDto,
} from '../../../domain/schemas/pull-list.schema';
import { api } from '../lib/api-client';
import { stageQueryKey } from './stage';
import { refreshWarehouseData } from './warehouses';

/** Every query of pull lists starts with this; live vault changes refresh them (app/live-updates.ts). */
export const pullListsQueryKey = ['pull-lists'] as const;

export function usePullLists() {
  return useQuery({
    queryKey: pullListsQueryKey,
    queryFn: () => api.get<PullListSummaryDto[]>('/api/pull-lists'),
  });
}

export function usePullList(id: number | null) {
  return useQuery({
    queryKey: [...pullListsQueryKey, id],
    queryFn: () => api.get<PullListDto>(`/api/pull-lists/${id}`),
    enabled: id !== null,
  });
}

export function useCreatePullList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreatePullListInput) => api.post<PullListDto>('/api/pull-lists', input),
    onSuccess: (list) => {
      queryClient.setQueryData([...pullListsQueryKey, list.id], list);
      return queryClient.invalidateQueries({ queryKey: pullListsQueryKey, exact: true });
    },
  });
}

/** The list's answer after a step or a release, and everything the step moved. */
function usePullListChange<V>(listId: number, send: (input: V) => Promise<PullListDto>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (list) => queryClient.setQueryData([...pullListsQueryKey, listId], list),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: pullListsQueryKey }),
        queryClient.invalidateQueries({ queryKey: stageQueryKey }),
        refreshWarehouseData(queryClient),
      ]),
  });
}

export function usePullStep(listId: number) {
  return usePullListChange(
    listId,
    (input: { vault_id: number; action: PullAction; field_id?: number; position?: number }) =>
      api.post<PullListDto>(`/api/pull-lists/${listId}/steps`, input),
  );
}

export function useReleasePullList(listId: number) {
  return usePullListChange(listId, () => api.post<PullListDto>(`/api/pull-lists/${listId}/release`));
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
    queryKey: [...pullListsQueryKey, 'released', q],
    queryFn: () => api.get<ReleasedVaultDto[]>(`/api/released-vaults?q=${encodeURIComponent(q)}`),
    enabled: q.length >= RELEASED_SEARCH_MIN,
  });
}
