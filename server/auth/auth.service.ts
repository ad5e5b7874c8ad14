import type { Role } from '@domain/rules/roles';
import type { SessionUser } from '@domain/schemas/auth.schema';
import type { Db } from '../db/database';
import { HttpError, badRequest } from '../http/errors';
import { decoyPasswordHash, hashPassword, verifyPassword } from './password';
import { passwordProblems } from './password-policy';
import { presentSessionUser } from './session.plugin';
import {
  clearLoginFailures,
  deleteLoginAttempt,
  deleteSessionsOfUser,
  insertLoginAttempt,
  loginFailuresBefore,
} from './sessions.repo';
import {
  findCompanyByName,
  findSessionUser,
  findUserByEmail,
  insertCompany,
  insertUser,
  noteSignIn,
  updatePasswordHash,
} from './users.repo';

/** failures older than this no longer count (and housekeeping deletes them) */
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60_000;
/** failures for one e-mail before each further attempt has to wait */
export const FREE_FAILURES_PER_EMAIL = 5;
export const MAX_EMAIL_DELAY_S = 60;
export const INVALID_CREDENTIALS = 'Invalid email or password.';
export const ACCOUNT_DEACTIVATED =
  'Your account has been deactivated. Ask a Manager of your company to reactivate it.';
export const tooManyForEmail = (seconds: number) =>
  `Too many failed sign-ins for this e-mail. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`;
export const tooManyFromAddress = (minutes: number) =>
  `Too many failed sign-ins from this address. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;

/** After the free failures, the wait before the next attempt for that e-mail: 1 s, 2 s, 4 s ... at most 60 s. */
export function emailDelaySeconds(failures: number): number {
  if (failures < FREE_FAILURES_PER_EMAIL) return 0;
  return Math.min(MAX_EMAIL_DELAY_S, 2 ** (failures - FREE_FAILURES_PER_EMAIL));
}

export interface SignInLimits {
  /** failed sign-ins per client address within the window before that address is turned away */
  failuresPerAddress: number;
}

/**
 * Checks the credentials. Only failures count, in the database so every server process sees them: repeated
 * failures for one e-mail slow down (growing waits, never a lock the owner cannot outwait within a minute), and
 * one address may fail generously often (an office signs in behind one address). A success clears the e-mail's
 * failures and counts against nobody.
 */
export async function authenticate(
  db: Db,
  email: string,
  password: string,
  ip: string,
  limits: SignInLimits,
): Promise<SessionUser> {
  const now = Date.now();
  const attempt = await insertLoginAttempt(db, email, ip);
  const before = await loginFailuresBefore(db, {
    email,
    ip,
    beforeId: attempt,
    since: new Date(now - LOGIN_FAILURE_WINDOW_MS).toISOString(),
  });
  if (before.ipCount >= limits.failuresPerAddress) {
    await deleteLoginAttempt(db, attempt);
    const freeAt = Date.parse(before.ipOldest ?? new Date(now).toISOString()) + LOGIN_FAILURE_WINDOW_MS;
    throw new HttpError(429, [tooManyFromAddress(Math.max(1, Math.ceil((freeAt - now) / 60_000)))]);
  }
  const delay = emailDelaySeconds(before.emailCount) * 1000;
  const waitMs = before.emailLatest ? Date.parse(before.emailLatest) + delay - now : 0;
  if (delay > 0 && waitMs > 0) {
    await deleteLoginAttempt(db, attempt);
    throw new HttpError(429, [tooManyForEmail(Math.ceil(waitMs / 1000))]);
  }

  const user = await findUserByEmail(db, email);
  const ok = await verifyPassword(user?.password_hash ?? (await decoyPasswordHash()), password);
  // a failure stays written as the attempt
  if (!user || !ok) throw new HttpError(401, [INVALID_CREDENTIALS]);
  // only the right password learns that the account is deactivated (a wrong one answers as above); it is not a
  // failure of the e-mail, so the attempt is taken back
  if (user.active !== 1) {
    await deleteLoginAttempt(db, attempt);
    throw new HttpError(403, [ACCOUNT_DEACTIVATED]);
  }
  await clearLoginFailures(db, email);
  await noteSignIn(db, user.id);
  const row = await findSessionUser(db, user.id);
  if (!row) throw new HttpError(401, [INVALID_CREDENTIALS]);
  return presentSessionUser(row);
}

function refuseWeakPassword(password: string, context: string[]) {
  const problems = passwordProblems(password, context);
  if (problems.length > 0) throw badRequest(...problems);
}

/** Creates the company when it does not exist yet, then the user in it. */
export async function createAccount(
  db: Db,
  input: { company: string; email: string; password: string; role?: Role },
) {
  if (await findUserByEmail(db, input.email))
    throw new HttpError(409, [`A user with email ${input.email} already exists.`]);
  refuseWeakPassword(input.password, [input.email, input.company]);
  const passwordHash = await hashPassword(input.password);
  return db.transaction().execute(async (trx) => {
    const company =
      (await findCompanyByName(trx, input.company)) ?? (await insertCompany(trx, input.company));
    const user = await insertUser(trx, {
      companyId: company.id,
      email: input.email,
      username: input.email.split('@')[0] ?? input.email,
      passwordHash,
      role: input.role,
    });
    return { company, user };
  });
}

/** Sets a new password and ends every session of the user: whoever held the old one is signed out. */
export async function resetPassword(db: Db, email: string, password: string) {
  const user = await findUserByEmail(db, email);
  if (!user) throw new HttpError(404, [`No user with email ${email}.`]);
  refuseWeakPassword(password, [email]);
  const passwordHash = await hashPassword(password);
  await db.transaction().execute(async (trx) => {
    await updatePasswordHash(trx, user.id, passwordHash);
    await deleteSessionsOfUser(trx, user.id);
    await clearLoginFailures(trx, email);
  });
}

/** Whether the seeded demo account still signs in with the password the README publishes. */
export async function demoPasswordInUse(db: Db, demo: { email: string; password: string }): Promise<boolean> {
  const user = await findUserByEmail(db, demo.email);
  return user !== undefined && (await verifyPassword(user.password_hash, demo.password));
}
