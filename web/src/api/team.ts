import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Role } from '@domain/rules/roles';
import type { SessionUser } from '@domain/schemas/auth.schema';
import type { CompanySettingsDto, CompanySettingsInput } from '@domain/schemas/company.schema';
import type {
  AcceptLinkInput,
  LinkInfoDto,
  MemberDto,
  MemberLinkDto,
  ProfileInput,
  TeamDto,
} from '@domain/schemas/team.schema';
import { api } from '../lib/api-client';
import { invalidate } from './invalidate';
import { sessionQueries } from './session';

export const teamQueries = {
  team: () => queryOptions({ queryKey: ['team'] as const, queryFn: () => api.get<TeamDto>('/api/team') }),
  /** what a one-time link is for (an invitation or a new password), asked once */
  link: (token: string) =>
    queryOptions({
      queryKey: ['member-link', token] as const,
      queryFn: () => api.post<LinkInfoDto>('/api/team/link', { token }),
      retry: false,
      staleTime: Infinity,
    }),
};

export function useTeam() {
  return useQuery(teamQueries.team());
}

export function useInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { email: string; role: Role }) => api.post<MemberLinkDto>('/api/team/invites', input),
    onSuccess: () => invalidate(queryClient, teamQueries.team().queryKey),
  });
}

export function useChangeMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...changes }: { id: number; role?: Role; active?: boolean }) =>
      api.patch<MemberDto>(`/api/team/members/${id}`, changes),
    onSettled: () => invalidate(queryClient, teamQueries.team().queryKey),
  });
}

export function useResetLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<MemberLinkDto>(`/api/team/members/${id}/reset-link`),
    onSuccess: () => invalidate(queryClient, teamQueries.team().queryKey),
  });
}

/** Revokes an unused invitation or password link; it stops working at once. */
export function useRevokeLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<void>(`/api/team/links/${id}`),
    onSettled: () => invalidate(queryClient, teamQueries.team().queryKey),
  });
}

export function useLinkInfo(token: string) {
  return useQuery({ ...teamQueries.link(token), enabled: token !== '' });
}

export function useAcceptLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AcceptLinkInput) => api.post<SessionUser>('/api/team/link/accept', input),
    onSuccess: (user) => {
      // whatever this browser had loaded belonged to whoever was signed in before
      // (the link's own answer stays: the page leaves it for the dashboard)
      queryClient.removeQueries({
        predicate: (query) => {
          const kept: unknown[] = [sessionQueries.session().queryKey[0], teamQueries.link('').queryKey[0]];
          return !kept.includes(query.queryKey[0]);
        },
      });
      queryClient.setQueryData(sessionQueries.session().queryKey, user);
    },
  });
}

export function useChangeProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ProfileInput) => api.patch<MemberDto>('/api/profile', input),
    onSuccess: () => invalidate(queryClient, sessionQueries.session().queryKey),
  });
}

/** The full address of a one-time link, to copy and send. */
export const linkAddress = (link: MemberLinkDto) => link.url || `${window.location.origin}${link.path}`;

/** The company's locale: the session carries it, so every date and number on screen follows at once. */
export function useChangeCompanySettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CompanySettingsInput) => api.patch<CompanySettingsDto>('/api/company', input),
    onSuccess: (company) =>
      queryClient.setQueryData(sessionQueries.session().queryKey, (session) =>
        session ? { ...session, company: { ...session.company, locale: company.locale } } : session,
      ),
  });
}
