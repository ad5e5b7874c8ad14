import type { Actor } from '../../auth/actor';
import type { Db } from '../../db/database';
import type { Trx } from '../../db/locks';
import { type EventRecord } from '../../events/event-log.repo';
import { badRequest, notFound } from '../../http/errors';
import { topmostPosition } from '@domain/rules/capacity';
import { fieldName } from '@domain/rules/field-names';
import type { VaultBasis } from '@domain/schemas/vault.schema';
import type { VaultDto } from '@domain/schemas/warehouse.schema';
import { type LockedFieldRow } from '../fields/fields.repo';
import { checkVaultBasis } from './vault-basis';
import { placeOf, vaultEvent } from './vault-history';
import { ALREADY_STAGED, ONLY_TOPMOST_STAGED, VAULT_NOT_FOUND, loadVault } from './vault-loader';
import { lockingStageStore, type StageStore, oneStatementStageStore, runVaultWrite } from './vault-stores';
import { attachmentsByVault, presentVault } from './vaults.presenter';
import { type VaultRow } from './vaults.repo';

/** The stage of a vault (issue 26): its one flow; its stores are in vault-stores.ts. */

/** POST /api/stage/vaults/{id}: takes the topmost vault off its field onto the stage. */
export async function stageVault(
  db: Db,
  actor: Actor,
  vaultId: number,
  basis?: VaultBasis,
): Promise<VaultDto & { old_field_id: number }> {
  const stores = {
    locking: (trx: Trx) => lockingStageStore(trx, actor),
    oneStatement: (d: Db) => oneStatementStageStore(d, actor),
  };
  return runVaultWrite(db, stores, (store) => stageWith(store, actor, vaultId, basis));
}

/** Staging inside a caller's transaction (a pull list's steps), with every rule and lock of the stage. */
export async function stageVaultIn(
  trx: Trx,
  actor: Actor,
  vaultId: number,
): Promise<VaultDto & { old_field_id: number }> {
  return stageWith(lockingStageStore(trx, actor), actor, vaultId);
}

/** The stage: the vault and its field as the store reads them, only the topmost one, the store's write. */
async function stageWith(
  store: StageStore,
  actor: Actor,
  vaultId: number,
  basis?: VaultBasis,
): Promise<VaultDto & { old_field_id: number }> {
  const read = await store.readVault(vaultId);
  if (!read) throw notFound(VAULT_NOT_FOUND);
  const { vault, field } = read;
  checkVaultBasis(vault, basis);
  if (vault.field_id === null) throw badRequest(ALREADY_STAGED);
  if (!field) throw notFound(VAULT_NOT_FOUND);
  checkTopmost(vault, field.occupied);
  await store.takeOff({ ...read, field }, stagedEvent(actor, vault, field));
  // changed by someone else between the first read and the locks: read it again for the answer
  if (read.stale) return { ...(await loadVault(store.db, actor.companyId, vaultId)), old_field_id: field.id };
  const files = attachmentsByVault(await store.files(vaultId)).get(vaultId);
  return { ...presentVault(stagedRow(vault, vault.version + 1), files), old_field_id: field.id };
}

function checkTopmost(vault: Pick<VaultRow, 'position'>, slots: readonly { position: number }[]): void {
  if (vault.position !== topmostPosition(slots.map((v) => v.position))) throw badRequest(ONLY_TOPMOST_STAGED);
}

/** The vault as it is once staged: off its field, one version on. */
function stagedRow(before: VaultRow, version: number): VaultRow {
  return {
    ...before,
    field_id: null,
    position: null,
    version,
    field_col: null,
    field_row: null,
    warehouse_id: null,
    warehouse_name: null,
  };
}

/** `before`: the vault where it stood (its slot as locked); the names as they were, for the staged card's 'from' line. */
function stagedEvent(actor: Actor, before: VaultRow, field: LockedFieldRow): EventRecord {
  return vaultEvent(actor, 'vault.staged', before, field.warehouse_id, {
    fromFieldId: field.id,
    position: before.position,
    fromWarehouse: before.warehouse_name,
    fromField: fieldName(field.col, field.row),
    before: placeOf(before),
    after: null,
  });
}
