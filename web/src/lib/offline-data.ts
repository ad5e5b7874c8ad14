import type { Query, QueryCacheNotifyEvent, QueryClient, QueryKey } from '@tanstack/react-query';
import { openDB } from 'idb';
import { ConnectionError } from './api-client';

/**
 * The last data a tablet saw (issue 30, decision 050): the answers of the floor's reads are kept on the tablet, and
 * when a read cannot reach the server (the browser is offline, or the request got no answer) the kept answer is shown
 * instead, read-only, with its age. Only these reads are kept: the session (so the app opens signed in), the
 * warehouses and a warehouse with its fields, the stage, the checks and the pull lists.
 */
export const KEPT_QUERIES: ReadonlySet<string> = new Set([
  'session',
  'warehouses',
  'warehouse',
  'stage',
  'checks',
  'pull-lists',
]);

export interface KeptAnswer {
  /** the query key as JSON: the row's key */
  id: string;
  queryKey: QueryKey;
  data: unknown;
  /** when the server gave this answer (ms since the epoch) */
  updatedAt: number;
  /** the company whose member read it: another company's member on the same tablet never sees it */
  companyId: number | null;
}

export interface KeptStore {
  all(): Promise<KeptAnswer[]>;
  put(row: KeptAnswer): Promise<void>;
  clear(): Promise<void>;
}

const keep = (queryKey: QueryKey) => typeof queryKey[0] === 'string' && KEPT_QUERIES.has(queryKey[0]);
const idOf = (queryKey: QueryKey) => JSON.stringify(queryKey);
const SESSION_ID = idOf(['session']);

function companyOf(client: QueryClient): number | null {
  const session = client.getQueryData<{ companyId?: number } | null>(['session']);
  return session?.companyId ?? null;
}

/** A read that could not reach the server: paused by the browser being offline, or failed without an answer. */
function unreachable(query: Query): boolean {
  return (
    query.state.fetchStatus === 'paused' ||
    (query.state.status === 'error' && query.state.error instanceof ConnectionError)
  );
}

/** Marks kept answers in the cache: `isKept(query)` tells a screen that it shows the tablet's copy. */
const restored = new WeakSet<Query>();

export class LastData {
  private rows = new Map<string, KeptAnswer>();
  private loaded: Promise<void> | undefined;
  private pending = new Map<string, KeptAnswer>();
  private flushing: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly store: KeptStore,
    /** how long writes are gathered before they are stored (a warehouse page reads several things at once) */
    private readonly writeDelayMs = 50,
  ) {}

  load(): Promise<void> {
    this.loaded ??= this.store.all().then(
      (rows) => {
        for (const row of rows) if (!this.rows.has(row.id)) this.rows.set(row.id, row);
      },
      () => undefined,
    );
    return this.loaded;
  }

  /**
   * The kept answers of one read (`warehouse`: every warehouse with its fields this tablet opened) of a company, for
   * work the tablet does on its own meanwhile (a receiving proposal). Waits for the store to be read.
   */
  async kept(name: string, companyId: number): Promise<KeptAnswer[]> {
    await this.load();
    return [...this.rows.values()].filter((row) => row.queryKey[0] === name && row.companyId === companyId);
  }

  /** The kept answer of a key, if any. */
  get(queryKey: QueryKey): KeptAnswer | undefined {
    return this.rows.get(idOf(queryKey));
  }

  /**
   * Watches `client`'s cache: each answer of a kept read is stored; a kept read that cannot reach the server and has
   * no data gets the stored answer, with the time the server gave it, marked stale, so it is read again once the
   * server answers.
   */
  attach(client: QueryClient): () => void {
    const cache = client.getQueryCache();
    const fill = (query: Query) => {
      if (query.state.data !== undefined || !keep(query.queryKey) || !unreachable(query)) return;
      const row = this.rows.get(idOf(query.queryKey));
      if (!row) return;
      // the session is the one answer kept across companies; everything else only for the same company
      if (row.id !== SESSION_ID && row.companyId !== companyOf(client)) return;
      restored.add(query);
      query.setData(row.data, { updatedAt: row.updatedAt, manual: true });
      query.invalidate();
    };
    const unsubscribe = cache.subscribe((event: QueryCacheNotifyEvent) => {
      const query = event.query as Query;
      if (!keep(query.queryKey)) return;
      if (event.type === 'updated' && event.action.type === 'success') {
        if (restored.has(query) && query.state.dataUpdatedAt === this.get(query.queryKey)?.updatedAt) return;
        restored.delete(query);
        this.remember(client, query);
        return;
      }
      // a read again of data already shown that fails for the network keeps showing it (with its age), not an error
      if (
        event.type === 'updated' &&
        event.action.type === 'error' &&
        event.action.error instanceof ConnectionError &&
        query.state.data !== undefined
      ) {
        query.setState({ ...query.state, status: 'success', error: null, fetchStatus: 'idle' });
        return;
      }
      if (event.type === 'added' || event.type === 'updated') fill(query);
    });
    // a page left (a reload, a closed tab) stores what waits first
    if (typeof window !== 'undefined') window.addEventListener('pagehide', () => void this.flush());
    // reads that started before the store was read
    void this.load().then(() => {
      for (const query of cache.getAll()) fill(query as Query);
    });
    return unsubscribe;
  }

  private remember(client: QueryClient, query: Query) {
    const row: KeptAnswer = {
      id: idOf(query.queryKey),
      queryKey: query.queryKey,
      data: query.state.data,
      updatedAt: query.state.dataUpdatedAt,
      companyId: companyOf(client),
    };
    this.rows.set(row.id, row);
    this.pending.set(row.id, row);
    this.flushing ??= setTimeout(() => void this.flush(), this.writeDelayMs);
  }

  /** Stores what waits to be stored now. */
  async flush(): Promise<void> {
    clearTimeout(this.flushing);
    this.flushing = undefined;
    const rows = [...this.pending.values()];
    this.pending.clear();
    for (const row of rows) {
      try {
        await this.store.put(row);
      } catch {
        // a full or closed store: the copy in memory still serves this visit
      }
    }
  }

  /** Forgets everything (signing out): the next member of this tablet sees nothing of it. */
  async forget(): Promise<void> {
    clearTimeout(this.flushing);
    this.flushing = undefined;
    this.pending.clear();
    this.rows.clear();
    await this.store.clear().catch(() => undefined);
  }
}

/** Whether a query shows the tablet's kept copy rather than the server's answer of this visit. */
export function isKept(query: Query): boolean {
  return restored.has(query);
}

/** A store in memory: the unit tests, and browsers without IndexedDB. */
export function memoryKeptStore(): KeptStore & { rows: Map<string, KeptAnswer> } {
  const rows = new Map<string, KeptAnswer>();
  return {
    rows,
    all: async () => [...rows.values()],
    put: async (row) => {
      rows.set(row.id, structuredClone(row));
    },
    clear: async () => rows.clear(),
  };
}

/** IndexedDB: outlives a reload, a closed tab and a restarted tablet. */
function indexedDbKeptStore(): KeptStore {
  const opened = openDB('wm-last-data', 1, {
    upgrade(db) {
      db.createObjectStore('answers', { keyPath: 'id' });
    },
  });
  return {
    all: async () => (await (await opened).getAll('answers')) as KeptAnswer[],
    put: async (row) => {
      await (await opened).put('answers', row);
    },
    clear: async () => {
      await (await opened).clear('answers');
    },
  };
}

/** This tablet's kept data. */
export const lastData = new LastData(
  typeof indexedDB === 'undefined' ? memoryKeptStore() : indexedDbKeptStore(),
);
