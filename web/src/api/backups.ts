import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BackupsDto } from '@domain/schemas/backup.schema';
import { ApiError, api } from '../lib/api-client';
import { invalidate } from './invalidate';

/** While a backup runs, the page asks this often whether it has finished. */
const RUNNING_POLL_MS = 1_000;
/** A backup of a large database takes minutes; the button stops waiting after this long (the page keeps polling). */
const WAIT_LIMIT_MS = 30 * 60_000;

export const backupQueries = {
  /** the installation's automatic backups; its operator's Managers only (others get 404) */
  status: () =>
    queryOptions({
      queryKey: ['backups'] as const,
      queryFn: () => api.get<BackupsDto>('/api/backups'),
      // "not the operator" is an answer, not a failure to retry
      retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 2,
    }),
};

export function useBackups() {
  return useQuery({
    ...backupQueries.status(),
    refetchInterval: (query) => {
      const data = query.state.data;
      return data?.automatic && data.running ? RUNNING_POLL_MS : false;
    },
  });
}

export type BackUpNowOutcome =
  { ok: true; backup: { file: string; takenAt: string; bytes: number } } | { ok: false; message: string };

/**
 * Begins a backup now and follows it until it is done: answers the new backup, or why it failed. The backups query
 * shows it running meanwhile.
 */
export function useBackUpNow() {
  const queryClient = useQueryClient();
  const key = backupQueries.status().queryKey;
  return useMutation({
    mutationFn: async (): Promise<BackUpNowOutcome> => {
      const previous = queryClient.getQueryData(key);
      const previousFile = previous?.automatic ? previous.lastGood?.file : undefined;
      const started = await api.post<BackupsDto>('/api/backups');
      queryClient.setQueryData(key, started);
      const end = Date.now() + WAIT_LIMIT_MS;
      for (let status = started; ;) {
        if (!status.automatic) return { ok: false, message: status.reason };
        if (!status.running) {
          const backup = status.lastGood;
          if (backup && backup.file !== previousFile) return { ok: true, backup };
          return { ok: false, message: status.lastFailure?.message ?? 'The backup did not finish.' };
        }
        if (Date.now() > end) return { ok: false, message: 'The backup is still running. Look again later.' };
        await new Promise((resolve) => setTimeout(resolve, RUNNING_POLL_MS));
        status = await queryClient.fetchQuery({ ...backupQueries.status(), staleTime: 0 });
      }
    },
    onSettled: () => invalidate(queryClient, key),
  });
}
