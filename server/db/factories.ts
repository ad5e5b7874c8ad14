import type { Role } from '../../domain/rules/roles';
import { createAccount } from '../auth/auth.service';
import type { Db } from './database';

let sequence = 0;
/** A short unique suffix so factories never collide, within one test run or across runs. */
export function uniqueSuffix(): string {
  sequence += 1;
  return `${Date.now().toString(36)}${process.pid.toString(36)}${sequence}`;
}

export interface BuiltAccount {
  companyId: number;
  companyName: string;
  userId: number;
  email: string;
  password: string;
}

/** A company with one user who can sign in. */
export async function buildAccount(
  db: Db,
  overrides: { company?: string; email?: string; password?: string; role?: Role } = {},
): Promise<BuiltAccount> {
  const suffix = uniqueSuffix();
  const company = overrides.company ?? `Test Movers ${suffix}`;
  const email = (overrides.email ?? `user-${suffix}@example.test`).toLowerCase();
  const password = overrides.password ?? `pw-${suffix}-secret`;
  const created = await createAccount(db, { company, email, password, role: overrides.role });
  return { companyId: created.company.id, companyName: company, userId: created.user.id, email, password };
}
