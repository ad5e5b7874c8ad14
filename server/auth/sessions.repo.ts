import type { Db } from '../db/database';
import { nowIso } from '../db/database';

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

export async function findLiveSession(db: Db, id: string) {
  return db
    .selectFrom('sessions')
    .select(['id', 'user_id', 'company_id', 'expires_at'])
    .where('id', '=', id)
    .where('expires_at', '>', nowIso())
    .executeTakeFirst();
}

export async function extendSession(db: Db, id: string, expiresAt: string) {
  await db.updateTable('sessions').set({ expires_at: expiresAt }).where('id', '=', id).execute();
}

export async function deleteSession(db: Db, id: string) {
  await db.deleteFrom('sessions').where('id', '=', id).execute();
}

export async function deleteExpiredSessions(db: Db) {
  await db.deleteFrom('sessions').where('expires_at', '<=', nowIso()).execute();
}

export async function recordLoginFailure(db: Db, email: string, ip: string) {
  await db.insertInto('login_failures').values({ email, ip, created_at: nowIso() }).execute();
}

export async function countRecentLoginFailures(db: Db, email: string, sinceIso: string): Promise<number> {
  const row = await db
    .selectFrom('login_failures')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('email', '=', email)
    .where('created_at', '>', sinceIso)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function clearLoginFailures(db: Db, email: string) {
  await db.deleteFrom('login_failures').where('email', '=', email).execute();
}
