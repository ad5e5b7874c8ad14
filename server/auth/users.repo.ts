import type { Role } from '@domain/rules/roles';
import type { Db } from '../db/database';
import { nowIso } from '../db/database';
import { forgetMember } from './session-cache';

export async function findCompanyByName(db: Db, name: string) {
  return db.selectFrom('companies').selectAll().where('name', '=', name).executeTakeFirst();
}

export async function insertCompany(db: Db, name: string) {
  return db
    .insertInto('companies')
    .values({ name, created_at: nowIso() })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findUserByEmail(db: Db, email: string) {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export async function insertUser(
  db: Db,
  user: { companyId: number; email: string; username: string; passwordHash: string; role?: Role },
) {
  return db
    .insertInto('users')
    .values({
      company_id: user.companyId,
      email: user.email,
      username: user.username,
      password_hash: user.passwordHash,
      // absent: the column's default, Manager (and a database from before roles, as the migration tests build, has no column)
      ...(user.role ? { role: user.role } : {}),
      created_at: nowIso(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updatePasswordHash(db: Db, userId: number, passwordHash: string) {
  await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
  forgetMember(userId);
}

/** What a signed-in member's session shows of them (`presentSessionUser`), with `companies` joined. */
export const SESSION_USER_COLUMNS = [
  'users.id',
  'users.email',
  'users.username',
  'users.role',
  'users.company_id',
  'companies.name as company_name',
  'companies.locale as company_locale',
] as const;

export async function findSessionUser(db: Db, userId: number) {
  return (
    db
      .selectFrom('users')
      .innerJoin('companies', 'companies.id', 'users.company_id')
      .select(SESSION_USER_COLUMNS)
      .where('users.id', '=', userId)
      // a deactivated member has no session: whatever cookie they hold reads as signed out
      .where('users.active', '=', 1)
      .executeTakeFirst()
  );
}

export async function noteSignIn(db: Db, userId: number) {
  await db.updateTable('users').set({ last_sign_in_at: nowIso() }).where('id', '=', userId).execute();
}

/** The name a change is recorded under: the member's, or 'system' for factories and the seed. */
export async function actorName(db: Db, userId: number | null): Promise<string> {
  if (userId === null) return 'system';
  const row = await db.selectFrom('users').select('username').where('id', '=', userId).executeTakeFirst();
  return row?.username ?? 'unknown';
}
