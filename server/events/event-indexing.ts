import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../db/database';
import { indexEventTail } from './event-search.repo';

/** How long after a recorded event its search keys are written on SQLite (a read of the history does it at once). */
export const INDEXING_DELAY_MS = 300;

const waiting = new Set<() => void>();

/** Called by the recording of an event: wakes the indexers of this process (one per app, each for its database). */
export function noteEventRecorded(): void {
  for (const wake of waiting) wake();
}

/**
 * On SQLite, indexes the events' search keys a moment after writes recorded them, one catch-up for all the events of
 * that moment, off the writes' path. PostgreSQL fills them in the event's transaction, so nothing runs there.
 */
export function startEventIndexing(app: FastifyInstance, database: DatabaseHandle): void {
  if (database.engine !== 'sqlite') return;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const catchUp = () => {
    timer = undefined;
    running = running
      .then(() => indexEventTail(database.db))
      .then(
        () => undefined,
        (error: unknown) =>
          app.log.warn({ err: error }, 'indexing the history failed; the next read does it'),
      );
  };
  const wake = () => {
    if (timer !== undefined) return;
    timer = setTimeout(catchUp, INDEXING_DELAY_MS);
    timer.unref();
  };
  app.addHook('onReady', async () => {
    waiting.add(wake);
  });
  app.addHook('onClose', async () => {
    waiting.delete(wake);
    clearTimeout(timer);
    await running;
  });
}
