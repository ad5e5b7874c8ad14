import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Role, roleAllows } from '../../../domain/rules/roles';
import type { LoginInput, SessionUser } from '../../../domain/schemas/auth.schema';
import { ApiError, api } from '../lib/api-client';

export const sessionQueryKey = ['session'] as const;

async function fetchSession(): Promise<SessionUser | null> {
  try {
    return await api.get<SessionUser>('/api/auth/');
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export function useSession() {
  return useQuery({ queryKey: sessionQueryKey, queryFn: fetchSession, staleTime: Infinity, retry: 1 });
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: LoginInput) => api.post<SessionUser>('/api/auth/login', input),
    onSuccess: (user) => queryClient.setQueryData(sessionQueryKey, user),
  });
}

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<unknown>('/api/auth/logout'),
    onSettled: () => {
      queryClient.setQueryData(sessionQueryKey, null);
      // signing out forgets everything the previous user loaded
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionQueryKey[0] });
    },
  });
}

/** The signed-in member's role and what it allows; the server refuses the rest anyway (403). */
export function useRole() {
  const session = useSession();
  const role: Role = session.data?.role ?? 'viewer';
  return { role, can: (needed: Role) => roleAllows(role, needed) };
}
