import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { LiveEventDto } from '../../../domain/schemas/live-event.schema';
import { invalidate } from '../api/invalidate';
import { sessionQueries } from '../api/session';

/** How long a burst of changes is gathered into one refresh. */
export const REFRESH_DELAY_MS = 150;
/**
 * After the server refused the stream (the database is down for a moment, signed out, too many tabs) the next try
 * waits 1 s, then twice as long each time up to 30 s, so a short outage heals at once and a lasting refusal costs little.
 */
const FIRST_RETRY_MS = 1_000;
const LONGEST_RETRY_MS = 30_000;

/** What the mapping reads of a change (the `change` frames of GET /api/events carry a LiveEventDto). */
export type LiveEvent = Pick<LiveEventDto, 'kind' | 'entityType' | 'entityId' | 'warehouseId'> &
  Partial<Pick<LiveEventDto, 'fieldId' | 'fromFieldId' | 'fromWarehouseId'>>;

/** A change, or the server's word that this browser missed too much and must refresh everything. */
export type LiveSignal = LiveEvent | 'reset';

/** What a cached query is, for deciding whether a change touches it. */
export interface CachedQuery {
  queryKey: readonly unknown[];
  data?: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/** Whether a warehouse's data (with its fields) or a field's data shows the vault. */
function showsVault(data: unknown, vaultId: number): boolean {
  if (!isRecord(data)) return false;
  if (isRecord(data.vaults) && vaultId in data.vaults) return true;
  if (!isRecord(data.fields)) return false;
  return Object.values(data.fields).some(
    (field) => isRecord(field) && isRecord(field.vaults) && vaultId in field.vaults,
  );
}

/**
 * Whether the change can make a cached query out of date. Checklist changes (signed-out floor staff answering
 * through the public link) touch checklists only. A change in a warehouse touches the company's lists (dashboard,
 * statistics, stage, print) and only the queries of that warehouse; a vault's change also touches the warehouse it
 * left (a move names it), or whichever warehouse's data shows the vault, and of a warehouse's field queries only
 * those of the fields it names. A change of an unknown kind,
 * or a reset, touches everything but the session.
 */
export function touchesQuery(signal: LiveSignal, query: CachedQuery): boolean {
  const [root, warehouseId, part, fieldId] = query.queryKey;
  if (root === sessionQueries.session().queryKey[0]) return false;
  if (signal === 'reset') return true;
  const ofThisWarehouse = signal.warehouseId === null || warehouseId === signal.warehouseId;
  switch (signal.entityType) {
    case 'checklist':
      return root === 'checklists';
    case 'pull-list':
      return root === 'pull-lists';
    case 'vault': {
      // a pull list shows where its vaults are and the plan made from the stacks they stand in
      if (root === 'warehouses' || root === 'stage' || root === 'print' || root === 'pull-lists') return true;
      if (root !== 'warehouse') return false;
      // a field's query: only the fields the change names, when it names any
      const named = [signal.fieldId, signal.fromFieldId].filter((id) => typeof id === 'number');
      if (part === 'field' && named.length > 0 && !named.includes(fieldId as number)) return false;
      return (
        (signal.warehouseId !== null && warehouseId === signal.warehouseId) ||
        (typeof signal.fromWarehouseId === 'number' && warehouseId === signal.fromWarehouseId) ||
        // events that do not name the warehouse a vault left: whichever warehouse shows the vault
        (signal.entityId !== null && showsVault(query.data, signal.entityId)) ||
        (signal.warehouseId === null && signal.entityId === null)
      );
    }
    case 'field':
      return root === 'warehouses' || root === 'print' || (root === 'warehouse' && ofThisWarehouse);
    case 'rack':
    case 'pallet':
      return root === 'racks' && ofThisWarehouse;
    case 'warehouse':
      return (
        root === 'warehouses' ||
        root === 'stage' ||
        root === 'print' ||
        root === 'checklists' ||
        ((root === 'warehouse' || root === 'racks') && ofThisWarehouse)
      );
    default:
      return root !== 'contact';
  }
}

/**
 * How a change refreshes a cached query: `refetch` (stale, and fetched again at once if on screen), `stale` (only
 * marked stale: fetched again when a screen next shows it) or `none`.
 */
export type Refresh = 'refetch' | 'stale' | 'none';

/** Screens that show the company list's counts (vaults per warehouse); elsewhere the list serves names only. */
const SCREENS_WITH_COUNTS = new Set(['/dashboard', '/statistics']);

/**
 * What the change does to the query while `screen` (a path of the app) is shown. A vault or field change elsewhere
 * only moves the company list's counts: on a screen that does not show them the list is merely marked stale, so a
 * tablet on a warehouse does no request for a change in another one and the counts are fresh when the dashboard
 * opens. Everything else a change touches is fetched again if on screen.
 */
export function refreshOf(signal: LiveSignal, query: CachedQuery, screen: string): Refresh {
  if (!touchesQuery(signal, query)) return 'none';
  const countsOnly =
    signal !== 'reset' &&
    query.queryKey[0] === 'warehouses' &&
    (signal.entityType === 'vault' || signal.entityType === 'field');
  return countsOnly && !SCREENS_WITH_COUNTS.has(screen.replace(/\/+$/, '') || '/') ? 'stale' : 'refetch';
}

/** The strongest refresh a batch of changes asks of the query. */
export function refreshOfAll(signals: readonly LiveSignal[], query: CachedQuery, screen: string): Refresh {
  let result: Refresh = 'none';
  for (const signal of signals) {
    const refresh = refreshOf(signal, query, screen);
    if (refresh === 'refetch') return refresh;
    if (refresh === 'stale') result = refresh;
  }
  return result;
}

/** The change a `change` frame carries, or null when it cannot be read. */
export function readChange(data: string): LiveEvent | null {
  try {
    const parsed: unknown = JSON.parse(data);
    if (!isRecord(parsed) || typeof parsed.kind !== 'string' || typeof parsed.entityType !== 'string')
      return null;
    const id = (value: unknown) => (typeof value === 'number' ? value : null);
    return {
      kind: parsed.kind,
      entityType: parsed.entityType,
      entityId: id(parsed.entityId),
      warehouseId: id(parsed.warehouseId),
      fieldId: id(parsed.fieldId),
      fromFieldId: id(parsed.fromFieldId),
      fromWarehouseId: id(parsed.fromWarehouseId),
    };
  } catch {
    return null;
  }
}

const currentScreen = () => (typeof location === 'undefined' ? '/' : location.pathname);

/**
 * Marks what the changes touch as stale; what is on screen is fetched again, the rest when it is next shown. The
 * company list's counts are fetched again only on a screen that shows them (see refreshOf).
 */
export function refreshTouched(
  queryClient: QueryClient,
  signals: readonly LiveSignal[],
  screen: string = currentScreen(),
) {
  const refresh = (query: { queryKey: readonly unknown[]; state: { data?: unknown } }) =>
    refreshOfAll(signals, { queryKey: query.queryKey, data: query.state.data }, screen);
  for (const query of queryClient.getQueryCache().findAll({ predicate: (q) => refresh(q) === 'stale' }))
    query.invalidate();
  return queryClient.invalidateQueries({ predicate: (query) => refresh(query) === 'refetch' });
}

/** The part of EventSource the live updates use, so tests can hand in a stand-in. */
export interface LiveSource {
  readonly readyState: number;
  addEventListener(name: string, listener: (event: MessageEvent<string>) => void): void;
  close(): void;
}

// EventSource.CLOSED: the browser gave up on the stream (it answered other than 200) and will not reconnect
const CLOSED = 2;

/**
 * Listens to the company's change stream and refreshes what a change touches, so a move on one tablet shows on
 * another within a second. The browser reconnects by itself after a drop and the server sends what was missed, or
 * a reset when that was too much; a stream the server ended with the session makes the app check its sign-in.
 * Answers a function that stops it all.
 */
export function startLiveUpdates(queryClient: QueryClient, open: () => LiveSource): () => void {
  let source: LiveSource | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let retryDelay = FIRST_RETRY_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending: LiveSignal[] = [];
  // a burst of changes (a bulk delete) becomes one refresh
  const schedule = (signal: LiveSignal) => {
    pending.push(signal);
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      const signals = pending.includes('reset') ? (['reset'] as const) : pending;
      pending = [];
      void refreshTouched(queryClient, signals);
    }, REFRESH_DELAY_MS);
  };
  const checkSignIn = () => void invalidate(queryClient, sessionQueries.session().queryKey);

  const connect = (replacing: boolean) => {
    const stream = open();
    source = stream;
    stream.addEventListener('change', (event) => schedule(readChange(event.data) ?? 'reset'));
    stream.addEventListener('reset', () => schedule('reset'));
    // a stream opened anew (not resumed) cannot know what happened while there was none
    stream.addEventListener('ready', () => {
      retryDelay = FIRST_RETRY_MS;
      if (replacing) schedule('reset');
    });
    // the stream's session ended: check the sign-in; the stream reconnects by itself with the browser's cookie,
    // which another tab's sign-in may have renewed, and catches up (a 401 closes it, and the app leaves)
    stream.addEventListener('signed-out', checkSignIn);
    stream.addEventListener('error', () => {
      if (stream.readyState !== CLOSED) return;
      // refused (database down, signed out, or too many tabs): check the sign-in, and try again later if it holds
      checkSignIn();
      retry = setTimeout(() => connect(true), retryDelay);
      retryDelay = Math.min(retryDelay * 2, LONGEST_RETRY_MS);
    });
  };
  connect(false);

  return () => {
    if (timer) clearTimeout(timer);
    if (retry) clearTimeout(retry);
    source?.close();
  };
}

/** Live updates while a user is signed in. */
export function useLiveUpdates(enabled: boolean) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    return startLiveUpdates(queryClient, () => new EventSource('/api/events') as LiveSource);
  }, [enabled, queryClient]);
}
