import { useSyncExternalStore } from 'react';

/**
 * Whether the server can be reached, as far as the browser knows: the browser's own online/offline events, and the
 * last request (one that failed without an answer says offline; any answer says online).
 */
let online = typeof navigator === 'undefined' ? true : navigator.onLine;
const listeners = new Set<() => void>();

function set(next: boolean) {
  if (next === online) return;
  online = next;
  for (const listener of listeners) listener();
}

export function reportConnection(reachable: boolean): void {
  set(reachable);
}

if (typeof window !== 'undefined') {
  window.addEventListener('online', () => set(true));
  window.addEventListener('offline', () => set(false));
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useOnline(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => online,
    () => true,
  );
}
