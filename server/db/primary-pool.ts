import pg from 'pg';
import {
  chooseReadNode,
  chooseWritable,
  describeHost,
  type HostProbe,
  type PostgresHostList,
  probeState,
} from './postgres-hosts';

/** How long asking a host whether it is writable may take before it counts as unreachable. */
const PROBE_TIMEOUT_MS = 1500;
/** How often the node written to is asked whether it still is the writable one. */
const HEARTBEAT_MS = 1000;
/**
 * While no node takes writes, the hosts are asked again at most this often. Requests meanwhile are answered 503 at
 * once instead of each waiting for (and starting) a search of its own: every search opens a connection to each host,
 * and waits the whole PROBE_TIMEOUT_MS for a host that hangs.
 */
const SEARCH_GAP_MS = 250;
/**
 * Longest a request waits for one of the pool's connections to the writable node before it is answered 503 (the
 * usual "database not reachable" message). Without it, a pool kept full by a node that has just taken over (cold,
 * opening its connections, on a busy machine) queued requests past any client's patience: a write must be taken or
 * refused within seconds. The connection the request waited for still goes to the pool when it comes.
 */
const ACQUIRE_WAIT_MS = 2500;
/**
 * How long a search still waits for hosts that have not answered once another host said it takes writes: a frozen
 * machine (its kernel accepts the connection, nothing answers) would otherwise hold every search for PROBE_TIMEOUT_MS.
 * A node that runs again after it was replaced answers at once, so two writable nodes are still seen as two.
 */
const WRITABLE_GRACE_MS = 500;
/**
 * While a search waits for a silent host and no host takes writes yet, the hosts that answered "not writable" (a
 * standby being promoted, a fenced primary) are asked again this often: the search ends with what they say now.
 */
const REASK_MS = 250;

/** What asks a host whether it is the writable node: a standby is in recovery, a fenced primary is read-only. */
const PROBE_SQL =
  "select pg_is_in_recovery() as standby, current_setting('transaction_read_only') as read_only";

interface ProbeRow {
  standby: boolean;
  read_only: string;
}

/** The error a request meets while no node takes writes: it reads as "the database is unreachable" (503). */
export class NoWritableNodeError extends Error {
  readonly code = '08001';
  constructor() {
    super('no writable PostgreSQL node right now (a failover may be under way)');
  }
}

/** No connection to the writable node came free within ACQUIRE_WAIT_MS: answered 503 like an unreachable node. */
export class ConnectionWaitError extends Error {
  readonly code = '08001';
  constructor(waitedMs: number) {
    super(`no connection to the writable PostgreSQL node came free within ${waitedMs} ms`);
  }
}

/** Asks one host whether it takes writes, within PROBE_TIMEOUT_MS. */
async function probe(url: string): Promise<HostProbe> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: PROBE_TIMEOUT_MS });
  client.on('error', () => undefined);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), PROBE_TIMEOUT_MS);
  });
  try {
    const answer = await Promise.race([
      (async () => {
        await client.connect();
        return client.query<ProbeRow>(PROBE_SQL);
      })(),
      timeout,
    ]);
    const row = answer === 'timeout' ? undefined : answer.rows[0];
    if (!row) return { state: 'unreachable' };
    return { state: probeState(row.standby, row.read_only) };
  } catch {
    return { state: 'unreachable' };
  } finally {
    clearTimeout(timer);
    // a host that hangs would hang a polite end(): the socket is dropped instead
    destroyClient(client);
  }
}

/**
 * Asks every host. Waits until each has answered or timed out, except that once a host says it takes writes, the
 * silent ones get WRITABLE_GRACE_MS more and then count as unreachable; meanwhile, the hosts that answered "not
 * writable" are asked again, so that a node opened for writes during the search is seen by it.
 */
async function probeHosts(urls: readonly string[]): Promise<HostProbe[]> {
  const answers: Array<HostProbe | undefined> = urls.map(() => undefined);
  let writableSince: number | undefined;
  const note = (index: number, answer: HostProbe) => {
    answers[index] = answer;
    if (answer.state === 'writable') writableSince ??= Date.now();
  };
  let settled = false;
  const everyHost = Promise.all(
    urls.map((url, index) => probe(url).then((answer) => note(index, answer))),
  ).then(() => {
    settled = true;
  });
  while (!settled) {
    const pause =
      writableSince === undefined ? REASK_MS : Math.max(0, writableSince + WRITABLE_GRACE_MS - Date.now());
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      everyHost,
      new Promise((resolve) => {
        timer = setTimeout(resolve, pause);
      }),
    ]);
    clearTimeout(timer);
    if (settled) break;
    if (writableSince !== undefined) {
      if (Date.now() - writableSince >= WRITABLE_GRACE_MS) break;
      continue;
    }
    await Promise.all(
      urls.map(async (url, index) => {
        const state = answers[index]?.state;
        if (state === 'read-only' || state === 'fenced') note(index, await probe(url));
      }),
    );
  }
  return answers.map((answer) => answer ?? { state: 'unreachable' });
}

/** Closes a client's socket at once, failing whatever runs on it (a hung node never answers a polite goodbye). */
function destroyClient(client: pg.Client | pg.PoolClient): void {
  const stream = (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream;
  stream?.destroy();
}

interface HostPool {
  index: number;
  pool: pg.Pool;
  clients: Set<pg.PoolClient>;
  /** settles when the node is given up: a connection still being opened to it is not waited for */
  retired: Promise<'retired'>;
  retire(): void;
}

/**
 * Kysely's pool for a PostgreSQL pair or more (decision 034): connections go to the one writable node. It asks each
 * host which one that is, keeps asking the chosen node every second, and when the node fails or stops being the
 * primary (a failover), drops every connection to it and looks again. While no node is writable, taking a
 * connection fails at once with an error the app answers 503.
 */
export class PrimaryPool {
  private current: HostPool | undefined;
  private locating: Promise<HostPool | undefined> | undefined;
  /** when the last search ended (ms), undefined before the first */
  private searchedAt: number | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private heartbeatClient: pg.Client | undefined;
  private closed = false;
  private readonly switchListeners: Array<() => void> = [];

  /**
   * @param role `primary`: the writable node only; `standby`: a standby for reads that may lag behind (statistics,
   * exports), or the primary while there is no standby
   */
  constructor(
    private readonly hosts: PostgresHostList,
    private readonly makePool: (url: string) => pg.Pool,
    private readonly role: 'primary' | 'standby' = 'primary',
  ) {
    this.scheduleHeartbeat();
  }

  /** `db1:5432`, the node written to now, or undefined while there is none */
  get writableNode(): string | undefined {
    return this.current ? describeHost(this.hosts.hosts[this.current.index]!) : undefined;
  }

  /** The URL of the writable node, found first when there is none yet; undefined when no node is writable. */
  async primaryUrl(): Promise<string | undefined> {
    const chosen = this.current ?? (await this.locate());
    return chosen ? this.hosts.urlFor(this.hosts.hosts[chosen.index]!) : undefined;
  }

  /** Calls `listener` whenever the writable node is given up (it failed, or another node took over). */
  onSwitch(listener: () => void): void {
    this.switchListeners.push(listener);
  }

  async connect(): Promise<pg.PoolClient> {
    if (this.closed) throw new Error('the database pool is closed');
    const chosen = this.current ?? (await this.searchWhileNone());
    if (!chosen) throw new NoWritableNodeError();
    const connecting = chosen.pool.connect();
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<'waited'>((resolve) => {
      timer = setTimeout(() => resolve('waited'), ACQUIRE_WAIT_MS);
    });
    const first = await Promise.race([connecting, chosen.retired, waited]).finally(() => clearTimeout(timer));
    if (typeof first !== 'string') return first;
    if (first === 'waited') {
      // the request gives up; the connection it waited for serves the next one when it comes
      connecting.then((client) => client.release()).catch(() => undefined);
      throw new ConnectionWaitError(ACQUIRE_WAIT_MS);
    }
    // the node was given up while the connection was being opened (it hangs): fail now, drop it if it ever comes
    connecting.then((client) => client.release(true)).catch(() => undefined);
    throw new NoWritableNodeError();
  }

  /**
   * The node to use when none is chosen: the first request of the process waits for the first search; after that,
   * while no node takes writes, a request starts a search (at most every SEARCH_GAP_MS, one at a time) and is
   * answered at once, so that nothing queues up behind a failover.
   */
  private async searchWhileNone(): Promise<HostPool | undefined> {
    if (this.searchedAt === undefined) return this.locate();
    if (!this.locating && Date.now() - this.searchedAt >= SEARCH_GAP_MS) void this.locate();
    return undefined;
  }

  async end(): Promise<void> {
    this.closed = true;
    clearTimeout(this.heartbeatTimer);
    if (this.heartbeatClient) destroyClient(this.heartbeatClient);
    const current = this.current;
    this.current = undefined;
    await current?.pool.end();
  }

  /** Asks every host, and writes to the one writable node from now on (one search at a time). */
  private locate(): Promise<HostPool | undefined> {
    this.locating ??= (async () => {
      try {
        const probes = await probeHosts(this.hosts.hosts.map((host) => this.hosts.urlFor(host)));
        const chosen =
          this.role === 'primary'
            ? chooseWritable(probes, this.current?.index)
            : chooseReadNode(probes, this.current?.index);
        if (this.closed) return undefined;
        if (chosen === this.current?.index) return this.current;
        this.retire();
        if (chosen === undefined) return undefined;
        const pool = this.makePool(this.hosts.urlFor(this.hosts.hosts[chosen]!));
        let retire = () => undefined as void;
        const retired = new Promise<'retired'>((resolve) => {
          retire = () => resolve('retired');
        });
        const entry: HostPool = { index: chosen, pool, clients: new Set(), retired, retire };
        pool.on('connect', (client) => {
          entry.clients.add(client);
          client.on('end', () => entry.clients.delete(client));
          // a connection that breaks may mean the node is gone: ask now rather than at the next heartbeat
          client.on('error', () => this.suspect());
        });
        this.current = entry;
        return entry;
      } finally {
        this.locating = undefined;
        this.searchedAt = Date.now();
      }
    })();
    return this.locating;
  }

  /** Gives up the node written to so far: its connections are cut, so nothing waits on a node that hangs. */
  private retire(): void {
    const old = this.current;
    if (!old) return;
    this.current = undefined;
    old.retire();
    for (const client of old.clients) destroyClient(client);
    void old.pool.end().catch(() => undefined);
    if (this.heartbeatClient) destroyClient(this.heartbeatClient);
    this.heartbeatClient = undefined;
    for (const listener of this.switchListeners) listener();
  }

  private suspect(): void {
    if (!this.closed) void this.locate();
  }

  private scheduleHeartbeat(): void {
    if (this.closed) return;
    this.heartbeatTimer = setTimeout(() => {
      void this.heartbeat().finally(() => this.scheduleHeartbeat());
    }, HEARTBEAT_MS);
    this.heartbeatTimer.unref();
  }

  /** Is the node written to still there and still the primary? If not, or if there is none, look for it. */
  private async heartbeat(): Promise<void> {
    const current = this.current;
    if (!current) {
      await this.locate();
      return;
    }
    let healthy = false;
    let answered = false;
    try {
      if (!this.heartbeatClient) {
        const client = new pg.Client({
          connectionString: this.hosts.urlFor(this.hosts.hosts[current.index]!),
          connectionTimeoutMillis: PROBE_TIMEOUT_MS,
          keepAlive: true,
        });
        client.on('error', () => {
          if (this.heartbeatClient === client) this.heartbeatClient = undefined;
        });
        this.heartbeatClient = client;
        await client.connect();
      }
      const client = this.heartbeatClient;
      let timer: NodeJS.Timeout | undefined;
      const answer = await Promise.race([
        client.query<ProbeRow>(PROBE_SQL),
        new Promise<'timeout'>((resolve) => {
          timer = setTimeout(() => resolve('timeout'), PROBE_TIMEOUT_MS);
        }),
      ]).finally(() => clearTimeout(timer));
      const row = answer === 'timeout' ? undefined : answer.rows[0];
      answered = row !== undefined;
      // the primary pool wants the writable node (not a fenced one: pg_auto_failover is handing writes over); the
      // standby pool a standby, and while it reads the primary for want of one, it looks every second for a standby
      // that is back (chooseReadNode)
      healthy =
        row !== undefined &&
        probeState(row.standby, row.read_only) === (this.role === 'standby' ? 'read-only' : 'writable');
    } catch {
      healthy = false;
      answered = false;
    }
    if (healthy || this.current !== current) return;
    if (!answered) {
      // the node failed or hangs: its heartbeat connection goes with it
      if (this.heartbeatClient) destroyClient(this.heartbeatClient);
      this.heartbeatClient = undefined;
    }
    await this.locate();
  }
}
