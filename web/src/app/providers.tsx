import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { ApiError, ConnectionError } from '../lib/api-client';
import { lastData } from '../lib/offline-data';
import { seedShellData } from './shell-data';

export function AppProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(() => {
    const client = new QueryClient({
      defaultOptions: {
        queries: {
          // a 4xx will not change by asking again, nor will a request while the browser knows it is offline
          retry: (count, error) =>
            !(error instanceof ApiError && error.status < 500) &&
            !(error instanceof ConnectionError && !navigator.onLine) &&
            count < 2,
          refetchOnWindowFocus: false,
        },
        // a change is tried even when the browser says offline: it fails at once with a clear message (and the
        // banner shows) instead of 'Adding Vault...' waiting silently for the connection. Reads keep pausing
        // offline, so a screen keeps the data it has.
        mutations: { networkMode: 'always' },
      },
    });
    // the floor's reads are kept on the tablet and shown, read-only with their age, when the server cannot be reached
    // (first, so the data the HTML brings is kept too)
    lastData.attach(client);
    // a signed-in page's HTML brings its first screen's data
    seedShellData(client);
    return client;
  });
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
