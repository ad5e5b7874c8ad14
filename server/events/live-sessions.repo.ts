import type { Db } from '../db/database';
import { nowIso } from '../db/database';

/**
 * Which of these session ids are still signed in: one query for every open stream of a process, so checking them all
 * at each heartbeat stays cheap. The same rule as the session lookup of a request: the row exists and has not expired.
 */
export async function findLiveSessionIds(db: Db, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('sessions')
    .select('id')
    .where('id', 'in', ids)
    .where('expires_at', '>', nowIso())
    .execute();
  return new Set(rows.map((row) => row.id));
}
