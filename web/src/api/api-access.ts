import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ApiTokenDto,
  CreateApiTokenInput,
  CreateWebhookInput,
  CreatedApiTokenDto,
  CreatedWebhookDto,
  UpdateWebhookInput,
  WebhookDeliveryDto,
  WebhookEndpointDto,
} from '@domain/schemas/api-access.schema';
import { api } from '../lib/api-client';
import { invalidate } from './invalidate';
import { getQuery } from './get-query';

/** API tokens and webhook endpoints (issue 31, Managers only). */
export const apiAccessQueries = {
  tokens: () => getQuery<ApiTokenDto[]>(['api-tokens'], '/api/api-tokens'),
  webhooks: () => getQuery<WebhookEndpointDto[]>(['webhooks'], '/api/webhooks'),
  deliveries: (endpointId: number) =>
    getQuery<WebhookDeliveryDto[]>(
      ['webhooks', endpointId, 'deliveries'],
      `/api/webhooks/${endpointId}/deliveries`,
    ),
};

export function useApiTokens() {
  return useQuery(apiAccessQueries.tokens());
}

export function useCreateApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateApiTokenInput) => api.post<CreatedApiTokenDto>('/api/api-tokens', input),
    onSuccess: () => invalidate(queryClient, apiAccessQueries.tokens().queryKey),
  });
}

export function useRevokeApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<ApiTokenDto>(`/api/api-tokens/${id}`),
    onSettled: () => invalidate(queryClient, apiAccessQueries.tokens().queryKey),
  });
}

export function useWebhooks() {
  return useQuery(apiAccessQueries.webhooks());
}

export function useWebhookDeliveries(endpointId: number, enabled: boolean) {
  return useQuery({ ...apiAccessQueries.deliveries(endpointId), enabled });
}

export function useCreateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateWebhookInput) => api.post<CreatedWebhookDto>('/api/webhooks', input),
    onSuccess: () => invalidate(queryClient, apiAccessQueries.webhooks().queryKey),
  });
}

export function useChangeWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...changes }: UpdateWebhookInput & { id: number }) =>
      api.patch<WebhookEndpointDto>(`/api/webhooks/${id}`, changes),
    onSettled: () => invalidate(queryClient, apiAccessQueries.webhooks().queryKey),
  });
}

export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<void>(`/api/webhooks/${id}`),
    onSettled: () => invalidate(queryClient, apiAccessQueries.webhooks().queryKey),
  });
}

export function useSendTestEvent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<{ queued: boolean }>(`/api/webhooks/${id}/test`),
    onSuccess: (_answer, id) => invalidate(queryClient, apiAccessQueries.deliveries(id).queryKey),
  });
}
