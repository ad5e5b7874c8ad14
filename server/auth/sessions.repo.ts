import { sql } from 'kysely';
import { statementText } from '../db/statement-text';
import type { Db } from '../db/database';
import { SESSION_USER_COLUMNS } from './users.repo';
import { nowIso } from '../db/database';
import { forgetMember } from './session-cache';

export async function insertSession(
  db: Db,
  session: { id: string; userId: number; companyId: number; expiresAt: string },
) {
  await db
    .insertInto('sessions')
    .values({
      id: session.id,
      user_id: session.userId,
      company_id: session.companyId,
      created_at: nowIso(),
      expires_at: session.expiresAt,
    })
    .execute();
}

/**
 * The session with this id and its member, in one statement, unless the session has expired (sliding) or was started
 * before `startedAfter` (absolute), or the member was deactivated: whatever cookie they hold then reads as signed out.
 */
export async function findLiveSessionUser(db: Db, id: string, startedAfter: string) {
  const { rows } = await liveSessionUser(db, { id, now: nowIso(), startedAfter });
  return rows[0];
}

// on every signed-in request: its text is made once (decision 014)
const liveSessionUser = statementText(
  (db: Db, { id, now, startedAfter }: { id: string; now: string; startedAfter: string }) =>
    db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .innerJoin('companies', 'companies.id', 'users.company_id')
      .select(['sessions.created_at', 'sessions.expires_at', ...SESSION_USER_COLUMNS])
      .where('sessions.id', '=', id)
      .where('sessions.expires_at', '>', now)
      .where('sessions.created_at', '>', startedAfter)
      .where('users.active', '=', sql.lit(1)),
);

export async function extendSession(db: Db, id: string, expiresAt: string) {
  await db.updateTable('sessions').set({ expires_at: expiresAt }).where('id', '=', id).execute();
}

export async function deleteSession(db: Db, id: string) {
  await db.deleteFrom('sessions').where('id', '=', id).execute();
}

/** Ends every session of the user (after a password reset), or every one but `exceptId`. */
export async function deleteSessionsOfUser(db: Db, userId: number, exceptId?: string) {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  await query.execute();
  forgetMember(userId);
}

/** Housekeeping: sessions past their sliding expiry, or started before `startedBefore` (the absolute lifetime). */
export async function deleteExpiredSessions(db: Db, startedBefore: string): Promise<number> {
  const result = await db
    .deleteFrom('sessions')
    .where((eb) => eb.or([eb('expires_at', '<=', nowIso()), eb('created_at', '<=', startedBefore)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Housekeeping: sign-in failures too old to count any more. */
export async function deleteOldLoginFailures(db: Db, before: string): Promise<number> {
  const result = await db.deleteFrom('login_failures').where('created_at', '<=', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * A sign-in attempt is written first, as a failure, and removed again when it succeeds or is turned away: so
 * attempts running at the same time see each other when they count.
 */
export async function insertLoginAttempt(db: Db, email: string, ip: string): Promise<number> {
  const row = await db
    .insertInto('login_failures')
    .values({ email, ip, created_at: nowIso() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function deleteLoginAttempt(db: Db, id: number) {
  await db.deleteFrom('login_failures').where('id', '=', id).execute();
}

/** Failures since `since` written before attempt `beforeId`: per email (count, latest) and per address (count, oldest). */
export async function loginFailuresBefore(
  db: Db,
  { email, ip, beforeId, since }: { email: string; ip: string; beforeId: number; since: string },
) {
  const byEmail = await db
    .selectFrom('login_failures')
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.max('created_at').as('latest')])
    .where('email', '=', email)
    .where('created_at', '>', since)
    .where('id', '<', beforeId)
    .executeTakeFirstOrThrow();
  const byIp = await db
    .selectFrom('login_failures')
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.min('created_at').as('oldest')])
    .where('ip', '=', ip)
    .where('created_at', '>', since)
    .where('id', '<', beforeId)
    .executeTakeFirstOrThrow();
  return {
    emailCount: byEmail.count,
    emailLatest: byEmail.latest as string | null,
    ipCount: byIp.count,
    ipOldest: byIp.oldest as string | null,
  };
}

export async function clearLoginFailures(db: Db, email: string) {
  await db.deleteFrom('login_failures').where('email', '=', email).execute();
}
