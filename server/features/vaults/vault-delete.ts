import type { Actor } from '../../auth/actor';
import type { Db } from '../../db/database';
import type { Trx } from '../../db/locks';
import { type EventRecord, recordEvent } from '../../events/event-log.repo';
import { conflict, notFound } from '../../http/errors';
import type { DeleteVaultAnswer } from '@domain/schemas/vault.schema';
export type { DeleteVaultAnswer };
import type { FieldDto, WarehouseSummaryDto } from '@domain/schemas/warehouse.schema';
import { loadField } from '../fields/field-loader';
import { presentField } from '../fields/fields.presenter';
import { type LockedFieldRow, setFieldFull } from '../fields/fields.repo';
import type { WarehouseWithStatsRow } from '../warehouses/warehouses.repo';
import { loadWarehouseSummary, summaryWithoutVault } from '../warehouses/warehouses.service';
import { deleteUnusedNames } from '../../customers/customers.repo';
import { placeOf, vaultEvent } from './vault-history';
import { VAULT_NOT_FOUND } from './vault-loader';
import { CONCURRENT_CHANGE, lockForVaultWork, runVaultWrite } from './vault-stores';
import { attachmentsByVault, presentVault } from './vaults.presenter';
import {
  type PlacementState,
  type VaultRow,
  deleteVaultRow,
  findVaultAndLockWarehouse,
  readPlacement,
  writeRemoval,
} from './vaults.repo';

/**
 * Checks of other features before a vault is deleted (the core imports none of them; feature-routes.ts registers
 * them): billing refuses a vault of an account on hold (decision 051).
 */
export type VaultDeleteCheck = (db: Db, companyId: number, vaultId: number) => Promise<void>;
const deleteChecks = new Set<VaultDeleteCheck>();
export function beforeVaultDelete(check: VaultDeleteCheck): void {
  deleteChecks.add(check);
}

/** The delete of a vault (issue 26): its one flow, and its two stores (locking, one statement). */

/** DELETE /api/vaults/{id}: removes the vault, its attachments, and customers/orders nothing uses any more. */
export async function deleteVault(db: Db, actor: Actor, vaultId: number): Promise<DeleteVaultAnswer> {
  for (const check of deleteChecks) await check(db, actor.companyId, vaultId);
  const stores = {
    locking: (trx: Trx) => lockingDeleteStore(trx, actor),
    oneStatement: (d: Db) => oneStatementDeleteStore(d, actor),
  };
  return runVaultWrite(db, stores, (store) => deleteWith(store, actor, vaultId));
}

/** The delete: the vault as the store reads it, the store's write, and what it left behind as the store knows it. */
async function deleteWith(store: DeleteStore, actor: Actor, vaultId: number): Promise<DeleteVaultAnswer> {
  const vault = await store.readVault(vaultId);
  if (!vault) throw notFound(VAULT_NOT_FOUND);
  await store.remove(vault, deletedEvent(actor, vault));
  const left = await store.leftBehind(vault);
  return left ? { deleteFrom: 'field', vaultId, ...left } : { deleteFrom: 'stage', vaultId };
}

/** `before`: the vault where it stood when it was removed. */
function deletedEvent(actor: Actor, before: VaultRow): EventRecord {
  return vaultEvent(actor, 'vault.deleted', before, before.warehouse_id, {
    fieldId: before.field_id,
    position: before.position,
    before: placeOf(before),
    after: null,
    vault: { order: before.order_name, type: before.type, note: before.note },
  });
}

/** What a delete answers beside the vault's id: the field it left and its warehouse's counts, both without it. */
export interface LeftBehind {
  field: FieldDto;
  warehouse: WarehouseSummaryDto;
}

/** What a delete reads and writes. */
export interface DeleteStore {
  db: Db;
  /** the vault where it stands (as locked or read); undefined when it is not the company's or is gone */
  readVault(vaultId: number): Promise<VaultRow | undefined>;
  /** the vault removed, with its customer and order when nothing else uses them, its field's full flag and the event */
  remove(vault: VaultRow, event: EventRecord): Promise<void>;
  /** after `remove`: the field and warehouse the vault left; undefined when it left the stage */
  leftBehind(vault: VaultRow): Promise<LeftBehind | undefined>;
}

/** The delete inside a transaction: the warehouse shared, the field and the vault locked, then statement by statement. */
export function lockingDeleteStore(trx: Trx, actor: Actor): DeleteStore {
  let locked = new Map<number, LockedFieldRow>();
  return {
    db: trx,
    async readVault(vaultId) {
      const before = await findVaultAndLockWarehouse(trx, actor.companyId, vaultId);
      if (!before) return undefined;
      const { fields, vaults } = await lockForVaultWork(trx, actor, {
        fieldIds: [before.field_id],
        vaultIds: [vaultId],
      });
      locked = fields;
      const vault = vaults.get(vaultId);
      if (!vault) return undefined;
      if (vault.field_id !== before.field_id) throw conflict(CONCURRENT_CHANGE);
      const { position, customer_id, order_id } = vault;
      return { ...before, position, customer_id, order_id };
    },
    async remove(vault, event) {
      await deleteVaultRow(trx, actor.companyId, vault.id);
      const orderIds = vault.order_id === null ? [] : [vault.order_id];
      await deleteUnusedNames(trx, actor.companyId, [vault.customer_id], orderIds);
      const field = vault.field_id === null ? undefined : locked.get(vault.field_id);
      // the flag goes off when a vault leaves a field; a write only when it was on
      if (field?.full) await setFieldFull(trx, actor.companyId, field.id, false);
      await recordEvent(trx, event);
    },
    async leftBehind(vault) {
      if (vault.field_id === null || vault.warehouse_id === null) return undefined;
      const field = await loadField(trx, actor.companyId, vault.field_id);
      const warehouse = await loadWarehouseSummary(trx, actor.companyId, vault.warehouse_id);
      return { field, warehouse };
    },
  };
}

/**
 * The delete on PostgreSQL: the vault with the vaults of its field read in one statement, the write in one that holds
 * if unchanged and sees the warehouse's counts before the vault was counted out, so the answer needs no third one.
 */
export function oneStatementDeleteStore(db: Db, actor: Actor): DeleteStore {
  let state: PlacementState | undefined;
  let warehouseBefore: WarehouseWithStatsRow | null = null;
  const fieldOf = (vault: VaultRow) =>
    vault.field_id === null ? undefined : state!.fields.get(vault.field_id);
  return {
    db,
    async readVault(vaultId) {
      state = await readPlacement(db, actor.companyId, vaultId, null, { neighbours: true });
      return state.vault;
    },
    async remove(vault, event) {
      const field = fieldOf(vault);
      const placement = { companyId: actor.companyId, fields: field ? [field] : [] };
      ({ warehouseBefore } = await writeRemoval(db, placement, vault, event));
    },
    async leftBehind(vault) {
      const field = fieldOf(vault);
      if (!field || vault.warehouse_id === null) return undefined;
      // every warehouse has its counts from its insert on (migration 0005)
      if (!warehouseBefore) throw new Error(`warehouse ${vault.warehouse_id} has no counts`);
      const files = attachmentsByVault(state!.neighbourFiles);
      const left = state!.neighbours
        .filter((v) => v.id !== vault.id)
        .map((v) => presentVault(v, files.get(v.id)));
      const warehouse = summaryWithoutVault(warehouseBefore, vault);
      return { field: presentField({ ...field, full: 0 }, left), warehouse };
    },
  };
}
