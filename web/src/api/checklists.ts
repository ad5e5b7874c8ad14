import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AnswerChecklistInput,
  ChecklistDto,
  CreateChecklistInput,
  EditChecklistInput,
} from '@domain/schemas/checklist.schema';
import { ApiError, api } from '../lib/api-client';
import { sendOrQueue } from '../lib/outbox/floor-outbox';
import { invalidate } from './invalidate';
import { getQuery } from './get-query';

/** `?key=...` for the fill-in link's secret (none for signed-in staff who opened the page without one). */
const keyQuery = (key: string | null) => (key ? `?key=${encodeURIComponent(key)}` : '');

export const checklistQueries = {
  /** the company's checklists, newest first (signed in only) */
  list: () => getQuery<ChecklistDto[]>(['checklists'], '/api/checklists/'),
  /**
   * the active checklist of a warehouse, by the name and key in the fill-in link; null when it has none or the key
   * does not open it (the server answers both alike)
   */
  active: (warehouseName: string, key: string | null) =>
    queryOptions({
      queryKey: ['checklists', 'active', warehouseName.toLowerCase()] as const,
      queryFn: async () => {
        try {
          return await api.get<ChecklistDto>(
            `/api/checklists/warehouse/${encodeURIComponent(warehouseName)}${keyQuery(key)}`,
          );
        } catch (error) {
          if (error instanceof ApiError && error.status === 404) return null;
          throw error;
        }
      },
    }),
};

// spec section 8: what the checklist store keeps as its error when a call fails
export const CHECKLIST_ERRORS = {
  fetchAll: 'Failed to fetch checklists',
  add: 'Failed to add checklist',
  fetchActive: 'Failed to fetch active checklist',
  edit: 'Failed to edit checklist',
} as const;

/** The company's checklists, newest first (signed in only). */
export function useChecklists(enabled = true) {
  return useQuery({ ...checklistQueries.list(), enabled });
}

/**
 * The active checklist of a warehouse, by the name and key in the fill-in link; null when it has none or the key
 * does not open it (the server answers both alike).
 */
export function useActiveChecklist(warehouseName: string, key: string | null) {
  return useQuery(checklistQueries.active(warehouseName, key));
}

export function useAddChecklist() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateChecklistInput) => api.post<ChecklistDto>('/api/checklists/', input),
    onSuccess: () => invalidate(queryClient, checklistQueries.list().queryKey),
  });
}

export function useEditChecklist() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: number; changes: EditChecklistInput }) =>
      api.patch<ChecklistDto>(`/api/checklists/${id}`, changes),
    onSuccess: () => invalidate(queryClient, checklistQueries.list().queryKey),
  });
}

/** A new secret for the checklist's fill-in link: the old link stops working. */
export function useRenewChecklistKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<ChecklistDto>(`/api/checklists/${id}/key`),
    onSuccess: () => invalidate(queryClient, checklistQueries.list().queryKey),
  });
}

/**
 * One answer from the fill-in page; the server's answer (the whole checklist) replaces the shown one. A refusal
 * reloads the checklist, since it may have changed meanwhile.
 */
export function useAnswerChecklist(warehouseName: string, key: string | null) {
  const queryClient = useQueryClient();
  const active = checklistQueries.active(warehouseName, key);
  return useMutation({
    // an answer that gets no answer waits in the device's outbox (issue 30) and is sent once the network is back
    mutationFn: ({ id, answer }: { id: number; answer: AnswerChecklistInput }) =>
      sendOrQueue<ChecklistDto>({
        kind: 'checklist-answer',
        label: `${warehouseName} checklist: answer by ${answer.filled_out_by}`,
        method: 'PATCH',
        url: `/api/checklists/${id}${keyQuery(key)}`,
        body: answer,
      }),
    onSuccess: (sent) => {
      if (sent.queued) return;
      queryClient.setQueryData(active.queryKey, sent.answer);
      return invalidate(queryClient, { queryKey: checklistQueries.list().queryKey, exact: true });
    },
    onError: () => invalidate(queryClient, active.queryKey),
  });
}
