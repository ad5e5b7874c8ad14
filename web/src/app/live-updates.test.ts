import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FieldDto } from '@domain/schemas/warehouse.schema';
import {
  type CachedQuery,
  type LiveEvent,
  type LiveSignal,
  type LiveSource,
  WATCH_SETTLE_MS,
  eventsUrl,
  patchedData,
  readChange,
  refreshOf,
  refreshOfAll,
  refreshTouched,
  startLiveUpdates,
  touchesQuery,
  updateOf,
} from './live-updates';

// A browser's cache with one query of every kind the app keeps: warehouse 10 shows vault 1000 in field 100,
// warehouse 20 shows vault 2000 in field 200.
const warehouseData = (id: number, fieldId: number, vaultId: number) => ({
  id,
  name: `W${id}`,
  fields: { [fieldId]: { id: fieldId, warehouse_id: id, vaults: { [vaultId]: { id: vaultId } } } },
});
const CACHE: Record<string, CachedQuery> = {
  session: { queryKey: ['session'], data: { id: 1 } },
  companyList: { queryKey: ['warehouses', 1], data: [{ id: 10 }, { id: 20 }] },
  warehouse10: { queryKey: ['warehouse', 10], data: warehouseData(10, 100, 1000) },
  field100: { queryKey: ['warehouse', 10, 'field', 100], data: { id: 100, vaults: { 1000: { id: 1000 } } } },
  warehouse20: { queryKey: ['warehouse', 20], data: warehouseData(20, 200, 2000) },
  field200: { queryKey: ['warehouse', 20, 'field', 200], data: { id: 200, vaults: { 2000: { id: 2000 } } } },
  racks10: { queryKey: ['racks', 10], data: [] },
  racks20: { queryKey: ['racks', 20], data: [] },
  stage: { queryKey: ['stage'], data: {} },
  print: { queryKey: ['print', 'vaults'], data: [] },
  checklists: { queryKey: ['checklists'], data: [] },
  activeChecklist: { queryKey: ['checklists', 'active', 'w10'], data: null },
  checkList: { queryKey: ['checks'], data: [] },
  check7: { queryKey: ['checks', 7], data: { id: 7 } },
  contactSettings: { queryKey: ['contact', 'settings'], data: {} },
  contactMessages: { queryKey: ['contact', 'messages'], data: [] },
  requests: { queryKey: ['requests', 'list', 'all'], data: [] },
  customers: { queryKey: ['customers'], data: [] },
};
const ALL_BUT_SESSION = Object.keys(CACHE).filter((name) => name !== 'session');
const WAREHOUSE_LISTS = ['companyList', 'stage', 'print'];

const event = (
  kind: string,
  warehouseId: number | null,
  entityId: number | null = null,
  entityType = kind.split('.')[0]!,
): LiveEvent => ({ kind, entityType, entityId, warehouseId });

const touched = (signal: LiveSignal) =>
  Object.entries(CACHE)
    .filter(([, query]) => touchesQuery(signal, query))
    .map(([name]) => name)
    .sort();

// event -> the queries it makes stale; anything not listed must stay as it is (no request)
const TABLE: [string, LiveSignal, string[]][] = [
  [
    'checklist answered (signed-out floor staff)',
    event('checklist.answered', 10, 5),
    ['activeChecklist', 'checklists'],
  ],
  ['checklist added', event('checklist.added', 10, 5), ['activeChecklist', 'checklists']],
  ['checklist edited', event('checklist.edited', null, 5), ['activeChecklist', 'checklists']],
  [
    'vault added in warehouse 10',
    event('vault.added', 10, 1001),
    [...WAREHOUSE_LISTS, 'field100', 'warehouse10'],
  ],
  [
    'vault edited in warehouse 20',
    event('vault.edited', 20, 2000),
    [...WAREHOUSE_LISTS, 'field200', 'warehouse20'],
  ],
  [
    'vault moved from warehouse 10 to warehouse 20 (the event names the target only)',
    event('vault.moved', 20, 1000),
    [...WAREHOUSE_LISTS, 'field100', 'field200', 'warehouse10', 'warehouse20'],
  ],
  [
    'vault moved from field 100 of warehouse 10 to field 200 of warehouse 20 (the event names both)',
    { ...event('vault.moved', 20, 1000), fieldId: 200, fromFieldId: 100, fromWarehouseId: 10 },
    [...WAREHOUSE_LISTS, 'field100', 'field200', 'warehouse10', 'warehouse20'],
  ],
  [
    'vault moved between two other fields of warehouse 20 (the field queries of other fields stay)',
    { ...event('vault.moved', 20, 2001), fieldId: 201, fromFieldId: 202, fromWarehouseId: 20 },
    [...WAREHOUSE_LISTS, 'warehouse20'],
  ],
  [
    'vault staged off warehouse 10',
    event('vault.staged', 10, 1000),
    [...WAREHOUSE_LISTS, 'field100', 'warehouse10'],
  ],
  ['vault created straight into the stage', event('vault.staged', null, 3000), WAREHOUSE_LISTS],
  ['vault deleted from the stage', event('vault.deleted', null, 3000), WAREHOUSE_LISTS],
  [
    'attachment of a vault in warehouse 10',
    event('vault.attachment', 10, 1000),
    [...WAREHOUSE_LISTS, 'field100', 'warehouse10'],
  ],
  [
    'field marked full in warehouse 10',
    event('field.full', 10, 100),
    ['companyList', 'field100', 'print', 'warehouse10'],
  ],
  [
    'field type changed in warehouse 20',
    event('field.type', 20, 200),
    ['companyList', 'field200', 'print', 'warehouse20'],
  ],
  ['rack added in warehouse 10', event('rack.added', 10, 7), ['racks10']],
  ['rack moved in warehouse 20', event('rack.moved', 20, 7), ['racks20']],
  ['rack deleted in warehouse 10', event('rack.deleted', 10, 7), ['racks10']],
  ['pallet added in warehouse 10', event('pallet.added', 10, 8), ['racks10']],
  ['pallet edited in warehouse 20', event('pallet.edited', 20, 8), ['racks20']],
  ['pallet deleted, warehouse unknown', event('pallet.deleted', null, 8), ['racks10', 'racks20']],
  [
    'warehouse 10 grid changed',
    event('warehouse.grid-changed', 10, 10),
    [...WAREHOUSE_LISTS, 'activeChecklist', 'checklists', 'field100', 'racks10', 'warehouse10'],
  ],
  [
    'warehouse 20 dimensions edited',
    event('warehouse.dimensions-edited', 20, 20),
    [...WAREHOUSE_LISTS, 'activeChecklist', 'checklists', 'field200', 'racks20', 'warehouse20'],
  ],
  [
    'warehouse 10 field grid moved',
    event('warehouse.field-grid-moved', 10, 10),
    [...WAREHOUSE_LISTS, 'activeChecklist', 'checklists', 'field100', 'racks10', 'warehouse10'],
  ],
  [
    'warehouse added',
    event('warehouse.added', 30, 30),
    [...WAREHOUSE_LISTS, 'activeChecklist', 'checklists'],
  ],
  [
    'warehouse 20 deleted',
    event('warehouse.deleted', 20, 20),
    [...WAREHOUSE_LISTS, 'activeChecklist', 'checklists', 'field200', 'racks20', 'warehouse20'],
  ],
  [
    'a kind this client does not know',
    event('crane.moved', 10, 1, 'crane'),
    ALL_BUT_SESSION.filter((n) => !n.startsWith('contact')),
  ],
  // a warehouse check: only the check queries, however busy the warehouse pages are
  [
    'check vault scanned (another person on the same check)',
    event('check.scanned', null, 7),
    ['check7', 'checkList'],
  ],
  ['check finished in warehouse 10', event('check.finished', 10, 7), ['check7', 'checkList']],
  ['check discrepancy resolved', event('check.moved', null, 7), ['check7', 'checkList']],
  // a customer's request (issue 29): the requests and the pull lists, never the warehouse pages
  ['request scheduled', event('request.scheduled', null, 3), ['requests']],
  ['customer renamed', event('customer.changed', null, 4), ['customers']],
  ['reset (missed too much)', 'reset', ALL_BUT_SESSION],
];

describe('touchesQuery: which cached queries a live change makes stale', () => {
  it.each(TABLE)('%s', (_name, signal, expected) => {
    expect(touched(signal)).toEqual([...expected].sort());
  });

  it('touches the warehouse a vault left even before its data is cached, when the event names it', () => {
    const moved = { ...event('vault.moved', 20, 1000), fieldId: 200, fromFieldId: 100, fromWarehouseId: 10 };
    expect(touchesQuery(moved, { queryKey: ['warehouse', 10] })).toBe(true);
    expect(touchesQuery(moved, { queryKey: ['warehouse', 30] })).toBe(false);
  });

  it('never touches the session, not even on a reset', () => {
    for (const [, signal] of TABLE) expect(touchesQuery(signal, CACHE.session!)).toBe(false);
  });

  it('touches a warehouse query with no data yet only when the change names that warehouse', () => {
    const loading = { queryKey: ['warehouse', 10] };
    expect(touchesQuery(event('vault.added', 10, 1), loading)).toBe(true);
    expect(touchesQuery(event('vault.added', 20, 1), loading)).toBe(false);
    expect(touchesQuery(event('vault.added', null, null), loading)).toBe(true);
  });
});

describe('refreshTouched', () => {
  it('marks stale exactly the queries the changes touch, in a real query cache', async () => {
    const client = new QueryClient();
    for (const query of Object.values(CACHE)) client.setQueryData(query.queryKey, query.data);
    await refreshTouched(client, [event('checklist.answered', 10, 5), event('rack.moved', 20, 7)]);
    const stale = Object.entries(CACHE)
      .filter(([, query]) => client.getQueryState(query.queryKey)?.isInvalidated)
      .map(([name]) => name)
      .sort();
    expect(stale).toEqual(['activeChecklist', 'checklists', 'racks20']);
  });
});

describe('refreshOf: what a change does to a query on the screen shown', () => {
  const vaultMovedIn20 = event('vault.moved', 20, 2000);
  it('only marks the company list stale for a vault or field change while the screen does not show its counts', () => {
    for (const signal of [vaultMovedIn20, event('vault.staged', 20, 2000), event('field.edited', 20, 200)]) {
      expect(refreshOf(signal, CACHE.companyList!, '/warehouse/w10')).toBe('stale');
      expect(refreshOf(signal, CACHE.companyList!, '/stage')).toBe('stale');
      expect(refreshOf(signal, CACHE.companyList!, '/dashboard')).toBe('refetch');
      expect(refreshOf(signal, CACHE.companyList!, '/statistics/')).toBe('refetch');
    }
  });
  it('fetches the company list again wherever it is shown when a warehouse changes (names), or on a reset', () => {
    expect(refreshOf(event('warehouse.edited', 20, 20), CACHE.companyList!, '/warehouse/w10')).toBe(
      'refetch',
    );
    expect(refreshOf('reset', CACHE.companyList!, '/warehouse/w10')).toBe('refetch');
  });
  it('leaves untouched queries alone and fetches touched ones other than the list', () => {
    expect(refreshOf(vaultMovedIn20, CACHE.warehouse10!, '/warehouse/w10')).toBe('none');
    expect(refreshOf(vaultMovedIn20, CACHE.racks10!, '/warehouse/w10')).toBe('none');
    expect(refreshOf(vaultMovedIn20, CACHE.warehouse20!, '/warehouse/w10')).toBe('refetch');
    expect(refreshOf(vaultMovedIn20, CACHE.stage!, '/warehouse/w10')).toBe('refetch');
  });
  it('takes the strongest refresh of a batch', () => {
    const list = CACHE.companyList!;
    expect(refreshOfAll([event('rack.moved', 20, 7)], list, '/warehouse/w10')).toBe('none');
    expect(refreshOfAll([event('rack.moved', 20, 7), vaultMovedIn20], list, '/warehouse/w10')).toBe('stale');
    expect(refreshOfAll([vaultMovedIn20, event('warehouse.edited', 20, 20)], list, '/warehouse/w10')).toBe(
      'refetch',
    );
  });

  it('in a real query cache with the list on screen: no request on a warehouse page, one on the dashboard', async () => {
    const client = new QueryClient();
    let requests = 0;
    const observer = new QueryObserver(client, {
      queryKey: ['warehouses', 1],
      queryFn: () => {
        requests += 1;
        return [{ id: 10 }, { id: 20 }];
      },
      staleTime: 30_000,
    });
    const stop = observer.subscribe(() => undefined);
    await vi.waitFor(() => expect(observer.getCurrentResult().isSuccess).toBe(true));
    expect(requests).toBe(1);
    await refreshTouched(client, [vaultMovedIn20], '/warehouse/w10');
    expect(requests).toBe(1);
    expect(client.getQueryState(['warehouses', 1])?.isInvalidated).toBe(true);
    await refreshTouched(client, [vaultMovedIn20], '/dashboard');
    expect(requests).toBe(2);
    stop();
  });
});

/** A stand-in for the browser's EventSource: the test plays the server's frames. */
class FakeSource implements LiveSource {
  readyState = 1;
  closed = false;
  private readonly listeners = new Map<string, ((event: MessageEvent<string>) => void)[]>();
  addEventListener(name: string, listener: (event: MessageEvent<string>) => void) {
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), listener]);
  }
  close() {
    this.closed = true;
    this.readyState = 2;
  }
  emit(name: string, data: unknown = {}, lastEventId = '') {
    for (const listener of this.listeners.get(name) ?? [])
      listener({ data: JSON.stringify(data), lastEventId } as MessageEvent<string>);
  }
}

describe('startLiveUpdates', () => {
  let client: QueryClient;
  let sources: FakeSource[];
  let stop: () => void;
  const staleNames = () =>
    Object.entries(CACHE)
      .filter(([, query]) => client.getQueryState(query.queryKey)?.isInvalidated)
      .map(([name]) => name)
      .sort();
  const change = (e: LiveEvent) => ({ ...e, userId: 1, at: '2026-01-01T00:00:00.000Z' });

  beforeEach(() => {
    vi.useFakeTimers();
    client = new QueryClient();
    for (const query of Object.values(CACHE)) client.setQueryData(query.queryKey, query.data);
    sources = [];
    stop = startLiveUpdates(client, () => {
      const source = new FakeSource();
      sources.push(source);
      return source;
    });
  });
  afterEach(() => {
    stop();
    vi.useRealTimers();
  });

  it('gathers a burst of changes for 150 ms into one refresh of what they touch', async () => {
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    sources[0]!.emit('ready');
    sources[0]!.emit('change', change(event('checklist.answered', 10, 5)));
    sources[0]!.emit('change', change(event('rack.moved', 20, 7)));
    await vi.advanceTimersByTimeAsync(149);
    expect(invalidate).not.toHaveBeenCalled();
    sources[0]!.emit('change', change(event('pallet.added', 10, 8)));
    await vi.advanceTimersByTimeAsync(1);
    expect(invalidate).toHaveBeenCalledTimes(1);
    expect(staleNames()).toEqual(['activeChecklist', 'checklists', 'racks10', 'racks20']);
  });

  it('refreshes everything but the session on a reset, or on a change it cannot read', async () => {
    sources[0]!.emit('reset');
    await vi.advanceTimersByTimeAsync(150);
    expect(staleNames()).toEqual([...ALL_BUT_SESSION].sort());

    client = new QueryClient();
    stop();
    stop = startLiveUpdates(client, () => {
      const source = new FakeSource();
      sources.push(source);
      return source;
    });
    for (const query of Object.values(CACHE)) client.setQueryData(query.queryKey, query.data);
    sources.at(-1)!.emit('change', 'not an event');
    await vi.advanceTimersByTimeAsync(150);
    expect(staleNames()).toEqual([...ALL_BUT_SESSION].sort());
  });

  it('checks the sign-in when the session ended, and after a refusal tries new streams with a growing wait, refreshing everything once one opens', async () => {
    sources[0]!.emit('ready');
    await vi.advanceTimersByTimeAsync(150);
    expect(staleNames()).toEqual([]);

    sources[0]!.emit('signed-out');
    expect(client.getQueryState(['session'])?.isInvalidated).toBe(true);
    client.setQueryData(['session'], { id: 1 });

    // the browser gave up on the stream (a 503, 401 or 429): a new stream 1 s later, then 2 s, 4 s ... while refused
    sources[0]!.readyState = 2;
    sources[0]!.emit('error');
    expect(client.getQueryState(['session'])?.isInvalidated).toBe(true);
    client.setQueryData(['session'], { id: 1 });
    await vi.advanceTimersByTimeAsync(999);
    expect(sources).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sources).toHaveLength(2);
    sources[1]!.readyState = 2;
    sources[1]!.emit('error');
    client.setQueryData(['session'], { id: 1 });
    await vi.advanceTimersByTimeAsync(1_999);
    expect(sources).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(sources).toHaveLength(3);
    sources[2]!.emit('ready');
    await vi.advanceTimersByTimeAsync(150);
    expect(staleNames()).toEqual([...ALL_BUT_SESSION].sort());

    // a stream that opened resets the wait: the next refusal is retried after 1 s again
    sources[2]!.readyState = 2;
    sources[2]!.emit('error');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(sources).toHaveLength(4);
  });

  it('leaves a dropped stream to reconnect by itself, and stops cleanly', async () => {
    sources[0]!.readyState = 0;
    sources[0]!.emit('error');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sources).toHaveLength(1);
    stop();
    expect(sources[0]!.closed).toBe(true);
  });
});

// issue 11: the tablet showing the warehouse patches its copy from the frame (decision 023)
describe('patchedData: a change that brings its fields patches the copies it touches (cache + frame -> new cache)', () => {
  const vault = (id: number, fieldId: number, customer: string, order: string | null = null) => ({
    id,
    field_id: fieldId,
    customer_name: customer,
    order_name: order,
    type: 'vault',
  });
  // the parts of a field and its vaults the patching reads
  const field = (id: number, warehouseId: number, vaults: ReturnType<typeof vault>[], full = false) =>
    ({
      id,
      name: `F${id}`,
      type: 'vault',
      full,
      warehouse_id: warehouseId,
      vaults: Object.fromEntries(vaults.map((v) => [v.id, v])),
    }) as unknown as FieldDto;
  const stats = (vaultCount: number, realVaultCount: number, emptyVaultCount = 0) => ({
    vaultCount,
    realVaultCount,
    emptyVaultCount,
    emptyCouchboxCount: 0,
  });
  // warehouse 10: field 100 holds vaults 1000 (ACME, order O-1) and 1001 (BETA); field 101 is empty
  const f100 = field(100, 10, [vault(1000, 100, 'ACME', 'O-1'), vault(1001, 100, 'BETA')]);
  const f101 = field(101, 10, []);
  const w10 = {
    id: 10,
    version: 3,
    fields: { 100: f100, 101: f101 },
    stats: stats(2, 2),
    customers: ['ACME', 'BETA'],
    orders: ['O-1'],
  };
  const f101Acme = field(101, 10, [vault(1002, 101, 'ACME')]);
  const f200 = field(200, 20, []);
  const w20 = { id: 20, version: 1, fields: { 200: f200 }, stats: stats(0, 0), customers: [], orders: [] };
  const QUERIES: Record<string, CachedQuery> = {
    warehouse10: { queryKey: ['warehouse', 10], data: w10 },
    field100: { queryKey: ['warehouse', 10, 'field', 100], data: f100 },
    warehouse10WithAcmeIn101: {
      queryKey: ['warehouse', 10],
      data: { ...w10, fields: { 100: f100, 101: f101Acme }, stats: stats(3, 3) },
    },
    field101: { queryKey: ['warehouse', 10, 'field', 101], data: f101 },
    warehouse20: { queryKey: ['warehouse', 20], data: w20 },
    companyList: { queryKey: ['warehouses', 1], data: [{ id: 10 }, { id: 20 }] },
    stage: { queryKey: ['stage'], data: {} },
  };
  const change = (e: Partial<LiveEvent> & Pick<LiveEvent, 'kind'>): LiveEvent => ({
    entityType: e.kind.split('.')[0]!,
    entityId: null,
    warehouseId: null,
    ...e,
  });
  // vault 1000 staged from field 100, and the same moved to field 200 of warehouse 20 instead
  const f100Without1000 = field(100, 10, [vault(1001, 100, 'BETA')]);
  const staged = change({ kind: 'vault.staged', entityId: 1000, warehouseId: 10, fromFieldId: 100 });
  const f200With1000 = field(200, 20, [vault(1000, 200, 'ACME', 'O-1')]);
  const moved = change({
    kind: 'vault.moved',
    entityId: 1000,
    warehouseId: 20,
    fieldId: 200,
    fromFieldId: 100,
    fromWarehouseId: 10,
  });
  const f101Full = field(101, 10, [], true);

  // [what, change, query, the patched data, or undefined: fetched again]
  const TABLE: [string, LiveSignal, string, unknown][] = [
    [
      'staged: the warehouse gets the field, its counts and names made again',
      { ...staged, fields: [f100Without1000] },
      'warehouse10',
      {
        ...w10,
        fields: { 100: f100Without1000, 101: f101 },
        stats: stats(1, 1),
        customers: ['BETA'],
        orders: [],
      },
    ],
    [
      'staged: the field query gets the field',
      { ...staged, fields: [f100Without1000] },
      'field100',
      f100Without1000,
    ],
    [
      'staged: another field of the warehouse stays as it is',
      { ...staged, fields: [f100Without1000] },
      'field101',
      f101,
    ],
    [
      'staged, its customer still on a vault elsewhere in the warehouse: the name stays',
      { ...staged, fields: [f100Without1000] },
      'warehouse10WithAcmeIn101',
      {
        ...w10,
        fields: { 100: f100Without1000, 101: f101Acme },
        stats: stats(2, 2),
        customers: ['ACME', 'BETA'],
        orders: [],
      },
    ],
    ['staged without fields (the stream does not watch): fetched', staged, 'warehouse10', undefined],
    [
      'staged, the field it left not brought: fetched',
      { ...staged, fields: [f101] },
      'warehouse10',
      undefined,
    ],
    [
      'moved between warehouses: the one it left loses it',
      { ...moved, fields: [f200With1000, f100Without1000] },
      'warehouse10',
      {
        ...w10,
        fields: { 100: f100Without1000, 101: f101 },
        stats: stats(1, 1),
        customers: ['BETA'],
        orders: [],
      },
    ],
    [
      'moved between warehouses: the one it went to gains it',
      { ...moved, fields: [f200With1000, f100Without1000] },
      'warehouse20',
      { ...w20, fields: { 200: f200With1000 }, stats: stats(1, 1), customers: ['ACME'], orders: ['O-1'] },
    ],
    [
      'a field the copy does not know (the layout changed): fetched',
      { ...moved, fields: [field(299, 20, []), f100Without1000], fieldId: 299 },
      'warehouse20',
      undefined,
    ],
    [
      'the copy shows the vault in a field the change does not bring: fetched',
      { ...change({ kind: 'vault.edited', entityId: 1000, warehouseId: 10, fieldId: 101 }), fields: [f101] },
      'warehouse10',
      undefined,
    ],
    [
      'a field marked full',
      { ...change({ kind: 'field.full', entityId: 101, warehouseId: 10 }), fields: [f101Full] },
      'warehouse10',
      { ...w10, fields: { 100: f100, 101: f101Full } },
    ],
    [
      'a field marked full, its own query',
      { ...change({ kind: 'field.full', entityId: 101, warehouseId: 10 }), fields: [f101Full] },
      'field101',
      f101Full,
    ],
    ['a reset: fetched', 'reset', 'warehouse10', undefined],
    ['the company list is never patched', { ...staged, fields: [f100Without1000] }, 'companyList', undefined],
    ['the stage is never patched', { ...staged, fields: [f100Without1000] }, 'stage', undefined],
    [
      'a rack change with fields is not a vault change: fetched',
      { ...change({ kind: 'rack.moved', entityId: 1, warehouseId: 10 }), fields: [f101] },
      'warehouse10',
      undefined,
    ],
  ];

  it.each(TABLE)('%s', (_what, signal, name, expected) => {
    const before = structuredClone(QUERIES[name]!.data);
    expect(patchedData(signal, QUERIES[name]!)).toEqual(expected);
    expect(QUERIES[name]!.data).toEqual(before);
  });

  it('updateOf: patches what it can, refetches what it cannot, and a refetch wins over patches in a batch', () => {
    const bringing = { ...staged, fields: [f100Without1000] };
    const screen = '/warehouse/w10';
    expect(updateOf([bringing], QUERIES.warehouse10!, screen)).toEqual({
      refresh: 'none',
      data: patchedData(bringing, QUERIES.warehouse10!),
    });
    expect(updateOf([bringing], QUERIES.companyList!, screen)).toEqual({ refresh: 'stale' });
    expect(updateOf([bringing], QUERIES.stage!, screen)).toEqual({ refresh: 'refetch' });
    expect(updateOf([bringing, staged], QUERIES.warehouse10!, screen)).toEqual({ refresh: 'refetch' });
    // two changes of one batch are put in one after the other
    const fullToo = { ...change({ kind: 'field.full', entityId: 101, warehouseId: 10 }), fields: [f101Full] };
    expect(updateOf([bringing, fullToo], QUERIES.warehouse10!, screen).data).toMatchObject({
      fields: { 100: f100Without1000, 101: f101Full },
    });
    expect(updateOf([event('rack.moved', 10, 7)], QUERIES.warehouse10!, screen)).toEqual({ refresh: 'none' });
  });

  it('in a real query cache: the warehouse on screen is patched with no request', async () => {
    const client = new QueryClient();
    let requests = 0;
    const observer = new QueryObserver(client, {
      queryKey: ['warehouse', 10],
      queryFn: () => {
        requests += 1;
        return structuredClone(w10);
      },
    });
    const stop = observer.subscribe(() => undefined);
    await vi.waitFor(() => expect(observer.getCurrentResult().isSuccess).toBe(true));
    await refreshTouched(client, [{ ...staged, fields: [f100Without1000] }], '/warehouse/w10');
    expect(requests).toBe(1);
    expect(client.getQueryData(['warehouse', 10])).toMatchObject({ fields: { 100: f100Without1000 } });
    expect(client.getQueryState(['warehouse', 10])?.isInvalidated).toBe(false);
    // a change without its fields is fetched again
    await refreshTouched(client, [staged], '/warehouse/w10');
    expect(requests).toBe(2);
    stop();
  });

  it('reads the fields of a frame, and drops them when they are not fields', () => {
    const frame = { ...staged, userId: 1, at: '2026-01-01T00:00:00.000Z' };
    expect(readChange(JSON.stringify({ ...frame, fields: [f100Without1000] }))?.fields).toEqual([
      f100Without1000,
    ]);
    expect(readChange(JSON.stringify({ ...frame, fields: [{ id: 'x' }] }))).not.toHaveProperty('fields');
    expect(readChange(JSON.stringify({ ...frame, fields: 'no' }))).not.toHaveProperty('fields');
  });
});

describe('the stream watches the warehouses on screen', () => {
  it('builds the address of the stream', () => {
    expect(eventsUrl([])).toBe('/api/events');
    expect(eventsUrl([3, 10])).toBe('/api/events?watch=3%2C10');
    expect(eventsUrl([3], 'tok-en')).toBe('/api/events?watch=3&last=tok-en');
  });

  it('opens a stream that watches a warehouse once a screen shows it, starting after the last event seen', async () => {
    vi.useFakeTimers();
    try {
      const client = new QueryClient();
      const opened: { watch: readonly number[]; last?: string; source: FakeSource }[] = [];
      const stop = startLiveUpdates(client, (watch, last) => {
        const source = new FakeSource();
        opened.push({ watch, last, source });
        return source;
      });
      expect(opened.map((o) => o.watch)).toEqual([[]]);
      opened[0]!.source.emit('ready', {}, 'token-1');
      const observer = new QueryObserver(client, { queryKey: ['warehouse', 10], queryFn: () => w10Copy() });
      const unobserve = observer.subscribe(() => undefined);
      await vi.advanceTimersByTimeAsync(WATCH_SETTLE_MS);
      expect(opened.map((o) => [o.watch, o.last])).toEqual([
        [[], undefined],
        [[10], 'token-1'],
      ]);
      expect(opened[0]!.source.closed).toBe(true);
      // a screen that shows no warehouse: a stream that watches none
      opened[1]!.source.emit(
        'change',
        { kind: 'rack.moved', entityType: 'rack', entityId: 1, warehouseId: 10 },
        'token-2',
      );
      unobserve();
      await vi.advanceTimersByTimeAsync(WATCH_SETTLE_MS);
      expect(opened.map((o) => [o.watch, o.last])).toEqual([
        [[], undefined],
        [[10], 'token-1'],
        [[], 'token-2'],
      ]);
      stop();
    } finally {
      vi.useRealTimers();
    }
  });
});

const w10Copy = () => ({ id: 10, fields: {} });
