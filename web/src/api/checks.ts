import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  CheckDto,
  CheckResolution,
  CheckScanAnswer,
  CheckSummaryDto,
  StartCheckSchema,
} from '@domain/schemas/check.schema';
import { api } from '../lib/api-client';
import { type SentOrQueued, sendOrQueue } from '../lib/outbox/floor-outbox';
import { invalidate } from './invalidate';
import { refreshVaultData } from './stage';
import { getQuery } from './get-query';

export const checkQueries = {
  /** every query of warehouse checks starts with this key; live check changes refresh only these (app/live-updates.ts) */
  all: ['checks'] as const,
  list: () => getQuery<CheckSummaryDto[]>(['checks'], '/api/checks'),
  detail: (id: number) => getQuery<CheckDto>(['checks', id], `/api/checks/${id}`),
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

/** The outbox's scope of a check's scans: the check is not finished while some wait on this tablet. */
export const checkScope = (checkId: number) => `check:${checkId}`;

/**
 * Counts a scan in a running check. A scan that gets no answer waits in the tablet's outbox (issue 30), in order
 * with the others, with the field being checked as its basis; the answer then says `queued`.
 */
export function useCheckScan(checkId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    // `caption`: how the outbox lists the scan if it waits (a label's link by what it names), never sent
    mutationFn: ({
      caption,
      ...input
    }: ({ text: string } | { vault_id: number }) & {
      field_id?: number;
      caption?: string;
    }): Promise<SentOrQueued<CheckScanAnswer>> =>
      sendOrQueue<CheckScanAnswer>({
        kind: 'check-scan',
        label: `Check ${checkId}: scan ${caption ?? ('text' in input ? input.text : `vault ${input.vault_id}`)}`,
        method: 'POST',
        url: `/api/checks/${checkId}/scans`,
        body: input,
        scope: checkScope(checkId),
      }),
    onSuccess: (sent) => {
      if (!sent.queued) queryClient.setQueryData(checkQueries.detail(checkId).queryKey, sent.answer.check);
    },
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
