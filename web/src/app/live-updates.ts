import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { sessionQueryKey } from '../api/session';

const REFRESH_DELAY_MS = 150;

function refreshEverythingButTheSession(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== sessionQueryKey[0] });
}

/**
 * Listens to the company's change stream and refreshes what is on screen, so a move on one tablet shows on
 * another within a second. The browser reconnects by itself after a drop and the server replays what was missed.
 */
export function useLiveUpdates(enabled: boolean) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    const source = new EventSource('/api/events');
    let timer: ReturnType<typeof setTimeout> | undefined;
    let dropped = false;
    // a burst of changes (a bulk delete) becomes one refresh
    const scheduleRefresh = () => {
      if (timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        void refreshEverythingButTheSession(queryClient);
      }, REFRESH_DELAY_MS);
    };
    source.addEventListener('change', scheduleRefresh);
    source.addEventListener('error', () => {
      dropped = true;
    });
    source.addEventListener('open', () => {
      if (dropped) scheduleRefresh();
      dropped = false;
    });
    return () => {
      if (timer) clearTimeout(timer);
      source.close();
    };
  }, [enabled, queryClient]);
}
