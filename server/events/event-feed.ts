import { randomBytes } from 'node:crypto';
import type { LiveEventDto } from '@domain/schemas/live-event.schema';
import type { FieldDto } from '@domain/schemas/warehouse.schema';
import type { DatabaseHandle } from '../db/database';
import type { NotificationListener } from '../db/notification-listener';
import { EVENTS_CHANNEL, announceEvents, findEventsAfter, latestEventId } from './event-log.repo';
import { noteEventRecorded } from './event-indexing';

/**
 * An event as the feed hands it out: what a browser is told (LiveEventDto), its place in the log and the fields it
 * touched (whose new state the feed reads for the streams that watch their warehouse).
 */
export type LiveEvent = LiveEventDto & { id: number; touchedFieldIds: number[] };

/** Reads the present state of a company's fields (those it does not have are left out). */
export type FieldReader = (companyId: number, fieldIds: number[]) => Promise<FieldDto[]>;

/** A stream of a company: what it is handed, and whether it wants the fields of a change in a warehouse. */
interface Subscriber {
  deliver: (event: LiveEvent) => void;
  watches: (warehouseId: number) => boolean;
}

/** At most this many fields are read for one company's events of one read of the log; beyond, frames go without. */
const MAX_FIELDS_PER_READ = 500;

/** The ids a stored payload names (`fieldId`, `fromFieldId`, `fromWarehouseId`), null where it names none. */
function payloadIds(
  payload: string | null,
): Pick<LiveEvent, 'fieldId' | 'fromFieldId' | 'fromWarehouseId'> & { field2Id: number | null } {
  let parsed: unknown = null;
  try {
    parsed = payload === null ? null : JSON.parse(payload);
  } catch {
    parsed = null;
  }
  const read = (name: string) => {
    const value =
      typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>)[name] : null;
    return typeof value === 'number' ? value : null;
  };
  return {
    fieldId: read('fieldId'),
    fromFieldId: read('fromFieldId'),
    fromWarehouseId: read('fromWarehouseId'),
    field2Id: read('field2Id'),
  };
}

const POLL_MS_SQLITE = 150;
// PostgreSQL: a poll next to LISTEN/NOTIFY, for events written by other tools (the command line, a script), which
// announce nothing, and for the time the LISTEN connection is down
const POLL_MS_POSTGRES = 250;
// PostgreSQL: a process that wrote events tells the others at once, then at most once per this long (decision 026)
const ANNOUNCE_GAP_MS = 20;
const READ_BATCH = 1000;
// a busy floor commits events faster than one read of the log takes, and every answered write wakes the feed: reads
// follow each other at least this far apart, so one read takes in the events of that moment (issue 11)
const READ_GAP_MS = 20;
// PostgreSQL hands ids out at insert but they become visible at commit, so a late commit can carry a lower id: look
// back a little. SQLite has one writer at a time, so its ids become visible in order and nothing is looked back on.
const LOOK_BACK = 200;

export function toLiveEvent(row: Awaited<ReturnType<typeof findEventsAfter>>[number]): LiveEvent {
  const { field2Id, ...ids } = payloadIds(row.payload);
  // a vault's change touches the field it is in and the one it left; a field's change the field and its partner
  const touched =
    row.entity_type === 'vault'
      ? [ids.fieldId, ids.fromFieldId]
      : row.entity_type === 'field'
        ? [row.entity_id, field2Id]
        : [];
  return {
    id: row.id,
    kind: row.kind,
    entityType: row.entity_type,
    entityId: row.entity_id,
    warehouseId: row.warehouse_id,
    ...ids,
    userId: row.user_id,
    at: row.created_at,
    touchedFieldIds: [...new Set(touched.filter((id): id is number => id !== null))],
  };
}

/** The warehouses a change happened in (where it is now and, for a move, where it came from). */
export function warehousesOf(event: LiveEvent): number[] {
  return [event.warehouseId, event.fromWarehouseId].filter((id): id is number => id !== null);
}

/**
 * Reads the event log and fans new events out to this process's subscribers, per company.
 * The log is the source of truth, so every server process on one database sees every event:
 * PostgreSQL wakes the reader with LISTEN/NOTIFY, SQLite (one process) is polled.
 *
 * The feed reads from its start on, subscribers or not, so it always knows the present (`latestId()`).
 * A database that goes away only pauses it: reads fail and are retried, the process's LISTEN connection
 * (`NotificationListener`) is opened again, and the next read picks up after the last event it delivered.
 */
export class EventFeed {
  private readonly listeners = new Map<number, Set<Subscriber>>();
  private lastId = 0;
  private readonly delivered = new Set<number>();
  /**
   * PostgreSQL: ids up to `lastId` not seen yet. Ids are taken when a transaction inserts and become visible when it
   * commits, so a lower id can appear after a higher one; a read starts below the lowest such hole (within the
   * look-back window) instead of always reading the whole window again.
   */
  private readonly holes = new Set<number>();
  private timer: NodeJS.Timeout | undefined;
  private reading: Promise<void> | undefined;
  private again = false;
  private readGapTimer: NodeJS.Timeout | undefined;
  /** this process's mark on its announcements, so it does not wake itself again on its own */
  private readonly token = randomBytes(8).toString('hex');
  private announcedAt = 0;
  private announceTimer: NodeJS.Timeout | undefined;
  private started = false;
  private stopped = false;
  /** the first look at the log; until it succeeds the feed does not know where the present is */
  private initialised = false;
  private initialising: Promise<void> | undefined;
  private readonly lookBack: number;

  constructor(
    private readonly database: DatabaseHandle,
    /** PostgreSQL: the process's LISTEN connection (its owner starts it), which brings other processes' announcements */
    listener?: NotificationListener,
    /** reads the fields a change touched, once per read of the log, for the streams that watch their warehouse */
    private readonly readFields?: FieldReader,
  ) {
    this.lookBack = database.engine === 'postgres' ? LOOK_BACK : 0;
    listener?.listen(EVENTS_CHANNEL, {
      notified: (payload) => {
        if (payload !== this.token) this.wake();
      },
      // catch up on what was committed while nobody listened
      connected: () => this.wake(),
      lost: () => {},
    });
  }

  /**
   * PostgreSQL: this process has just committed a write (a request that changed something has been answered): the
   * feed reads the log now and tells the other server processes, at once or, in a burst of writes, once per
   * `ANNOUNCE_GAP_MS` for all of them (decision 026).
   */
  noteWrite(): void {
    // SQLite: one process, whose feed polls every 150 ms; a read after every write would cost its writes more
    if (this.database.engine !== 'postgres') return;
    this.wake();
    if (this.announceTimer || this.stopped) return;
    this.announceTimer = setTimeout(
      () => {
        this.announceTimer = undefined;
        this.announcedAt = Date.now();
        // a database that is down hears nothing; the others' poll finds the events once it is back
        announceEvents(this.database.db, this.token).catch(() => undefined);
      },
      Math.max(0, this.announcedAt + ANNOUNCE_GAP_MS - Date.now()),
    );
  }

  /** Starts following the log. Safe to call again; never throws (a database that is down is retried). */
  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.timer = setInterval(
      () => this.wake(),
      this.database.engine === 'postgres' ? POLL_MS_POSTGRES : POLL_MS_SQLITE,
    );
    this.timer.unref();
    this.wake();
  }

  /**
   * Hands the company's events to `deliver`. A stream that `watches` a warehouse gets, with a change of a vault or
   * field there, the new state of the fields it touched (`fields`), read once for all the streams of this process.
   */
  subscribe(
    companyId: number,
    deliver: (event: LiveEvent) => void,
    watches: (warehouseId: number) => boolean = () => false,
  ): () => void {
    let set = this.listeners.get(companyId);
    if (!set) this.listeners.set(companyId, (set = new Set()));
    const subscriber: Subscriber = { deliver, watches };
    set.add(subscriber);
    this.start();
    return () => {
      set.delete(subscriber);
      if (set.size === 0) this.listeners.delete(companyId);
    };
  }

  /**
   * The id of the newest event this feed has taken in. A stream that subscribes and then starts from this id
   * misses nothing and replays nothing: every later event reaches it through the feed. Rejects while the
   * database cannot be reached and the feed has not yet had its first look at the log.
   */
  async latestId(): Promise<number> {
    this.start();
    await this.initialise();
    return this.lastId;
  }

  private initialise(): Promise<void> {
    if (this.initialised) return Promise.resolve();
    this.initialising ??= (async () => {
      try {
        const latest = await latestEventId(this.database.db);
        if (this.initialised) return;
        // what is already in the log is history, not news
        const from = Math.max(0, latest - this.lookBack);
        for (const row of await findEventsAfter(this.database.db, from, LOOK_BACK))
          this.delivered.add(row.id);
        for (let id = from + 1; id <= latest; id++) if (!this.delivered.has(id)) this.holes.add(id);
        this.lastId = Math.max(this.lastId, latest);
        this.initialised = true;
      } finally {
        this.initialising = undefined;
      }
    })();
    return this.initialising;
  }

  private wake() {
    if (this.stopped) return;
    if (this.reading || this.readGapTimer) {
      this.again = true;
      return;
    }
    const startedAt = Date.now();
    // a failed read (the database is down) changes nothing: the next wake-up reads from the same place
    this.reading = this.read()
      .catch(() => undefined)
      .finally(() => {
        this.reading = undefined;
        if (!this.again || this.stopped) return;
        this.again = false;
        this.readGapTimer = setTimeout(
          () => {
            this.readGapTimer = undefined;
            // this read takes in every commit heard so far, also those heard during the gap
            this.again = false;
            this.wake();
          },
          Math.max(0, startedAt + READ_GAP_MS - Date.now()),
        );
      });
  }

  private async read() {
    await this.initialise();
    for (;;) {
      // from below the lowest id that may still appear, else from the last one (never beyond the look-back window)
      const lowestHole = this.holes.size > 0 ? Math.min(...this.holes) - 1 : this.lastId;
      const rows = await findEventsAfter(
        this.database.db,
        Math.max(0, lowestHole, this.lastId - this.lookBack),
        READ_BATCH,
      );
      const news: { companyId: number; event: LiveEvent }[] = [];
      let seen = this.lastId;
      let fresh = false;
      for (const row of rows) {
        for (let id = Math.max(seen + 1, row.id - this.lookBack); id < row.id; id++) this.holes.add(id);
        seen = Math.max(seen, row.id);
        this.holes.delete(row.id);
        if (this.delivered.has(row.id)) continue;
        this.delivered.add(row.id);
        fresh = true;
        this.lastId = Math.max(this.lastId, row.id);
        if (this.listeners.has(row.company_id))
          news.push({ companyId: row.company_id, event: toLiveEvent(row) });
      }
      // PostgreSQL: the feed hears of every process's events, also of the writes that record theirs inside one
      // statement: the search keys' catch-up follows them (decision 021); SQLite's writes wake it themselves
      if (fresh && this.database.engine === 'postgres') noteEventRecorded();
      await this.attachFields(news);
      for (const { companyId, event } of news) {
        for (const subscriber of this.listeners.get(companyId) ?? []) subscriber.deliver(event);
      }
      // forget ids that can no longer come back through the look-back window
      if (this.delivered.size > LOOK_BACK * 4) {
        for (const id of this.delivered) if (id <= this.lastId - this.lookBack) this.delivered.delete(id);
      }
      // a hole older than the window was a transaction that rolled back (or is given up on, as before)
      for (const id of this.holes) if (id <= this.lastId - this.lookBack) this.holes.delete(id);
      // a full batch may have more behind it (a long outage of the LISTEN connection, a burst)
      if (rows.length < READ_BATCH || this.stopped) return;
    }
  }

  /**
   * Gives each change that a stream of its company watches the new state of the fields it touched: one read per
   * company for the whole batch, whatever the number of streams, so 100 tablets cost what one does. The fields are
   * read after the changes committed, so they show at least what each change did (a later change of the same field
   * brings its own, newer state). A failed read only leaves the frames without fields: the browsers refetch.
   */
  private async attachFields(news: { companyId: number; event: LiveEvent }[]) {
    if (!this.readFields) return;
    const wanted = new Map<number, { ids: Set<number>; events: LiveEvent[] }>();
    for (const { companyId, event } of news) {
      if (event.touchedFieldIds.length === 0) continue;
      const subscribers = this.listeners.get(companyId);
      const watched = warehousesOf(event).some((warehouseId) =>
        [...(subscribers ?? [])].some((s) => s.watches(warehouseId)),
      );
      if (!watched) continue;
      let entry = wanted.get(companyId);
      if (!entry) wanted.set(companyId, (entry = { ids: new Set(), events: [] }));
      for (const id of event.touchedFieldIds) entry.ids.add(id);
      entry.events.push(event);
    }
    for (const [companyId, { ids, events }] of wanted) {
      if (ids.size > MAX_FIELDS_PER_READ) continue;
      try {
        const fields = new Map((await this.readFields(companyId, [...ids])).map((f) => [f.id, f]));
        for (const event of events) {
          event.fields = event.touchedFieldIds
            .map((id) => fields.get(id))
            .filter((field): field is FieldDto => field !== undefined);
        }
      } catch {
        // the frames go without fields; the browsers fetch what they show
      }
    }
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    clearTimeout(this.readGapTimer);
    clearTimeout(this.announceTimer);
    await this.reading;
  }
}
