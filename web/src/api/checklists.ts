import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AnswerChecklistInput,
  ChecklistDto,
  CreateChecklistInput,
  EditChecklistInput,
} from '../../../domain/schemas/checklist.schema';
import { ApiError, api } from '../lib/api-client';

export const checklistsQueryKey = ['checklists'] as const;
export const activeChecklistQueryKey = (warehouseName: string) =>
  ['checklists', 'active', warehouseName.toLowerCase()] as const;

/** `?key=...` for the fill-in link's secret (none for signed-in staff who opened the page without one). */
const keyQuery = (key: string | null) => (key ? `?key=${encodeURIComponent(key)}` : '');

// spec section 8: what the checklist store keeps as its error when a call fails
export const CHECKLIST_ERRORS = {
  fetchAll: 'Failed to fetch checklists',
  add: 'Failed to add checklist',
  fetchActive: 'Failed to fetch active checklist',
  edit: 'Failed to edit checklist',
} as const;

/** The company's checklists, newest first (signed in only). */
export function useChecklists(enabled = true) {
  return useQuery({
    queryKey: checklistsQueryKey,
    queryFn: () => api.get<ChecklistDto[]>('/api/checklists/'),
    enabled,
  });
}

/**
 * The active checklist of a warehouse, by the name and key in the fill-in link; null when it has none or the key
 * does not open it (the server answers both alike).
 */
export function useActiveChecklist(warehouseName: string, key: string | null) {
  return useQuery({
    queryKey: activeChecklistQueryKey(warehouseName),
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
  });
}

export function useAddChecklist() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateChecklistInput) => api.post<ChecklistDto>('/api/checklists/', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: checklistsQueryKey }),
  });
}

export function useEditChecklist() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: number; changes: EditChecklistInput }) =>
      api.patch<ChecklistDto>(`/api/checklists/${id}`, changes),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: checklistsQueryKey }),
  });
}

/** A new secret for the checklist's fill-in link: the old link stops working. */
export function useRenewChecklistKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<ChecklistDto>(`/api/checklists/${id}/key`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: checklistsQueryKey }),
  });
}

/**
 * One answer from the fill-in page; the server's answer (the whole checklist) replaces the shown one. A refusal
 * reloads the checklist, since it may have changed meanwhile.
 */
export function useAnswerChecklist(warehouseName: string, key: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, answer }: { id: number; answer: AnswerChecklistInput }) =>
      api.patch<ChecklistDto>(`/api/checklists/${id}${keyQuery(key)}`, answer),
    onSuccess: (checklist) => {
      queryClient.setQueryData(activeChecklistQueryKey(warehouseName), checklist);
      return queryClient.invalidateQueries({ queryKey: checklistsQueryKey, exact: true });
    },
    onError: () => queryClient.invalidateQueries({ queryKey: activeChecklistQueryKey(warehouseName) }),
  });
}
