import type { Actor } from '../../auth/actor';
import { findOrCreateCustomer, findOrCreateOrder } from '../../customers/customers.repo';
import type { Db } from '../../db/database';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/database';
import { isLostRace, isPostgres, lockWarehouses, type Trx } from '../../db/locks';
import { type EventRecord, recordEvent } from '../../events/event-log.repo';
import { conflict } from '../../http/errors';
import type { UploadedFile } from '../../http/form-reader';
import {
  type LockedFieldRow,
  findFieldAndLockWarehouse,
  lockAndFindFields,
  setFieldFull,
} from '../fields/fields.repo';
import type { VaultDetails } from '@domain/rules/placeholders';
import { SLOT_TAKEN } from '@domain/rules/slots';
import { insertAttachment } from './attachments.repo';
import type { AttachmentRow } from './attachments.repo';
import { findAttachmentsOfVaults } from './attachments.repo';
import {
  type FieldState,
  type LockedVaultRow,
  type PlacementState,
  type VaultRow,
  findVaultAndLockWarehouse,
  placeVault,
  writePlacement,
  type NewVaultByName,
  insertVault,
  lockAndFindVaults,
  occupiedPositions,
  readPlacement,
  writeNewVault,
} from './vaults.repo';

/**
 * The repository side of the vault writes (issue 26): each write's service is one flow (read what it decides on, ask
 * the domain, write), and the engines differ only here. Inside a transaction a store locks as decision 003 says and
 * writes statement by statement; on PostgreSQL outside one (the API's own writes) it reads in one statement without
 * locks and writes in one that holds only if what it read is unchanged (decision 014), tried again while it loses.
 */

export const CONCURRENT_CHANGE =
  'Someone else changed this data at the same time. Please refresh and try again.';

/** Unique-slot and vanished-reference races end as a clear 409 rather than a server error. */
export async function withConflictMapping<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(SLOT_TAKEN);
    if (isForeignKeyViolation(error)) throw conflict(CONCURRENT_CHANGE);
    throw error;
  }
}

/**
 * A one-statement write (PostgreSQL) again while it loses races: each try reads afresh. A foreign-key refusal is a lost
 * race there too (a name taken up, or a row removed, by another writer since the read), and the statement was undone
 * whole. After eight lost races in a row the client gets the 409 (`withConflictMapping`, as the transactional path).
 */
export async function retryLostRaces<T>(work: () => Promise<T>): Promise<T> {
  return withConflictMapping(async () => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await work();
      } catch (error) {
        if (!(isLostRace(error) || isForeignKeyViolation(error)) || attempt >= 8) throw error;
      }
    }
  });
}

/**
 * Runs a write with the store of the engine: the one-statement store on PostgreSQL when the write allows it
 * (`oneStatement`), else the locking store in a transaction of its own.
 */
export async function runVaultWrite<S, T>(
  db: Db,
  stores: { locking: (trx: Trx) => S; oneStatement?: (db: Db) => S },
  work: (store: S) => Promise<T>,
): Promise<T> {
  const { oneStatement } = stores;
  if (oneStatement && isPostgres(db)) return retryLostRaces(() => work(oneStatement(db)));
  return withConflictMapping(() => db.transaction().execute((trx) => work(stores.locking(trx))));
}

/**
 * The locks of vault work (docs/decisions/003-locking.md): the warehouses shared, then the fields and then the vaults,
 * each in id order, each step one statement that also reads what it locked. Answers the fields and vaults as they are
 * once locked; one removed meanwhile is missing from its map. A write in one warehouse has taken step 1 already, in
 * the read that found its field or vault (`findFieldAndLockWarehouse`, `findVaultAndLockWarehouse`), and names no
 * `warehouseIds`; a move names both warehouses, which are locked here in id order.
 */
export async function lockForVaultWork(
  trx: Trx,
  actor: Actor,
  places: { warehouseIds?: (number | null)[]; fieldIds: (number | null)[]; vaultIds?: number[] },
): Promise<{ fields: Map<number, LockedFieldRow>; vaults: Map<number, LockedVaultRow> }> {
  await lockWarehouses(trx, places.warehouseIds ?? [], 'share');
  const fieldIds = places.fieldIds.filter((id): id is number => id !== null);
  const fields = await lockAndFindFields(trx, actor.companyId, fieldIds);
  const vaults = await lockAndFindVaults(trx, actor.companyId, places.vaultIds ?? []);
  return { fields: new Map(fields.map((f) => [f.id, f])), vaults: new Map(vaults.map((v) => [v.id, v])) };
}

export async function resolveNames(db: Db, companyId: number, details: VaultDetails) {
  const customerId = await findOrCreateCustomer(db, companyId, details.customerName);
  const orderId = details.orderName ? await findOrCreateOrder(db, companyId, details.orderName) : null;
  return { customerId, orderId };
}

/** A field as a write decides on it: locked (or read in one snapshot), with the slots taken in it. */
export type FieldWithSlots = LockedFieldRow & { occupied: { id: number; position: number }[] };

/** What an add reads and writes. */
export interface AddStore {
  /** the connection the answer is read with */
  db: Db;
  /** the field, as locked or as read, with its taken slots; undefined when it is not the company's or is gone */
  readField(fieldId: number): Promise<FieldWithSlots | undefined>;
  /** the new vault, its names found or created, and its event (whose entity is the new vault) */
  insert(
    field: FieldWithSlots,
    vault: NewVaultByName,
    event: EventRecord,
    file?: UploadedFile,
  ): Promise<{ id: number; version: number; customer_id: number; order_id: number | null }>;
}

/** The add inside a transaction: the field's warehouse shared and the field locked, then statement by statement. */
export function lockingAddStore(trx: Trx, actor: Actor): AddStore {
  return {
    db: trx,
    async readField(fieldId) {
      const located = await findFieldAndLockWarehouse(trx, actor.companyId, fieldId);
      if (!located) return undefined;
      const { fields } = await lockForVaultWork(trx, actor, { fieldIds: [located.id] });
      // the field may have gone with a removed row while this waited
      const field = fields.get(located.id);
      return field && { ...field, occupied: await occupiedPositions(trx, actor.companyId, field.id) };
    },
    async insert(_field, vault, event, file) {
      const details = { customerName: vault.customerName, orderName: vault.orderName } as VaultDetails;
      const { customerId, orderId } = await resolveNames(trx, actor.companyId, details);
      const inserted = await insertVault(trx, { ...vault, customerId, orderId });
      if (file) await insertAttachment(trx, { companyId: actor.companyId, vaultId: inserted.id, ...file });
      await recordEvent(trx, { ...event, entityId: inserted.id });
      return { ...inserted, customer_id: customerId, order_id: orderId };
    },
  };
}

/** The add on PostgreSQL: its field read in one statement, the vault written in one that holds if the field is as read. */
export function oneStatementAddStore(db: Db, actor: Actor): AddStore {
  const read = new Map<number, FieldState>();
  return {
    db,
    async readField(fieldId) {
      const field = (await readPlacement(db, actor.companyId, null, fieldId)).fields.get(fieldId);
      if (field) read.set(field.id, field);
      return field;
    },
    // the write holds on to the field as it was read (its row version)
    insert: (field, vault, event) =>
      writeNewVault(db, { companyId: actor.companyId, fields: [read.get(field.id)!] }, vault, event),
  };
}

/** A vault as a stage decides on it: where it stands (as locked or read), its field with the slots taken there. */
export interface VaultInField {
  vault: VaultRow;
  /** its field, unless it waits on the stage */
  field: FieldWithSlots | undefined;
  /** the vault changed between the first read and the locks: the answer is read again */
  stale: boolean;
}

/** What a stage reads and writes. */
export interface StageStore {
  db: Db;
  /** the vault and its field; undefined when it is not the company's or is gone */
  readVault(vaultId: number): Promise<VaultInField | undefined>;
  /** the vault off its field (whose full flag goes off), with the event */
  takeOff(read: VaultInField & { field: FieldWithSlots }, event: EventRecord): Promise<void>;
  /** the vault's attachments, for the answer */
  files(vaultId: number): Promise<AttachmentRow[]>;
}

/** The stage inside a transaction: the warehouse shared, the field and the vault locked, then statement by statement. */
export function lockingStageStore(trx: Trx, actor: Actor): StageStore {
  return {
    db: trx,
    async readVault(vaultId) {
      const before = await findVaultAndLockWarehouse(trx, actor.companyId, vaultId);
      if (!before) return undefined;
      if (before.field_id === null) return { vault: before, field: undefined, stale: false };
      const { fields, vaults } = await lockForVaultWork(trx, actor, {
        fieldIds: [before.field_id],
        vaultIds: [vaultId],
      });
      const field = fields.get(before.field_id);
      const vault = vaults.get(vaultId);
      if (!vault) return undefined;
      if (vault.field_id !== before.field_id) throw conflict(CONCURRENT_CHANGE);
      return {
        vault: { ...before, position: vault.position, version: vault.version },
        field: field && { ...field, occupied: await occupiedPositions(trx, actor.companyId, field.id) },
        stale: vault.version !== before.version,
      };
    },
    async takeOff({ vault, field }, event) {
      await placeVault(trx, actor.companyId, vault.id, { fieldId: null, position: null });
      // the flag goes off when a vault leaves a field; a write only when it was on
      if (field.full) await setFieldFull(trx, actor.companyId, field.id, false);
      await recordEvent(trx, event);
    },
    files: (vaultId) => findAttachmentsOfVaults(trx, actor.companyId, [vaultId]),
  };
}

/** The stage on PostgreSQL: the vault and its field read in one statement, the write in one that holds if unchanged. */
export function oneStatementStageStore(db: Db, actor: Actor): StageStore {
  let state: PlacementState | undefined;
  return {
    db,
    async readVault(vaultId) {
      state = await readPlacement(db, actor.companyId, vaultId, null);
      const vault = state.vault;
      if (!vault) return undefined;
      const field = vault.field_id === null ? undefined : state.fields.get(vault.field_id);
      return { vault, field, stale: false };
    },
    async takeOff({ vault, field }, event) {
      const read = state!.fields.get(field.id)!;
      await writePlacement(db, { companyId: actor.companyId, fields: [read] }, vault, NOWHERE, event);
    },
    files: async () => state?.files ?? [],
  };
}

const NOWHERE = { fieldId: null, position: null };
