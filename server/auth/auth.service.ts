import type { SessionUser } from '../../domain/schemas/auth.schema';
import type { Db } from '../db/database';
import { HttpError } from '../http/errors';
import { decoyPasswordHash, hashPassword, verifyPassword } from './password';
import { presentSessionUser } from './session.plugin';
import { clearLoginFailures, countRecentLoginFailures, recordLoginFailure } from './sessions.repo';
import {
  findCompanyByName,
  findSessionUser,
  findUserByEmail,
  insertCompany,
  insertUser,
  updatePasswordHash,
} from './users.repo';

export const LOGIN_FAILURE_WINDOW_MS = 15 * 60_000;
export const MAX_LOGIN_FAILURES_PER_EMAIL = 5;
export const INVALID_CREDENTIALS = 'Invalid email or password.';
export const TOO_MANY_FAILURES =
  'Too many failed sign-in attempts for this email. Please wait 15 minutes and try again.';

/** Checks the credentials; counts failures per email in the database so every server process sees them. */
export async function authenticate(
  db: Db,
  email: string,
  password: string,
  ip: string,
): Promise<SessionUser> {
  const since = new Date(Date.now() - LOGIN_FAILURE_WINDOW_MS).toISOString();
  if ((await countRecentLoginFailures(db, email, since)) >= MAX_LOGIN_FAILURES_PER_EMAIL) {
    throw new HttpError(429, [TOO_MANY_FAILURES]);
  }
  const user = await findUserByEmail(db, email);
  const ok = await verifyPassword(user?.password_hash ?? (await decoyPasswordHash()), password);
  if (!user || !ok) {
    await recordLoginFailure(db, email, ip);
    throw new HttpError(401, [INVALID_CREDENTIALS]);
  }
  await clearLoginFailures(db, email);
  const row = await findSessionUser(db, user.id);
  if (!row) throw new HttpError(401, [INVALID_CREDENTIALS]);
  return presentSessionUser(row);
}

/** Creates the company when it does not exist yet, then the user in it. */
export async function createAccount(db: Db, input: { company: string; email: string; password: string }) {
  if (await findUserByEmail(db, input.email))
    throw new HttpError(409, [`A user with email ${input.email} already exists.`]);
  const passwordHash = await hashPassword(input.password);
  return db.transaction().execute(async (trx) => {
    const company =
      (await findCompanyByName(trx, input.company)) ?? (await insertCompany(trx, input.company));
    const user = await insertUser(trx, {
      companyId: company.id,
      email: input.email,
      username: input.email.split('@')[0] ?? input.email,
      passwordHash,
    });
    return { company, user };
  });
}

export async function resetPassword(db: Db, email: string, password: string) {
  const user = await findUserByEmail(db, email);
  if (!user) throw new HttpError(404, [`No user with email ${email}.`]);
  await updatePasswordHash(db, user.id, await hashPassword(password));
  await clearLoginFailures(db, email);
}
