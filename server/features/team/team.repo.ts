import type { Db } from '../../db/database';
import { nowIso } from '../../db/database';
import { type Trx, isPostgres } from '../../db/locks';
import { forgetEveryone, forgetMember } from '../../auth/session-cache';

export async function listMembers(db: Db, companyId: number) {
  return db
    .selectFrom('users')
    .select(['id', 'username', 'email', 'role', 'active', 'last_sign_in_at', 'created_at'])
    .where('company_id', '=', companyId)
    .orderBy('username')
    .orderBy('id')
    .execute();
}
export type MemberRow = Awaited<ReturnType<typeof listMembers>>[number];

export async function findMember(db: Db, companyId: number, userId: number) {
  return db
    .selectFrom('users')
    .select(['id', 'username', 'email', 'role', 'active', 'last_sign_in_at', 'created_at', 'password_hash'])
    .where('company_id', '=', companyId)
    .where('id', '=', userId)
    .executeTakeFirst();
}

/**
 * Serialises changes to a company's team: on PostgreSQL the company row is locked for the transaction, so two
 * Managers demoting each other at once cannot both pass the last-manager check; SQLite writes one at a time anyway.
 */
export async function lockTeam(trx: Trx, companyId: number): Promise<void> {
  if (!isPostgres(trx)) return;
  await trx.selectFrom('companies').select('id').where('id', '=', companyId).forUpdate().execute();
}

export async function countActiveManagers(db: Db, companyId: number, exceptUserId: number): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', companyId)
    .where('role', '=', 'manager')
    .where('active', '=', 1)
    .where('id', '<>', exceptUserId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function updateMember(
  db: Db,
  companyId: number,
  userId: number,
  changes: { role?: string; active?: number; username?: string; password_hash?: string },
) {
  await db
    .updateTable('users')
    .set(changes)
    .where('company_id', '=', companyId)
    .where('id', '=', userId)
    .execute();
  forgetMember(userId);
}

/** The company's links that still work (invitations and password resets), newest first. */
export async function listPendingLinks(db: Db, companyId: number) {
  return db
    .selectFrom('member_links')
    .select(['id', 'kind', 'email', 'role', 'user_id', 'expires_at'])
    .where('company_id', '=', companyId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', nowIso())
    .orderBy('id', 'desc')
    .execute();
}

/** One link of the company, used or not (null when the company has no such link). */
export async function findCompanyLink(db: Db, companyId: number, linkId: number) {
  return db
    .selectFrom('member_links')
    .select(['id', 'kind', 'email', 'role', 'user_id', 'expires_at', 'used_at'])
    .where('company_id', '=', companyId)
    .where('id', '=', linkId)
    .executeTakeFirst();
}

export async function insertMemberLink(
  db: Db,
  link: {
    companyId: number;
    kind: 'invite' | 'reset';
    tokenHash: string;
    email: string;
    role: string | null;
    userId: number | null;
    createdBy: number;
    expiresAt: string;
  },
) {
  return db
    .insertInto('member_links')
    .values({
      company_id: link.companyId,
      kind: link.kind,
      token_hash: link.tokenHash,
      email: link.email,
      role: link.role,
      user_id: link.userId,
      created_by: link.createdBy,
      expires_at: link.expiresAt,
      created_at: nowIso(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

/** A link that still works: unused and not expired, with its company's name. */
export async function findUsableLink(db: Db, tokenHash: string) {
  return db
    .selectFrom('member_links')
    .innerJoin('companies', 'companies.id', 'member_links.company_id')
    .leftJoin('users', 'users.id', 'member_links.user_id')
    .select([
      'member_links.id',
      'member_links.company_id',
      'member_links.kind',
      'member_links.email',
      'member_links.role',
      'member_links.user_id',
      'companies.name as company_name',
      'users.username',
      'users.active',
    ])
    .where('member_links.token_hash', '=', tokenHash)
    .where('member_links.used_at', 'is', null)
    .where('member_links.expires_at', '>', nowIso())
    .executeTakeFirst();
}

/** Marks the link used; false when another request used it first (a link works exactly once). */
export async function useLink(db: Db, companyId: number, linkId: number): Promise<boolean> {
  const result = await db
    .updateTable('member_links')
    .set({ used_at: nowIso() })
    .where('company_id', '=', companyId)
    .where('id', '=', linkId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** An unused reset link of the member stops working once a newer one is made or the member is deactivated. */
export async function retireResetLinks(db: Db, companyId: number, userId: number) {
  await db
    .updateTable('member_links')
    .set({ used_at: nowIso() })
    .where('company_id', '=', companyId)
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
}

/** The company's invitations of the address that were not used yet stop working (a newer one replaces them). */
export async function retireInvites(db: Db, companyId: number, email: string) {
  await db
    .updateTable('member_links')
    .set({ used_at: nowIso() })
    .where('company_id', '=', companyId)
    .where('kind', '=', 'invite')
    .where('email', '=', email)
    .where('used_at', 'is', null)
    .execute();
}

export async function userWithEmailExists(db: Db, email: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
  return row !== undefined;
}

/**
 * Why an address cannot be invited by this company: 'member' (one of its own active members has it), 'deactivated'
 * (one of its deactivated members), 'elsewhere' (an account of another company, or another company's open
 * invitation); undefined when it can be.
 */
export async function inviteBlock(
  db: Db,
  companyId: number,
  email: string,
): Promise<'member' | 'deactivated' | 'elsewhere' | undefined> {
  const user = await db
    .selectFrom('users')
    .select(['company_id', 'active'])
    .where('email', '=', email)
    .executeTakeFirst();
  if (user) return user.company_id !== companyId ? 'elsewhere' : user.active === 1 ? 'member' : 'deactivated';
  const invite = await db
    .selectFrom('member_links')
    .select('id')
    .where('email', '=', email)
    .where('kind', '=', 'invite')
    .where('company_id', '!=', companyId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', new Date().toISOString())
    .executeTakeFirst();
  return invite ? 'elsewhere' : undefined;
}

export async function findCompanySettings(db: Db, companyId: number) {
  return db
    .selectFrom('companies')
    .select(['id', 'name', 'locale'])
    .where('id', '=', companyId)
    .executeTakeFirst();
}

export async function updateCompanyLocale(db: Db, companyId: number, locale: string) {
  await db.updateTable('companies').set({ locale }).where('id', '=', companyId).execute();
  // the sessions carry the company's locale
  forgetEveryone();
}
