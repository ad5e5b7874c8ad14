import { HELD_NEEDS_MANAGER, HELD_NEEDS_REASON, mayHold, notOverdueEnough } from '@domain/billing/holds';
import { type Role, roleAllows } from '@domain/rules/roles';
import type { AccountDto, HoldsDto } from '@domain/schemas/billing.schema';
import type { Actor } from '../../auth/actor';
import { actorName } from '../../auth/users.repo';
import { type Db, nowIso } from '../../db/database';
import type { Trx } from '../../db/locks';
import { recordEvent } from '../../events/event-log.repo';
import { conflict, forbidden, notFound } from '../../http/errors';
import { findAccounts, insertHistory } from './accounts.repo';
import { ACCOUNT_NOT_FOUND, accountDaysOverdue, getAccount } from './accounts.service';
import { findBillingSettings } from './billing-settings.repo';
import { findHeldPallets, findHeldUnits, setOnHold } from './holds.repo';

// Issue 28, decision 039: an overdue account on hold, its units' badge, and the Manager's override to let one leave.

export const ALREADY_ON_HOLD = 'This account is already on hold.';
export const NOT_ON_HOLD = 'This account is not on hold.';

/**
 * POST /api/storage-accounts/:id/hold: puts an account overdue past the company's "days overdue before a hold" on
 * hold (409 when it is not overdue enough, or on hold already); the hold goes into the account's history.
 */
export async function putOnHold(db: Db, actor: Actor, accountId: number): Promise<AccountDto> {
  await db.transaction().execute(async (trx) => {
    if (!(await findAccounts(trx, actor.companyId, accountId))[0]) throw notFound(ACCOUNT_NOT_FOUND);
    const settings = await findBillingSettings(trx, actor.companyId);
    const overdue = await accountDaysOverdue(trx, actor.companyId, accountId);
    if (!mayHold(overdue, settings.hold_after_days))
      throw conflict(notOverdueEnough(overdue, settings.hold_after_days));
    if (!(await setOnHold(trx, actor.companyId, accountId, true))) throw conflict(ALREADY_ON_HOLD);
    await insertHistory(trx, [
      {
        company_id: actor.companyId,
        account_id: accountId,
        kind: 'hold',
        detail: `Put on hold: ${overdue} days overdue. Its units leave only with a Manager's override.`,
        created_by: await actorName(trx, actor.userId),
        created_at: nowIso(),
      },
    ]);
  });
  return getAccount(db, actor.companyId, accountId);
}

/** DELETE /api/storage-accounts/:id/hold: lifts the hold (409 when the account is not on hold). */
export async function liftHold(db: Db, actor: Actor, accountId: number): Promise<AccountDto> {
  await db.transaction().execute(async (trx) => {
    if (!(await findAccounts(trx, actor.companyId, accountId))[0]) throw notFound(ACCOUNT_NOT_FOUND);
    if (!(await setOnHold(trx, actor.companyId, accountId, false))) throw conflict(NOT_ON_HOLD);
    await insertHistory(trx, [
      {
        company_id: actor.companyId,
        account_id: accountId,
        kind: 'hold-lifted',
        detail: 'Hold lifted.',
        created_by: await actorName(trx, actor.userId),
        created_at: nowIso(),
      },
    ]);
  });
  return getAccount(db, actor.companyId, accountId);
}

/** GET /api/holds: the units on hold, for the badge; no amounts, so every member may read it. */
export async function listHolds(db: Db, companyId: number): Promise<HoldsDto> {
  const [units, pallets] = await Promise.all([findHeldUnits(db, companyId), findHeldPallets(db, companyId)]);
  return { vault_ids: units.map((u) => u.vault_id), pallet_ids: pallets.map((p) => p.pallet_id) };
}

/** A unit of an account on hold about to leave: a vault (pulled, released) or a pallet (deleted from its shelf). */
interface HeldUnit {
  entityType: 'vault' | 'pallet';
  id: number;
  /** as the account's history names it ("HOLD-1", "pallet P-7") */
  name: string;
  /** its number, for the history's search */
  subject: string | null;
  accountId: number;
}

/**
 * The hook of every way a unit leaves the warehouse (a pull-list step, a release): units of an account on hold leave
 * only with a Manager's override with a reason (403 for other roles, 409 without a reason). An override is written to
 * the vault's history (the event log) and to its account's history.
 */
export async function checkHoldOverride(
  trx: Trx,
  actor: Actor & { role: Role },
  vaultIds: number[],
  reason: string | undefined,
  what: 'pulled' | 'released',
): Promise<void> {
  const held = await findHeldUnits(trx, actor.companyId, vaultIds);
  await overrideHold(
    trx,
    actor,
    held.map((u) => ({
      entityType: 'vault',
      id: u.vault_id,
      name: u.name ?? `unit #${u.vault_id}`,
      subject: u.name,
      accountId: u.account_id,
    })),
    reason,
    what,
  );
}

/** The same for pallets, which leave by being deleted from their shelf (issue 28). */
export async function checkPalletHoldOverride(
  trx: Trx,
  actor: Actor & { role: Role },
  palletIds: number[],
  reason: string | undefined,
): Promise<void> {
  const held = await findHeldPallets(trx, actor.companyId, { palletIds });
  await overrideHold(trx, actor, held.map(heldPallet), reason, 'released');
}

const heldPallet = (p: {
  pallet_id: number;
  pallet_number: string | null;
  name: string | null;
  account_id: number;
}) =>
  ({
    entityType: 'pallet',
    id: p.pallet_id,
    name: `pallet ${p.pallet_number ?? p.name ?? `#${p.pallet_id}`}`,
    subject: p.pallet_number ?? p.name,
    accountId: p.account_id,
  }) as const;

async function overrideHold(
  trx: Trx,
  actor: Actor & { role: Role },
  held: HeldUnit[],
  reason: string | undefined,
  what: 'pulled' | 'released',
): Promise<void> {
  if (held.length === 0) return;
  if (!roleAllows(actor.role, 'manager')) throw forbidden(HELD_NEEDS_MANAGER);
  const why = reason?.trim();
  if (!why) throw conflict(HELD_NEEDS_REASON);
  const who = await actorName(trx, actor.userId);
  const at = nowIso();
  for (const unit of held)
    await recordEvent(trx, {
      companyId: actor.companyId,
      userId: actor.userId,
      kind: `${unit.entityType}.hold-override`,
      entityType: unit.entityType,
      entityId: unit.id,
      subject: unit.subject,
      payload: { reason: why, action: what, accountId: unit.accountId },
    });
  await insertHistory(
    trx,
    held.map((unit) => ({
      company_id: actor.companyId,
      account_id: unit.accountId,
      kind: 'hold-override',
      detail: `Hold overridden: ${unit.name} ${what}. Reason: ${why}`,
      created_by: who,
      created_at: at,
    })),
  );
}

export const HELD_NOT_DELETED =
  "This vault's storage account is on hold: it cannot be deleted. A Manager releases it through a pull list with a reason, or the office lifts the hold first.";

/**
 * Before a vault is deleted (registered by feature-routes.ts): a unit of an account on hold leaves only through a pull
 * list with a Manager's override, so deleting it around the hold is refused for every role (decision 051).
 */
export async function refuseHeldVaultDelete(db: Db, companyId: number, vaultId: number): Promise<void> {
  if ((await findHeldUnits(db, companyId, [vaultId])).length > 0) throw conflict(HELD_NOT_DELETED);
}

export const HELD_IN_WAREHOUSE =
  'This warehouse holds units of a storage account on hold: it cannot be deleted. A Manager releases them with a reason, or the office lifts the hold first.';
export const HELD_ON_RACK =
  'This rack holds pallets of a storage account on hold: it cannot be deleted. A Manager deletes each pallet with a reason, or the office lifts the hold first.';

/**
 * Before a warehouse is deleted (a removal step registered by feature-routes.ts): its units would leave with it, around
 * the hold, so a warehouse holding a unit or pallet of an account on hold is refused for every role (decision 051).
 */
export async function refuseHeldUnitsOfWarehouse(trx: Trx, actor: Actor, warehouse: { id: number }) {
  const [vaults, pallets] = await Promise.all([
    findHeldUnits(trx, actor.companyId, undefined, warehouse.id),
    findHeldPallets(trx, actor.companyId, { warehouseId: warehouse.id }),
  ]);
  if (vaults.length > 0 || pallets.length > 0) throw conflict(HELD_IN_WAREHOUSE);
  return {};
}

/** Before a rack is deleted with its pallets: the same refusal for pallets of an account on hold. */
export async function refuseHeldPalletsOfRack(trx: Trx, companyId: number, rackId: number): Promise<void> {
  if ((await findHeldPallets(trx, companyId, { rackId })).length > 0) throw conflict(HELD_ON_RACK);
}
