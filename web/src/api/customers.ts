import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  CustomerDto,
  CustomerSchema,
  CustomerUpdateSchema,
  PortalLinkDto,
} from '@domain/schemas/customer.schema';
import type { MailListDto } from '@domain/schemas/team.schema';
import { api } from '../lib/api-client';
import { invalidate } from './invalidate';
import { getQuery } from './get-query';

export const customerQueries = {
  list: () => getQuery<CustomerDto[]>(['customers'], '/api/customers'),
  /** the company's mails and their delivery state (the Team page) */
  mails: () =>
    queryOptions({
      queryKey: ['team', 'mails'] as const,
      queryFn: () => api.get<MailListDto>('/api/team/mails'),
      refetchInterval: 10_000,
    }),
};

export function useCustomers() {
  return useQuery(customerQueries.list());
}

export function useCompanyMails() {
  return useQuery(customerQueries.mails());
}

export function useAddCustomer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: z.input<typeof CustomerSchema>) => api.post<CustomerDto>('/api/customers', input),
    onSuccess: () => invalidate(queryClient, customerQueries.list().queryKey),
  });
}

export function useChangeCustomer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...input }: z.input<typeof CustomerUpdateSchema> & { id: number }) =>
      api.patch<CustomerDto>(`/api/customers/${id}`, input),
    onSettled: () => invalidate(queryClient, customerQueries.list().queryKey),
  });
}

/** A one-time portal link: mailed to the customer (SMTP set up) or answered to copy. */
export function useSendPortalLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<PortalLinkDto>(`/api/customers/${id}/portal-link`),
    onSuccess: () => invalidate(queryClient, customerQueries.mails().queryKey),
  });
}
