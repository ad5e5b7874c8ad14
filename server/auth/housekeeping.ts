import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/database';
import { LOGIN_FAILURE_WINDOW_MS } from './auth.service';
import { IDEMPOTENCY_KEEP_MS } from '../http/idempotency';
import { deleteOldKeys } from '../http/idempotency-keys.repo';
import { deleteExpiredSessions, deleteOldLoginFailures } from './sessions.repo';
import { deleteExpiredPortalRows } from '../features/portal/portal.repo';

export const HOUSEKEEPING_INTERVAL_MS = 10 * 60_000;

/**
 * One sweep: sessions past their sliding or absolute lifetime, sign-in failures too old to count, Idempotency-Keys
 * older than the day they are kept (decision 043), and the customer portal's expired sessions and links (decision 042).
 */
export async function sweepAuthTables(db: Db, sessionMaxAgeMs: number) {
  const now = Date.now();
  const sessions = await deleteExpiredSessions(db, new Date(now - sessionMaxAgeMs).toISOString());
  const failures = await deleteOldLoginFailures(db, new Date(now - LOGIN_FAILURE_WINDOW_MS).toISOString());
  const idempotencyKeys = await deleteOldKeys(db, new Date(now - IDEMPOTENCY_KEEP_MS).toISOString());
  const portal = await deleteExpiredPortalRows(db, new Date(now).toISOString());
  return { sessions, failures, idempotencyKeys, ...portal };
}

/**
 * Runs the sweep when the app is ready and then every interval, on a timer that keeps no process alive; the app's
 * close stops it and waits for a sweep under way.
 */
export function startHousekeeping(
  app: FastifyInstance,
  db: Db,
  {
    sessionMaxAgeMs,
    intervalMs = HOUSEKEEPING_INTERVAL_MS,
  }: { sessionMaxAgeMs: number; intervalMs?: number },
) {
  let running: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const sweep = () => {
    running = running
      .then(() => sweepAuthTables(db, sessionMaxAgeMs))
      .then(
        (removed) => {
          if (Object.values(removed).some((count) => count > 0))
            app.log.info(removed, 'housekeeping: removed old rows');
        },
        (error: unknown) => app.log.warn({ err: error }, 'housekeeping failed; trying again later'),
      );
  };
  app.addHook('onReady', async () => {
    sweep();
    timer = setInterval(sweep, intervalMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}
