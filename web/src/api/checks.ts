import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  CheckDto,
  CheckResolution,
  CheckScanAnswer,
  CheckSummaryDto,
  StartCheckSchema,
} from '../../../domain/schemas/check.schema';
import { api } from '../lib/api-client';
import { stageQueryKey } from './stage';
import { refreshWarehouseData } from './warehouses';

/** Every query of warehouse checks starts with this; live check changes refresh only these (app/live-updates.ts). */
export const checksQueryKey = ['checks'] as const;
const checkQueryKey = (id: number) => [...checksQueryKey, id] as const;

export function useChecks() {
  return useQuery({
    queryKey: checksQueryKey,
    queryFn: () => api.get<CheckSummaryDto[]>('/api/checks'),
  });
}

export function useCheck(id: number | null) {
  return useQuery({
    queryKey: checkQueryKey(id ?? 0),
    queryFn: () => api.get<CheckDto>(`/api/checks/${id}`),
    enabled: id !== null,
  });
}

export function useStartCheck() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: z.input<typeof StartCheckSchema>) => api.post<CheckDto>('/api/checks', input),
    onSuccess: (check) => {
      queryClient.setQueryData(checkQueryKey(check.id), check);
      return queryClient.invalidateQueries({ queryKey: checksQueryKey, exact: true });
    },
  });
}

export function useCheckScan(checkId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { text: string; field_id?: number }) =>
      api.post<CheckScanAnswer>(`/api/checks/${checkId}/scans`, input),
    onSuccess: (answer) => queryClient.setQueryData(checkQueryKey(checkId), answer.check),
  });
}

export function useFinishCheck(checkId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<CheckDto>(`/api/checks/${checkId}/finish`),
    onSuccess: (check) => queryClient.setQueryData(checkQueryKey(checkId), check),
    onSettled: () => queryClient.invalidateQueries({ queryKey: checksQueryKey }),
  });
}

/** Resolving may move a vault: the warehouse's data and the stage are refreshed too. */
export function useResolveDiscrepancy(checkId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { vault_id: number; action: CheckResolution }) =>
      api.post<CheckDto>(`/api/checks/${checkId}/resolve`, input),
    onSuccess: (check) => queryClient.setQueryData(checkQueryKey(checkId), check),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: checksQueryKey }),
        queryClient.invalidateQueries({ queryKey: stageQueryKey }),
        refreshWarehouseData(queryClient),
      ]),
  });
}
