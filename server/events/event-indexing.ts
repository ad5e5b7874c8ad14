import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../db/database';
import { type MarkProgress, advanceIndexMark, indexEventTail } from './event-search.repo';

/** How long after a recorded event its search keys are written (a read of the history does it at once). */
export const INDEXING_DELAY_MS = 300;

const waiting = new Set<() => void>();

/**
 * Called by the recording of an event, and on PostgreSQL by the live feed when it reads events committed by any
 * process: wakes the indexers of this process (one per app, each for its database).
 */
export function noteEventRecorded(): void {
  for (const wake of waiting) wake();
}

/**
 * Indexes the events' search keys a moment after writes recorded them, one catch-up for all the events of that
 * moment, off the writes' path (decision 021). On PostgreSQL the catch-up also moves the indexed mark, which needs a
 * second look once the transactions running at the first have ended: it runs again while a pending mark is left (or
 * another process holds the catch-up), and once when the app starts, for what was recorded while it was not running.
 */
export function startEventIndexing(app: FastifyInstance, database: DatabaseHandle): void {
  const postgres = database.engine === 'postgres';
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let open = false;
  const catchUp = () => {
    timer = undefined;
    running = running
      .then((): Promise<MarkProgress> =>
        postgres ? advanceIndexMark(database.db) : indexEventTail(database.db).then(() => 'done'),
      )
      .then(
        (progress) => {
          if (progress !== 'done') wake();
        },
        (error: unknown) =>
          app.log.warn({ err: error }, 'indexing the history failed; the next read does it'),
      );
  };
  const wake = () => {
    if (timer !== undefined || !open) return;
    timer = setTimeout(catchUp, INDEXING_DELAY_MS);
    timer.unref();
  };
  app.addHook('onReady', async () => {
    open = true;
    waiting.add(wake);
    if (postgres) wake();
  });
  app.addHook('onClose', async () => {
    open = false;
    waiting.delete(wake);
    clearTimeout(timer);
    timer = undefined;
    await running;
  });
}
