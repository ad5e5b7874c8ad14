import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { WifiOff } from 'lucide-react';
import { useCallback, useState, useSyncExternalStore } from 'react';
import { useOnline } from '../../lib/connection-status';
import { formatTime, useCompanyLocale } from '../../lib/format';
import { KEPT_QUERIES } from '../../lib/offline-data';
import { Button } from './button';

/**
 * Shown while the server cannot be reached, so nobody types into a form that cannot be saved without knowing it.
 *
 * The page's banner sits at the bottom of the screen. A modal dialog hides the rest of the page from screen readers
 * and from the pointer, so every dialog shows its own copy at its top (`inDialog`), where it is seen, announced and
 * its Retry can be pressed without leaving the form; the page's copy steps aside meanwhile (see index.css).
 */
export function OfflineBanner({ inDialog = false }: { inDialog?: boolean }) {
  const online = useOnline();
  const queryClient = useQueryClient();
  const [retrying, setRetrying] = useState(false);
  const shownAsOf = useShownAsOf(queryClient);
  const locale = useCompanyLocale();
  if (online) return null;

  async function retry() {
    setRetrying(true);
    try {
      // any answer from the server marks the connection as back; the screens' data comes fresh with it
      await queryClient.refetchQueries({ type: 'active' });
    } finally {
      setRetrying(false);
    }
  }

  return (
    <div
      role="alert"
      data-offline-banner={inDialog ? 'dialog' : 'page'}
      className={`no-print flex items-center gap-3 border-amber-300 bg-amber-50 text-sm text-amber-950 ${
        inDialog
          ? 'sticky -top-6 z-10 -mx-6 -mt-6 mb-4 rounded-t-xl border-b px-4 py-2'
          : 'fixed inset-x-0 bottom-0 z-50 flex-wrap justify-center border-t px-4 py-3 shadow-lg'
      }`}
    >
      <WifiOff className="h-5 w-5 shrink-0" aria-hidden />
      <p className={`font-medium ${inDialog ? 'min-w-0 flex-1' : ''}`}>
        {shownAsOf !== null && (
          <span data-testid="offline-as-of" className="font-bold">
            Offline, as of {formatTime(shownAsOf, locale)}.{' '}
          </span>
        )}
        No connection to the server. Floor work waits on this device; other changes need the connection.
      </p>
      <Button variant="secondary" onClick={() => void retry()} disabled={retrying}>
        {retrying ? 'Retrying...' : 'Retry'}
      </Button>
    </div>
  );
}

/** The oldest answer the screen shows of the reads the tablet keeps (warehouses, stage, checks...): its data's age. */
function oldestShown(client: QueryClient): number | null {
  let oldest: number | null = null;
  for (const query of client.getQueryCache().findAll({ type: 'active' })) {
    const head = query.queryKey[0];
    if (head === 'session' || typeof head !== 'string' || !KEPT_QUERIES.has(head)) continue;
    const at = query.state.dataUpdatedAt;
    if (query.state.data !== undefined && at > 0 && (oldest === null || at < oldest)) oldest = at;
  }
  return oldest;
}

function useShownAsOf(client: QueryClient): number | null {
  const subscribe = useCallback(
    (listener: () => void) => client.getQueryCache().subscribe(listener),
    [client],
  );
  const snapshot = useCallback(() => oldestShown(client), [client]);
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}
