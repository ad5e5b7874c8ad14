import type { Role } from '@domain/rules/roles';
import type { BuiltAccount } from './db/factories';
import type { Db } from './db/database';
import { uniqueSuffix } from './db/factories';
import { createAccount } from './auth/auth.service';

// The one factories module for the demo seed, API tests, browser tests and benches: every builder goes through
// the same services as the API. Each feature keeps its own builders beside its code; this module gathers them.
export { type BuiltAccount, uniqueSuffix } from './db/factories';
export {
  type BuildWarehouseOptions,
  type BuiltField,
  type BuiltWarehouse,
  buildWarehouse,
} from './features/warehouses/warehouses.factories';
export { makeCouchbox, markFieldFull } from './features/fields/fields.factories';
export {
  type BuildStagedVaultOptions,
  type BuildVaultOptions,
  buildStagedVault,
  buildVault,
} from './features/vaults/vaults.factories';
export { type BuiltRack, buildPallet, buildRack } from './features/racks/racks.factories';
export { type BuiltChecklist, buildChecklist } from './features/checklists/checklists.factories';

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
