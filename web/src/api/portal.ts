import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { PortalInvoicesDto, PortalMeDto, PortalUnitDto } from '@domain/schemas/customer.schema';
import type { PortalRequestDto, PortalRequestSchema } from '@domain/schemas/request.schema';
import { ApiError, api } from '../lib/api-client';
import { getQuery } from './get-query';

/** The customer portal's reads: its own session, apart from the staff's (issue 29). */
export const portalQueries = {
  me: () =>
    queryOptions({
      queryKey: ['portal', 'me'] as const,
      // signed out of the portal reads as null, not as an error
      queryFn: async () => {
        try {
          return await api.get<PortalMeDto>('/api/portal/me');
        } catch (error) {
          if (error instanceof ApiError && error.status === 401) return null;
          throw error;
        }
      },
      retry: false,
    }),
  units: () => getQuery<PortalUnitDto[]>(['portal', 'units'], '/api/portal/units'),
  invoices: () => getQuery<PortalInvoicesDto>(['portal', 'invoices'], '/api/portal/invoices'),
};

export const usePortalMe = () => useQuery(portalQueries.me());
export const usePortalUnits = (enabled: boolean) => useQuery({ ...portalQueries.units(), enabled });
export const usePortalInvoices = (enabled: boolean) => useQuery({ ...portalQueries.invoices(), enabled });

export function usePortalSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => api.post<PortalMeDto>('/api/portal/sign-in', { token }),
    onSuccess: (me) => {
      queryClient.removeQueries({ queryKey: ['portal'] });
      queryClient.setQueryData(portalQueries.me().queryKey, me);
    },
  });
}

export function usePortalSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<void>('/api/portal/sign-out'),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: ['portal'] });
      queryClient.setQueryData(portalQueries.me().queryKey, null);
    },
  });
}

/** The customer's requests (issue 29, point 3). */
export const portalRequestQueries = {
  list: () => getQuery<PortalRequestDto[]>(['portal', 'requests'], '/api/portal/requests'),
};

export const usePortalRequests = (enabled: boolean) => useQuery({ ...portalRequestQueries.list(), enabled });

export function usePortalCreateRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: z.input<typeof PortalRequestSchema>) =>
      api.post<PortalRequestDto>('/api/portal/requests', input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['portal', 'requests'] }),
  });
}

export function usePortalCancelRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<PortalRequestDto>(`/api/portal/requests/${id}/cancel`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['portal', 'requests'] }),
  });
}
