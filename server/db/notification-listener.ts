import pg from 'pg';

// a lost LISTEN connection is opened again after 100 ms, then 200, 400, 800 and at most every second
const RECONNECT_MIN_MS = 100;
const RECONNECT_MAX_MS = 1000;
const CONNECT_TIMEOUT_MS = 5000;

/** Where the listener reports a lost and re-established connection (the app's logger). */
export interface ListenerLogger {
  info(message: string): void;
  warn(message: string): void;
}

/** What a part of the server hears on a channel, and when the line is up or down. */
export interface ChannelHandlers {
  notified(payload: string): void;
  /** the connection listens (again): whatever was sent while it was down was not heard */
  connected(): void;
  lost(): void;
}

/**
 * PostgreSQL: the process's one LISTEN connection, shared by the parts that follow NOTIFY channels (the live feed,
 * the session cache). A database that goes away only pauses it: the connection is opened again with a back-off.
 */
export class NotificationListener {
  private readonly channels = new Map<string, ChannelHandlers>();
  private client: pg.Client | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private reconnectDelay = RECONNECT_MIN_MS;
  private listenedBefore = false;
  private started = false;
  private stopped = false;

  /**
   * @param target the URL to listen on, or where to find it now: with a PostgreSQL pair, the writable node's
   * (notifications are sent on the primary, and a standby cannot LISTEN); undefined while there is none
   */
  constructor(
    private readonly target: string | (() => Promise<string | undefined>),
    private readonly log?: ListenerLogger,
  ) {}

  /** Follows `channel` from the next connection on (call before `start`, or the channel waits for a reconnect). */
  listen(channel: string, handlers: ChannelHandlers): void {
    this.channels.set(channel, handlers);
  }

  /** Whether notifications are heard right now. */
  get listening(): boolean {
    return this.client !== undefined;
  }

  /** Opens the connection. Safe to call again; never throws (a database that is down is retried). */
  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    void this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  /**
   * Drops the connection and opens a new one (the writable node changed): a node that hangs would never say that
   * the connection is gone, so it is cut here, and the parts that follow a channel hear `lost`, then `connected`.
   */
  reconnect(): void {
    const client = this.client;
    if (!client) return;
    (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
  }

  private async connect() {
    if (this.stopped) return;
    const url = typeof this.target === 'string' ? this.target : await this.target().catch(() => undefined);
    if (this.stopped) return;
    if (url === undefined) {
      this.scheduleReconnect();
      return;
    }
    const client = new pg.Client({
      connectionString: url,
      keepAlive: true,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    let lost = false;
    const onLost = () => {
      if (lost) return;
      lost = true;
      if (this.client === client) {
        this.client = undefined;
        this.log?.warn('the LISTEN connection to PostgreSQL was lost; reconnecting');
        for (const handlers of this.channels.values()) handlers.lost();
      }
      void client.end().catch(() => undefined);
      this.scheduleReconnect();
    };
    client.on('notification', (message) =>
      this.channels.get(message.channel)?.notified(message.payload ?? ''),
    );
    // without a listener an 'error' event would end the process
    client.on('error', onLost);
    client.on('end', onLost);
    try {
      await client.connect();
      for (const channel of this.channels.keys()) await client.query(`listen ${channel}`);
    } catch {
      onLost();
      return;
    }
    if (lost) return;
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.reconnectDelay = RECONNECT_MIN_MS;
    if (this.listenedBefore) this.log?.info('listening for PostgreSQL notifications again');
    this.listenedBefore = true;
    for (const handlers of this.channels.values()) handlers.connected();
  }

  private scheduleReconnect() {
    if (this.stopped || this.reconnectTimer) return;
    const delay = this.reconnectDelay;
    this.reconnectDelay = Math.min(this.reconnectDelay * 2, RECONNECT_MAX_MS);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      void this.connect();
    }, delay);
    this.reconnectTimer.unref();
  }
}
