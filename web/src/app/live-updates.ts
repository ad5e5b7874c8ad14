import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { countVaults } from '@domain/rules/placeholders';
import type { LiveEventDto } from '@domain/schemas/live-event.schema';
import type { FieldDto } from '@domain/schemas/warehouse.schema';
import { invalidate } from '../api/invalidate';
import { sessionQueries } from '../api/session';
import { naturalCompare } from '@domain/rules/text';

/** How long a burst of changes is gathered into one refresh. */
export const REFRESH_DELAY_MS = 150;
/**
 * After the server refused the stream (the database is down for a moment, signed out, too many tabs) the next try
 * waits 1 s, then twice as long each time up to 30 s, so a short outage heals at once and a lasting refusal costs little.
 */
const FIRST_RETRY_MS = 1_000;
const LONGEST_RETRY_MS = 30_000;

/** How long the warehouses on screen must stay the same before the stream is opened anew to watch them. */
export const WATCH_SETTLE_MS = 300;

/**
 * What the mapping reads of a change (the `change` frames of GET /api/events carry a LiveEventDto); `fields` is the
 * new state of the fields it touched, sent when the stream watches their warehouse.
 */
export type LiveEvent = Pick<LiveEventDto, 'kind' | 'entityType' | 'entityId' | 'warehouseId'> &
  Partial<Pick<LiveEventDto, 'fieldId' | 'fromFieldId' | 'fromWarehouseId' | 'fields'>>;

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
    // a customer's request (issue 29): its lists and its pull list's link to the load-out
    case 'request':
      return root === 'requests' || root === 'pull-lists';
    // a customer added or changed by another member: the Customers page
    case 'customer':
      return root === 'customers';
    // an invoice issued or paid (issue 28): only the billing screens show it
    case 'invoice':
      return root === 'billing';
    // a warehouse check's scans, finish and resolutions (a resolving move also sends its own vault change)
    case 'check':
      return root === 'checks';
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

/** The fields a change must bring for a copy to be patched: the vault's field and the one it left, or the field. */
function namedFields(signal: LiveEvent): number[] {
  const ids =
    signal.entityType === 'field' ? [signal.entityId] : [signal.fieldId ?? null, signal.fromFieldId ?? null];
  return ids.filter((id): id is number => typeof id === 'number');
}

type Counts = ReturnType<typeof countVaults>;
type CountedVault = FieldDto['vaults'][number];

/** The counts with `before` taken out and `after` put in. */
function movedCounts(counts: Counts, before: CountedVault[], after: CountedVault[]): Counts {
  const [out, into] = [countVaults(before), countVaults(after)];
  return {
    vaultCount: counts.vaultCount - out.vaultCount + into.vaultCount,
    realVaultCount: counts.realVaultCount - out.realVaultCount + into.realVaultCount,
    emptyVaultCount: counts.emptyVaultCount - out.emptyVaultCount + into.emptyVaultCount,
    emptyCouchboxCount: counts.emptyCouchboxCount - out.emptyCouchboxCount + into.emptyCouchboxCount,
  };
}

/**
 * A warehouse's customer or order names (sorted as the server sorts them) after the vaults `before` were replaced by
 * `after`: a name leaves only when no vault of the warehouse has it any more. The same list when nothing changed.
 */
function movedNames(
  names: unknown[],
  before: CountedVault[],
  after: CountedVault[],
  rest: () => CountedVault[],
  pick: (vault: CountedVault) => string | null,
): unknown[] {
  const had = new Set(names);
  const now = new Set(after.map(pick).filter((name): name is string => Boolean(name)));
  const added = [...now].filter((name) => !had.has(name));
  const left = new Set(
    before
      .map(pick)
      .filter((name): name is string => typeof name === 'string' && name !== '' && !now.has(name)),
  );
  // a name the patched fields no longer show may still be on a vault elsewhere in the warehouse
  for (const vault of left.size > 0 ? rest() : []) {
    left.delete(pick(vault) ?? '');
    if (left.size === 0) break;
  }
  if (added.length === 0 && left.size === 0) return names;
  // the list is sorted: each new name goes in at its place (a sort of the whole list costs too much per change)
  const result = left.size > 0 ? names.filter((name) => !left.has(name as string)) : [...names];
  for (const name of added) {
    let [low, high] = [0, result.length];
    while (low < high) {
      const middle = (low + high) >> 1;
      if (naturalCompare(String(result[middle]), name) <= 0) low = middle + 1;
      else high = middle;
    }
    result.splice(low, 0, name);
  }
  return result;
}

/**
 * The warehouse with `brought` fields in place of its copies, and its counts and customer and order names moved by
 * what they changed (as the server counts and names them), without going over the whole warehouse.
 */
function withFields(
  warehouse: Record<string, unknown>,
  cached: Record<number, FieldDto>,
  brought: FieldDto[],
) {
  const vaultsOf = (fields: FieldDto[]) => fields.flatMap((field) => Object.values(field.vaults));
  const before = vaultsOf(brought.map((field) => cached[field.id]!));
  const after = vaultsOf(brought);
  const fields = { ...cached };
  for (const field of brought) fields[field.id] = field;
  // the vaults of the other fields, gathered once and only when a name may have left (plain loops: this runs per change)
  let others: CountedVault[] | undefined;
  const rest = () => {
    if (others) return others;
    others = [];
    const replaced = new Set(brought.map((field) => field.id));
    for (const field of Object.values(fields)) {
      if (replaced.has(field.id)) continue;
      for (const id in field.vaults) others.push(field.vaults[id]!);
    }
    return others;
  };
  const patched: Record<string, unknown> = { ...warehouse, fields };
  if (isRecord(warehouse.stats))
    patched.stats = movedCounts(warehouse.stats as unknown as Counts, before, after);
  if (Array.isArray(warehouse.customers))
    patched.customers = movedNames(warehouse.customers, before, after, rest, (v) => v.customer_name);
  if (Array.isArray(warehouse.orders))
    patched.orders = movedNames(warehouse.orders, before, after, rest, (v) => v.order_name);
  return patched;
}

/**
 * The cached data of a warehouse query with the change's fields put in (decision 023), or undefined when it cannot
 * be patched and must be fetched again: the change carries no fields (the stream does not watch the warehouse, a
 * catch-up after a reconnect, a release), or not every field it names, or the copy does not know a field it brings
 * (the layout changed), or the copy shows the vault in a field the change does not bring. A warehouse's counts and
 * customer and order names are made again from its patched fields. Pure: the copy is not changed.
 */
export function patchedData(signal: LiveSignal, query: CachedQuery): unknown {
  if (signal === 'reset' || !signal.fields) return undefined;
  if (signal.entityType !== 'vault' && signal.entityType !== 'field') return undefined;
  const [root, warehouseId, part, fieldId] = query.queryKey;
  if (root !== 'warehouse' || typeof warehouseId !== 'number' || !isRecord(query.data)) return undefined;
  const brought = new Map(signal.fields.map((field) => [field.id, field]));
  if (namedFields(signal).some((id) => !brought.has(id))) return undefined;
  if (part === 'field') {
    // the change brings every field it touched: one it does not bring is as it was
    return brought.get(fieldId as number) ?? query.data;
  }
  if (query.queryKey.length !== 2 || !isRecord(query.data.fields)) return undefined;
  const cached = query.data.fields as Record<number, FieldDto>;
  const mine = signal.fields.filter((field) => field.warehouse_id === warehouseId);
  if (mine.some((field) => !(field.id in cached))) return undefined;
  const vaultId = signal.entityType === 'vault' ? signal.entityId : null;
  if (
    vaultId !== null &&
    Object.values(cached).some(
      (field) => !brought.has(field.id) && isRecord(field.vaults) && vaultId in field.vaults,
    )
  )
    return undefined;
  return withFields(query.data, cached, mine);
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

/** What a batch of changes does to a cached query: how it is refreshed, and its patched data when it is. */
export interface QueryUpdate {
  refresh: Refresh;
  /** the data with every touching change put in, when all of them could be (then `refresh` is `none`) */
  data?: unknown;
}

/**
 * What a batch of changes does to a cached query on `screen`: a change whose fields can be put into the copy patches
 * it (no request); any other change that touches it refreshes it as refreshOf says, and a refetch wins over patches.
 */
export function updateOf(signals: readonly LiveSignal[], query: CachedQuery, screen: string): QueryUpdate {
  let refresh: Refresh = 'none';
  let data = query.data;
  let patched = false;
  for (const signal of signals) {
    if (!touchesQuery(signal, query)) continue;
    const next = data === undefined ? undefined : patchedData(signal, { queryKey: query.queryKey, data });
    if (next !== undefined) {
      data = next;
      patched = true;
      continue;
    }
    const wanted = refreshOf(signal, query, screen);
    if (wanted === 'refetch') return { refresh: 'refetch' };
    if (wanted === 'stale') refresh = 'stale';
  }
  return patched ? { refresh, data } : { refresh };
}

/** The fields of a frame as the patching reads them, or undefined when absent or not what they should be. */
function readFields(value: unknown): FieldDto[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const ok = value.every(
    (field) =>
      isRecord(field) &&
      typeof field.id === 'number' &&
      typeof field.warehouse_id === 'number' &&
      isRecord(field.vaults),
  );
  return ok ? (value as FieldDto[]) : undefined;
}

/** The change a `change` frame carries, or null when it cannot be read. */
export function readChange(data: string): LiveEvent | null {
  try {
    const parsed: unknown = JSON.parse(data);
    if (!isRecord(parsed) || typeof parsed.kind !== 'string' || typeof parsed.entityType !== 'string')
      return null;
    const id = (value: unknown) => (typeof value === 'number' ? value : null);
    const change: LiveEvent = {
      kind: parsed.kind,
      entityType: parsed.entityType,
      entityId: id(parsed.entityId),
      warehouseId: id(parsed.warehouseId),
      fieldId: id(parsed.fieldId),
      fromFieldId: id(parsed.fromFieldId),
      fromWarehouseId: id(parsed.fromWarehouseId),
    };
    const fields = readFields(parsed.fields);
    if (fields) change.fields = fields;
    return change;
  } catch {
    return null;
  }
}

const currentScreen = () => (typeof location === 'undefined' ? '/' : location.pathname);

/**
 * Patches the copies the changes bring the data for; marks the rest of what they touch as stale: what is on screen
 * is fetched again, the rest when it is next shown. The company list's counts are fetched again only on a screen that
 * shows them (see refreshOf). A copy whose fetch is under way is fetched again rather than patched, since the answer
 * on its way may be older than the change.
 */
export function refreshTouched(
  queryClient: QueryClient,
  signals: readonly LiveSignal[],
  screen: string = currentScreen(),
) {
  const refetch: unknown[][] = [];
  for (const query of queryClient.getQueryCache().getAll()) {
    const update = updateOf(signals, { queryKey: query.queryKey, data: query.state.data }, screen);
    if (update.data !== undefined && query.state.fetchStatus === 'fetching') update.refresh = 'refetch';
    if (update.refresh === 'refetch') refetch.push([...query.queryKey]);
    else if (update.data !== undefined) queryClient.setQueryData(query.queryKey, update.data);
    if (update.refresh === 'stale') void query.invalidate();
  }
  const keys = new Set(refetch.map((key) => JSON.stringify(key)));
  return queryClient.invalidateQueries({ predicate: (query) => keys.has(JSON.stringify(query.queryKey)) });
}

/** The warehouses whose data a screen shows now (their queries have observers): the stream watches them. */
export function shownWarehouses(queryClient: QueryClient): number[] {
  const ids = new Set<number>();
  for (const query of queryClient.getQueryCache().getAll()) {
    const [root, warehouseId] = query.queryKey;
    if (
      root === 'warehouse' &&
      typeof warehouseId === 'number' &&
      warehouseId > 0 &&
      query.getObserversCount() > 0
    )
      ids.add(warehouseId);
  }
  return [...ids].sort((a, b) => a - b);
}

/** The address of the stream that watches `watch` and, when given, starts after the event `lastEventId`. */
export function eventsUrl(watch: readonly number[], lastEventId?: string): string {
  const params = new URLSearchParams();
  if (watch.length > 0) params.set('watch', watch.join(','));
  if (lastEventId) params.set('last', lastEventId);
  const query = params.toString();
  return query ? `/api/events?${query}` : '/api/events';
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
 * Listens to the company's change stream and patches or refreshes what a change touches, so a move on one tablet
 * shows on another within a second. The stream watches the warehouses on screen (`open` gets their ids and, when it
 * replaces a stream for that, the last event seen, so nothing is missed in between), so their changes come with the
 * data to patch them. The browser reconnects by itself after a drop and the server sends what was missed, or a reset
 * when that was too much; a stream the server ended with the session makes the app check its sign-in.
 * Answers a function that stops it all.
 */
export function startLiveUpdates(
  queryClient: QueryClient,
  open: (watch: readonly number[], lastEventId?: string) => LiveSource,
): () => void {
  let source: LiveSource | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let retryDelay = FIRST_RETRY_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending: LiveSignal[] = [];
  let watching: readonly number[] = [];
  let lastEventId: string | undefined;
  let rewatch: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
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
  const seen = (event: MessageEvent<string>) => {
    if (event.lastEventId) lastEventId = event.lastEventId;
  };

  // replacing: a stream opened anew after a refusal, which cannot know what happened while there was none;
  // resuming: a stream opened to watch other warehouses, which starts after the last event the old one brought
  const connect = (mode: 'first' | 'replacing' | 'resuming') => {
    watching = shownWarehouses(queryClient);
    const stream = open(watching, mode === 'resuming' ? lastEventId : undefined);
    source = stream;
    stream.addEventListener('change', (event) => {
      seen(event);
      schedule(readChange(event.data) ?? 'reset');
    });
    stream.addEventListener('reset', (event) => {
      seen(event);
      schedule('reset');
    });
    stream.addEventListener('ready', (event) => {
      seen(event);
      retryDelay = FIRST_RETRY_MS;
      if (mode !== 'first') schedule('reset');
    });
    // the stream's session ended: check the sign-in; the stream reconnects by itself with the browser's cookie,
    // which another tab's sign-in may have renewed, and catches up (a 401 closes it, and the app leaves)
    stream.addEventListener('signed-out', checkSignIn);
    stream.addEventListener('error', () => {
      if (stream.readyState !== CLOSED || stream !== source) return;
      // refused (database down, signed out, or too many tabs): check the sign-in, and try again later if it holds
      checkSignIn();
      retry = setTimeout(() => {
        retry = undefined;
        connect('replacing');
      }, retryDelay);
      retryDelay = Math.min(retryDelay * 2, LONGEST_RETRY_MS);
    });
  };
  connect('first');

  // another warehouse on screen: once the screens settle, a stream that watches what they show replaces this one
  const sameIds = (a: readonly number[], b: readonly number[]) =>
    a.length === b.length && a.every((id, i) => id === b[i]);
  const unsubscribe = queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== 'observerAdded' && event.type !== 'observerRemoved') return;
    if (event.query.queryKey[0] !== 'warehouse' || stopped) return;
    if (rewatch) clearTimeout(rewatch);
    rewatch = setTimeout(() => {
      rewatch = undefined;
      // a stream waiting to be tried again after a refusal will watch what is shown when it opens
      if (retry || sameIds(shownWarehouses(queryClient), watching)) return;
      source?.close();
      connect(lastEventId ? 'resuming' : 'replacing');
    }, WATCH_SETTLE_MS);
  });

  return () => {
    stopped = true;
    unsubscribe();
    if (timer) clearTimeout(timer);
    if (retry) clearTimeout(retry);
    if (rewatch) clearTimeout(rewatch);
    source?.close();
  };
}

/** Live updates while a user is signed in. */
export function useLiveUpdates(enabled: boolean) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    return startLiveUpdates(
      queryClient,
      (watch, lastEventId) => new EventSource(eventsUrl(watch, lastEventId)) as LiveSource,
    );
  }, [enabled, queryClient]);
}
