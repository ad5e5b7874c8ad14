import type { NotificationListener } from '../db/notification-listener';
import type { findLiveSessionUser } from './sessions.repo';

// Decision 024: on PostgreSQL every signed-in request looked its session up, one round trip of a write's three. A
// process keeps the sessions it looked up for a short while, and forgets a member's the moment it hears that the
// member changed (SESSIONS_CHANNEL, sent by triggers of migration 0020 at the change's commit).

/** The channel the triggers of migration 0020 notify: a member's id, or '' for everyone (a company renamed). */
export const SESSIONS_CHANNEL = 'wm_sessions';

/** Longest a looked-up session is kept: a bound on any change the process might not have heard of. */
const KEEP_MS = 30_000;
/** Most sessions kept; the oldest go first. */
const MAX_ENTRIES = 10_000;

/** What the session lookup answers (`findLiveSessionUser`). */
export type SessionRow = NonNullable<Awaited<ReturnType<typeof findLiveSessionUser>>>;

interface Entry {
  row: SessionRow;
  keptAt: number;
}

const caches = new Set<SessionCache>();

/**
 * A member's sessions, role or name changed in this process: every cache of the process forgets them at once (the
 * notification reaches the other processes at the change's commit, and this one again).
 */
export function forgetMember(userId: number): void {
  for (const cache of caches) cache.forgetMember(userId);
}

/** A company's name or locale changed in this process: every cache forgets every session (as the trigger says). */
export function forgetEveryone(): void {
  for (const cache of caches) cache.forgetEveryone();
}

/**
 * The sessions one app has looked up. Used only while its LISTEN connection is up: a change made while it was down
 * could not be heard, so then every request looks its session up and the cache starts empty when it is back.
 */
export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  /** moves with every change heard: a lookup that was running across a change does not keep what it read */
  private generation = 0;
  private heard = false;

  constructor(listener: NotificationListener) {
    listener.listen(SESSIONS_CHANNEL, {
      notified: (payload) => {
        const userId = Number(payload);
        if (payload !== '' && Number.isInteger(userId)) this.forgetMember(userId);
        else this.forgetAll();
      },
      connected: () => {
        this.forgetAll();
        this.heard = true;
      },
      lost: () => {
        this.heard = false;
        this.forgetAll();
      },
    });
  }

  /** Joins `forgetMember`; `close` leaves. */
  open(): void {
    caches.add(this);
  }

  close(): void {
    caches.delete(this);
    this.heard = false;
    this.forgetAll();
  }

  /** The kept session, if it is still live by its own times (`now`, `startedAfter` as ISO strings). */
  get(id: string, now: string, startedAfter: string): SessionRow | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    if (
      Date.now() - entry.keptAt > KEEP_MS ||
      entry.row.expires_at <= now ||
      entry.row.created_at <= startedAfter
    ) {
      this.entries.delete(id);
      return undefined;
    }
    return entry.row;
  }

  /** Where a lookup starts: hand it back to `keep` with what it read. */
  mark(): number {
    return this.generation;
  }

  /** Keeps what a lookup read, unless the cache is not in use or a change was heard since the lookup began. */
  keep(id: string, row: SessionRow, mark: number): void {
    if (!this.heard || mark !== this.generation) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(id, { row, keptAt: Date.now() });
  }

  forget(id: string): void {
    this.generation += 1;
    this.entries.delete(id);
  }

  forgetMember(userId: number): void {
    this.generation += 1;
    for (const [id, entry] of this.entries) if (entry.row.id === userId) this.entries.delete(id);
  }

  forgetEveryone(): void {
    this.forgetAll();
  }

  private forgetAll(): void {
    this.generation += 1;
    this.entries.clear();
  }
}
