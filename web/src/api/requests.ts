import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { PortalUnitDto } from '@domain/schemas/customer.schema';
import type {
  LoadOutDto,
  LoadScanAnswer,
  OfficeRequestSchema,
  RequestDto,
  RequestState,
  RequestSummaryDto,
  ScheduleRequestSchema,
} from '@domain/schemas/request.schema';
import { api } from '../lib/api-client';
import { type SentOrQueued, sendOrQueue } from '../lib/outbox/floor-outbox';
import { invalidate } from './invalidate';
import { getQuery } from './get-query';

/** Customers' requests and the load-out check (issue 29, decision 048). */
export const requestQueries = {
  list: (state: RequestState | 'all') =>
    queryOptions({
      queryKey: ['requests', 'list', state] as const,
      queryFn: () =>
        api.get<RequestSummaryDto[]>(state === 'all' ? '/api/requests' : `/api/requests?state=${state}`),
    }),
  one: (id: number) => getQuery<RequestDto>(['requests', 'one', id], `/api/requests/${id}`),
  loadOut: (id: number) =>
    queryOptions({
      queryKey: ['requests', 'load-out', id] as const,
      queryFn: () => api.get<LoadOutDto>(`/api/requests/${id}/load-out`),
      // another crew member's scans show within seconds
      refetchInterval: 5_000,
    }),
  customerUnits: (customerId: number) =>
    getQuery<PortalUnitDto[]>(['customers', 'units', customerId], `/api/customers/${customerId}/units`),
};

export const useRequests = (state: RequestState | 'all') => useQuery(requestQueries.list(state));
export const useRequest = (id: number | null) =>
  useQuery({ ...requestQueries.one(id ?? 0), enabled: id !== null });
export const useLoadOut = (id: number | null) =>
  useQuery({ ...requestQueries.loadOut(id ?? 0), enabled: id !== null });
export const useCustomerUnits = (customerId: number | null) =>
  useQuery({ ...requestQueries.customerUnits(customerId ?? 0), enabled: customerId !== null });

function useRequestChange<I>(run: (input: I) => Promise<RequestDto>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSettled: () => invalidate(queryClient, ['requests'], ['pull-lists']),
  });
}

export const useCreateRequest = () =>
  useRequestChange((input: z.input<typeof OfficeRequestSchema>) =>
    api.post<RequestDto>('/api/requests', input),
  );

export const useScheduleRequest = (id: number) =>
  useRequestChange((input: z.input<typeof ScheduleRequestSchema>) =>
    api.post<RequestDto>(`/api/requests/${id}/schedule`, input),
  );

export const useCancelRequest = (id: number) =>
  useRequestChange(() => api.post<RequestDto>(`/api/requests/${id}/cancel`));

export const useMarkDelivered = (id: number) =>
  useRequestChange(() => api.post<RequestDto>(`/api/requests/${id}/delivered`));

export const useCompleteLoad = (id: number) =>
  useRequestChange((input: { override_reason?: string }) =>
    api.post<RequestDto>(`/api/requests/${id}/load`, input),
  );

/** The outbox's scope of a load-out's scans: the load is not marked loaded while some wait on this tablet. */
export const loadOutScope = (requestId: number) => `load-out:${requestId}`;

/**
 * One unit onto the truck. Each scan carries its own Idempotency-Key, so a retried scan is applied once; a scan that
 * gets no answer waits in the tablet's outbox (issue 30), in order with the others, and the answer says `queued`.
 */
export function useLoadScan(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    // `caption`: how the outbox lists the scan if it waits (a label's link by the unit it names), never sent
    mutationFn: ({
      text,
      caption,
    }: {
      text: string;
      caption?: string;
    }): Promise<SentOrQueued<LoadScanAnswer>> =>
      sendOrQueue<LoadScanAnswer>({
        kind: 'load-out-scan',
        label: `Load-out ${id}: scan ${caption ?? text}`,
        method: 'POST',
        url: `/api/requests/${id}/load-scans`,
        body: { text },
        scope: loadOutScope(id),
      }),
    onSuccess: (sent) => {
      if (sent.queued) return;
      queryClient.setQueryData(requestQueries.loadOut(id).queryKey, sent.answer.load_out);
      void invalidate(queryClient, requestQueries.one(id).queryKey);
    },
  });
}
