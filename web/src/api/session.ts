import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Role, roleAllows } from '@domain/rules/roles';
import type { LoginInput, SessionUser } from '@domain/schemas/auth.schema';
import { ApiError, api } from '../lib/api-client';
import { lastData } from '../lib/offline-data';

async function fetchSession(): Promise<SessionUser | null> {
  try {
    return await api.get<SessionUser>('/api/auth/');
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export const sessionQueries = {
  /** who is signed in (null: nobody); kept until a sign-in, a sign-out or the live stream says otherwise */
  session: () =>
    queryOptions({ queryKey: ['session'] as const, queryFn: fetchSession, staleTime: Infinity, retry: 1 }),
};

export function useSession() {
  return useQuery(sessionQueries.session());
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: LoginInput) => api.post<SessionUser>('/api/auth/login', input),
    onSuccess: (user) => queryClient.setQueryData(sessionQueries.session().queryKey, user),
  });
}

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<unknown>('/api/auth/logout'),
    onSettled: () => {
      const key = sessionQueries.session().queryKey;
      queryClient.setQueryData(key, null);
      // signing out forgets everything the previous user loaded
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== key[0] });
      // and the tablet's copy of what they saw
      void lastData.forget();
    },
  });
}

/** The signed-in member's role and what it allows; the server refuses the rest anyway (403). */
export function useRole() {
  const session = useSession();
  const role: Role = session.data?.role ?? 'viewer';
  return { role, can: (needed: Role) => roleAllows(role, needed) };
}
