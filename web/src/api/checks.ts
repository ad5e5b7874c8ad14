import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  CheckDto,
  CheckResolution,
  CheckScanAnswer,
  CheckSummaryDto,
  StartCheckSchema,
} from '@domain/schemas/check.schema';
import { api } from '../lib/api-client';
import { invalidate } from './invalidate';
import { refreshVaultData } from './stage';

export const checkQueries = {
  /** every query of warehouse checks starts with this key; live check changes refresh only these (app/live-updates.ts) */
  all: ['checks'] as const,
  list: () =>
    queryOptions({
      queryKey: ['checks'] as const,
      queryFn: () => api.get<CheckSummaryDto[]>('/api/checks'),
    }),
  detail: (id: number) =>
    queryOptions({
      queryKey: ['checks', id] as const,
      queryFn: () => api.get<CheckDto>(`/api/checks/${id}`),
    }),
};

export function useChecks() {
  return useQuery(checkQueries.list());
}

export function useCheck(id: number | null) {
  return useQuery({ ...checkQueries.detail(id ?? 0), enabled: id !== null });
}

export function useStartCheck() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: z.input<typeof StartCheckSchema>) => api.post<CheckDto>('/api/checks', input),
    onSuccess: (check) => {
      queryClient.setQueryData(checkQueries.detail(check.id).queryKey, check);
      return invalidate(queryClient, { queryKey: checkQueries.list().queryKey, exact: true });
    },
  });
}

export function useCheckScan(checkId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { text: string; field_id?: number }) =>
      api.post<CheckScanAnswer>(`/api/checks/${checkId}/scans`, input),
    onSuccess: (answer) => queryClient.setQueryData(checkQueries.detail(checkId).queryKey, answer.check),
  });
}

export function useFinishCheck(checkId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<CheckDto>(`/api/checks/${checkId}/finish`),
    onSuccess: (check) => queryClient.setQueryData(checkQueries.detail(checkId).queryKey, check),
    onSettled: () => invalidate(queryClient, checkQueries.all),
  });
}

/** Gives up an open check (issue 34). */
export function useCancelCheck(checkId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<CheckDto>(`/api/checks/${checkId}/cancel`),
    onSuccess: (check) => queryClient.setQueryData(checkQueries.detail(checkId).queryKey, check),
    onSettled: () => invalidate(queryClient, checkQueries.all),
  });
}

/** Clears one field's count in an open check, to count it again (issue 34). */
export function useRecountField(checkId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fieldId: number) => api.post<CheckDto>(`/api/checks/${checkId}/fields/${fieldId}/recount`),
    onSuccess: (check) => queryClient.setQueryData(checkQueries.detail(checkId).queryKey, check),
    onSettled: () => invalidate(queryClient, checkQueries.all),
  });
}

/** Resolving may move a vault: the warehouse's data and the stage are refreshed too. */
export function useResolveDiscrepancy(checkId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { vault_id: number; action: CheckResolution }) =>
      api.post<CheckDto>(`/api/checks/${checkId}/resolve`, input),
    onSuccess: (check) => queryClient.setQueryData(checkQueries.detail(checkId).queryKey, check),
    onSettled: () => Promise.all([invalidate(queryClient, checkQueries.all), refreshVaultData(queryClient)]),
  });
}
