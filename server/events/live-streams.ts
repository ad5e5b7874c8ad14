/** One open `GET /api/events` response, as the registry sees it. */
export interface OpenStream {
  readonly sessionId: string;
  readonly userId: number;
  /** a comment line that keeps proxies from closing an idle connection */
  keepAlive(): void;
  /** ends the response; 'signed-out' first tells the browser its sign-in is over */
  end(reason: 'signed-out' | 'closing'): void;
}

export type LiveSessionCheck = (sessionIds: readonly string[]) => Promise<Set<string>>;

/** At most this many streams per session and process: a tab holds one, so five is several tabs and a reload. */
export const MAX_STREAMS_PER_SESSION = 5;
const CHECK_BATCH = 500;

const registries = new Set<LiveStreamRegistry>();

/**
 * The open event streams of this process, by session. A stream lives only as long as its session: the logout handler
 * ends the session's streams at once, and a heartbeat checks every session in one query per batch, which bounds how
 * long a stream outlives a session ended in another process (or deleted by a password reset).
 */
export class LiveStreamRegistry {
  private readonly bySession = new Map<string, Set<OpenStream>>();
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<void> | undefined;

  constructor(
    private readonly liveSessions: LiveSessionCheck,
    private readonly heartbeatMs: number,
  ) {}

  start() {
    registries.add(this);
    this.timer = setInterval(() => void this.heartbeat(), this.heartbeatMs);
    this.timer.unref();
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    registries.delete(this);
    for (const set of this.bySession.values()) for (const stream of set) stream.end('closing');
    this.bySession.clear();
  }

  /** Adds the stream, or answers false when its session already has the most streams allowed. */
  add(stream: OpenStream): boolean {
    let set = this.bySession.get(stream.sessionId);
    if (!set) this.bySession.set(stream.sessionId, (set = new Set()));
    if (set.size >= MAX_STREAMS_PER_SESSION) return false;
    set.add(stream);
    return true;
  }

  remove(stream: OpenStream) {
    const set = this.bySession.get(stream.sessionId);
    if (!set) return;
    set.delete(stream);
    if (set.size === 0) this.bySession.delete(stream.sessionId);
  }

  get size(): number {
    let n = 0;
    for (const set of this.bySession.values()) n += set.size;
    return n;
  }

  endSession(sessionId: string) {
    const set = this.bySession.get(sessionId);
    if (!set) return;
    this.bySession.delete(sessionId);
    for (const stream of set) stream.end('signed-out');
  }

  endUser(userId: number) {
    for (const [sessionId, set] of this.bySession) {
      const first = set.values().next().value;
      if (first?.userId === userId) this.endSession(sessionId);
    }
  }

  /** Keeps every stream alive and ends those whose session is over; one check at a time. */
  heartbeat(): Promise<void> {
    this.checking ??= this.check().finally(() => {
      this.checking = undefined;
    });
    return this.checking;
  }

  private async check() {
    for (const set of this.bySession.values()) for (const stream of set) stream.keepAlive();
    const ids = [...this.bySession.keys()];
    for (let i = 0; i < ids.length; i += CHECK_BATCH) {
      const batch = ids.slice(i, i + CHECK_BATCH);
      let live: Set<string>;
      try {
        live = await this.liveSessions(batch);
      } catch {
        // the database is away for a moment: the next heartbeat checks again
        return;
      }
      for (const id of batch) if (!live.has(id)) this.endSession(id);
    }
  }
}

/** Ends at once the streams this process holds for the session (called when the session ends, e.g. on logout). */
export function endSessionStreams(sessionId: string | null | undefined) {
  if (!sessionId) return;
  for (const registry of registries) registry.endSession(sessionId);
}

/** Ends every stream this process holds for the user, whatever the session (password reset, deactivation). */
export function endUserStreams(userId: number) {
  for (const registry of registries) registry.endUser(userId);
}

/** Runs the heartbeat's session check now on every registry of this process. */
export async function checkOpenStreams() {
  await Promise.all([...registries].map((registry) => registry.heartbeat()));
}
