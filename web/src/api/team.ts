import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Role } from '../../../domain/rules/roles';
import type { SessionUser } from '../../../domain/schemas/auth.schema';
import type {
  AcceptLinkInput,
  LinkInfoDto,
  MemberDto,
  MemberLinkDto,
  ProfileInput,
  TeamDto,
} from '../../../domain/schemas/team.schema';
import { api } from '../lib/api-client';
import { sessionQueryKey } from './session';

const teamKey = ['team'] as const;

export function useTeam() {
  return useQuery({ queryKey: teamKey, queryFn: () => api.get<TeamDto>('/api/team') });
}

export function useInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { email: string; role: Role }) => api.post<MemberLinkDto>('/api/team/invites', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKey }),
  });
}

export function useChangeMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...changes }: { id: number; role?: Role; active?: boolean }) =>
      api.patch<MemberDto>(`/api/team/members/${id}`, changes),
    onSettled: () => queryClient.invalidateQueries({ queryKey: teamKey }),
  });
}

export function useResetLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<MemberLinkDto>(`/api/team/members/${id}/reset-link`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKey }),
  });
}

/** Revokes an unused invitation or password link; it stops working at once. */
export function useRevokeLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<void>(`/api/team/links/${id}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: teamKey }),
  });
}

export function useLinkInfo(token: string) {
  return useQuery({
    queryKey: ['member-link', token],
    queryFn: () => api.post<LinkInfoDto>('/api/team/link', { token }),
    enabled: token !== '',
    retry: false,
    staleTime: Infinity,
  });
}

export function useAcceptLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AcceptLinkInput) => api.post<SessionUser>('/api/team/link/accept', input),
    onSuccess: (user) => {
      // whatever this browser had loaded belonged to whoever was signed in before
      // (the link's own answer stays: the page leaves it for the dashboard)
      queryClient.removeQueries({
        predicate: (query) => ![sessionQueryKey[0], 'member-link'].includes(String(query.queryKey[0])),
      });
      queryClient.setQueryData(sessionQueryKey, user);
    },
  });
}

export function useChangeProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ProfileInput) => api.patch<MemberDto>('/api/profile', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionQueryKey }),
  });
}

/** The full address of a one-time link, to copy and send. */
export const linkAddress = (link: MemberLinkDto) => `${window.location.origin}${link.path}`;
