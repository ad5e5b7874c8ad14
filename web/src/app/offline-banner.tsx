import { useQueryClient } from '@tanstack/react-query';
import { WifiOff } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../components/ui/button';
import { useOnline } from '../lib/connection-status';

/** Shown while the server cannot be reached, so nobody types into a form that cannot be saved without knowing it. */
export function OfflineBanner() {
  const online = useOnline();
  const queryClient = useQueryClient();
  const [retrying, setRetrying] = useState(false);
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
      className="no-print fixed inset-x-0 bottom-0 z-50 flex flex-wrap items-center justify-center gap-3 border-t border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950 shadow-lg"
    >
      <WifiOff className="h-5 w-5 shrink-0" aria-hidden />
      <p className="font-medium">No connection to the server. Changes cannot be saved until it is back.</p>
      <Button variant="secondary" onClick={() => void retry()} disabled={retrying}>
        {retrying ? 'Retrying...' : 'Retry'}
      </Button>
    </div>
  );
}
