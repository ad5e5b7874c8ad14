import pg from 'pg';
import type { DatabaseHandle } from '../db/database';
import { EVENTS_CHANNEL, findEventsAfter, latestEventId } from './event-log.repo';

export interface LiveEvent {
  id: number;
  kind: string;
  entityType: string;
  entityId: number | null;
  warehouseId: number | null;
  userId: number | null;
  at: string;
}

type Listener = (event: LiveEvent) => void;

const POLL_MS_SQLITE = 150;
const POLL_MS_POSTGRES = 2000;
// ids are handed out at insert but become visible at commit, so a late commit can carry a lower id: look back a little
const LOOK_BACK = 200;

export function toLiveEvent(row: Awaited<ReturnType<typeof findEventsAfter>>[number]): LiveEvent {
  return {
    id: row.id,
    kind: row.kind,
    entityType: row.entity_type,
    entityId: row.entity_id,
    warehouseId: row.warehouse_id,
    userId: row.user_id,
    at: row.created_at,
  };
}

/**
 * Reads the event log and fans new events out to this process's subscribers, per company.
 * The log is the source of truth, so every server process on one database sees every event:
 * PostgreSQL wakes the reader with LISTEN/NOTIFY, SQLite (one process) is polled.
 */
export class EventFeed {
  private readonly listeners = new Map<number, Set<Listener>>();
  private lastId = 0;
  private readonly delivered = new Set<number>();
  private timer: NodeJS.Timeout | undefined;
  private pgListener: pg.Client | undefined;
  private reading: Promise<void> | undefined;
  private again = false;
  private started = false;

  constructor(private readonly database: DatabaseHandle) {}

  subscribe(companyId: number, listener: Listener): () => void {
    let set = this.listeners.get(companyId);
    if (!set) this.listeners.set(companyId, (set = new Set()));
    set.add(listener);
    void this.ensureStarted();
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(companyId);
    };
  }

  private async ensureStarted() {
    if (this.started) return;
    this.started = true;
    this.lastId = await latestEventId(this.database.db);
    // what is already in the log is history, not news
    for (const row of await findEventsAfter(
      this.database.db,
      Math.max(0, this.lastId - LOOK_BACK),
      LOOK_BACK,
    )) {
      this.delivered.add(row.id);
    }
    const pollMs = this.database.engine === 'postgres' ? POLL_MS_POSTGRES : POLL_MS_SQLITE;
    this.timer = setInterval(() => this.wake(), pollMs);
    this.timer.unref();
    if (this.database.postgresUrl) {
      const client = new pg.Client({ connectionString: this.database.postgresUrl });
      client.on('notification', () => this.wake());
      // a lost LISTEN connection only slows delivery down to the poll interval
      client.on('error', () => undefined);
      await client.connect();
      await client.query(`listen ${EVENTS_CHANNEL}`);
      this.pgListener = client;
    }
  }

  private wake() {
    if (this.listeners.size === 0) return;
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = this.read()
      .catch(() => undefined)
      .finally(() => {
        this.reading = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  private async read() {
    const rows = await findEventsAfter(this.database.db, Math.max(0, this.lastId - LOOK_BACK), 1000);
    for (const row of rows) {
      if (this.delivered.has(row.id)) continue;
      this.delivered.add(row.id);
      this.lastId = Math.max(this.lastId, row.id);
      const set = this.listeners.get(row.company_id);
      if (!set) continue;
      const event = toLiveEvent(row);
      for (const listener of set) listener(event);
    }
    // forget ids that can no longer come back through the look-back window
    if (this.delivered.size > LOOK_BACK * 4) {
      for (const id of this.delivered) if (id < this.lastId - LOOK_BACK) this.delivered.delete(id);
    }
  }

  async stop() {
    if (this.timer) clearInterval(this.timer);
    await this.pgListener?.end().catch(() => undefined);
  }
}
