import type { Actor } from '../../auth/actor';
import type { Db } from '../../db/database';
import type { Trx } from '../../db/locks';
import { type EventRecord, recordEvent } from '../../events/event-log.repo';
import { badRequest, conflict, notFound } from '../../http/errors';
import { digOutCount } from '@domain/rules/dig-out';
import { topmostPosition } from '@domain/rules/capacity';
import type { MoveVaultInput } from '@domain/schemas/vault.schema';
import type { VaultDto } from '@domain/schemas/warehouse.schema';
import { FIELD_NOT_FOUND } from '../fields/field-loader';
import { type LockedFieldRow, findField, setFieldFull } from '../fields/fields.repo';
import { type AttachmentRow, findAttachmentsOfVaults } from './attachments.repo';
import { placeOrRefuse, slotField } from './slot-placement';
import { checkVaultBasis } from './vault-basis';
import { placeOf, placedAt, vaultEvent } from './vault-history';
import { ONLY_TOPMOST_MOVED, VAULT_NOT_FOUND, VAULT_RELEASED, loadVault } from './vault-loader';
import { CONCURRENT_CHANGE, type FieldWithSlots, lockForVaultWork, runVaultWrite } from './vault-stores';
import { attachmentsByVault, presentVault } from './vaults.presenter';
import {
  type PlacementState,
  type VaultRow,
  findVault,
  occupiedPositions,
  placeVault,
  readPlacement,
  writePlacement,
} from './vaults.repo';

/** The move of a vault into a slot (issue 26): its one flow, and its two stores (locking, one statement). */

/** A move's place: a slot, or 'next' for the field's next free slot once locked. */
type MoveInput = Omit<MoveVaultInput, 'position'> & { position: number | 'next' };

/**
 * PUT /api/vaults/move: a staged vault (or the topmost of a field) into a free slot of a field. Position 'next'
 * (scan to move, issue 15) takes the field's next free slot as it is once locked, and refuses a full field by name.
 */
export async function moveVault(db: Db, actor: Actor, input: MoveInput): Promise<VaultDto> {
  const stores = {
    locking: (trx: Trx) => lockingMoveStore(trx, actor),
    oneStatement: (d: Db) => oneStatementMoveStore(d, actor),
  };
  return runVaultWrite(db, stores, (store) => moveWith(store, actor, input));
}

/** The move inside a caller's transaction (a pull list's put-back), with every rule and lock of the move. */
export async function moveVaultIn(trx: Trx, actor: Actor, input: MoveInput): Promise<VaultDto> {
  return moveWith(lockingMoveStore(trx, actor), actor, input);
}

/** The move: the vault and the fields as the store reads them, the domain's slot decision, the store's write. */
async function moveWith(store: MoveStore, actor: Actor, input: MoveInput): Promise<VaultDto> {
  const read = await store.readMove(input.vaultId, input.fieldId);
  const { vault, target } = read;
  if (!vault) throw notFound(VAULT_NOT_FOUND);
  if (vault.released_at !== null) throw badRequest(VAULT_RELEASED);
  checkVaultBasis(vault, input.basis);
  if (!target) throw notFound(FIELD_NOT_FOUND);
  const move = decideMove(vault, target, target.occupied, read.leaving, input.position);
  // the vault as it is now, in its new slot, one version on
  const after: VaultRow = { ...vault, ...placedAt(target, move.position), version: vault.version + 1 };
  await store.place(vault, target, move.position, movedEvent(actor, vault, vault.field_id, after));
  // changed by someone else between the first read and the locks: read it again for the answer
  if (read.stale) return loadVault(store.db, actor.companyId, vault.id);
  const files = attachmentsByVault(await store.files(vault.id)).get(vault.id);
  return presentVault(after, files, digOutCount(move.position, move.occupied));
}

/**
 * The move's rules on the vault and the fields as locked (or as read by a one-statement write): only the topmost vault
 * leaves a field (`leaving`: the slots of the field it leaves, if it leaves one), a couchbox only into a couchbox
 * field, into the target's next free slot. Answers the slot and the target's other taken slots.
 */
function decideMove(
  vault: Pick<VaultRow, 'id' | 'type' | 'position' | 'customer_name'>,
  target: LockedFieldRow,
  targetSlots: readonly { id: number; position: number }[],
  leaving: readonly { id: number; position: number }[],
  wanted: number | 'next',
): { position: number; occupied: number[] } {
  if (leaving.length > 0 && vault.position !== topmostPosition(leaving.map((v) => v.position)))
    throw badRequest(ONLY_TOPMOST_MOVED);
  const held = targetSlots.find((v) => v.id === vault.id)?.position ?? null;
  const unit = { type: vault.type, customerName: vault.customer_name, heldSlot: held };
  const occupied = targetSlots.map((v) => v.position);
  const position = placeOrRefuse(slotField(target), occupied, unit, wanted);
  return { position, occupied: targetSlots.filter((v) => v.id !== vault.id).map((v) => v.position) };
}

function movedEvent(
  actor: Actor,
  before: VaultRow,
  fromFieldId: number | null,
  after: VaultRow,
): EventRecord {
  return vaultEvent(actor, 'vault.moved', before, after.warehouse_id, {
    fromFieldId,
    fromWarehouseId: before.warehouse_id,
    fieldId: after.field_id,
    position: after.position,
    before: placeOf(before),
    after: placeOf(after),
  });
}

/** A move as it decides: the vault (as locked or read), the target with its taken slots, the slots of the field left. */
export interface MoveRead {
  /** undefined when it is not the company's or is gone */
  vault: VaultRow | undefined;
  /** undefined when it is not the company's or is gone */
  target: FieldWithSlots | undefined;
  /** the slots taken in the field the vault leaves for another one; empty when it leaves none */
  leaving: { id: number; position: number }[];
  /** the vault changed between the first read and the locks: the answer is read again */
  stale: boolean;
}

/** What a move reads and writes. */
export interface MoveStore {
  db: Db;
  /** the vault and the field it goes to, and the field it leaves */
  readMove(vaultId: number, fieldId: number): Promise<MoveRead>;
  /** the vault into the slot the domain gave (the field it leaves has its full flag off), with the event */
  place(vault: VaultRow, target: FieldWithSlots, position: number, event: EventRecord): Promise<void>;
  files(vaultId: number): Promise<AttachmentRow[]>;
}

const NOTHING_TO_MOVE = { target: undefined, leaving: [], stale: false };

/** The move inside a transaction: both warehouses shared, both fields and the vault locked, in id order. */
export function lockingMoveStore(trx: Trx, actor: Actor): MoveStore {
  let locked = new Map<number, LockedFieldRow>();
  return {
    db: trx,
    async readMove(vaultId, fieldId) {
      const before = await findVault(trx, actor.companyId, vaultId);
      if (!before || before.released_at !== null) return { vault: before, ...NOTHING_TO_MOVE };
      const located = await findField(trx, actor.companyId, fieldId);
      if (!located) return { vault: before, ...NOTHING_TO_MOVE };
      // between two warehouses both are locked, in id order like everything else
      const { fields, vaults } = await lockForVaultWork(trx, actor, {
        warehouseIds: [located.warehouse_id, before.warehouse_id],
        fieldIds: [located.id, before.field_id],
        vaultIds: [before.id],
      });
      locked = fields;
      const target = fields.get(fieldId);
      if (!target) return { vault: before, ...NOTHING_TO_MOVE };
      const vault = vaults.get(vaultId);
      if (!vault) return { vault: undefined, ...NOTHING_TO_MOVE };
      if (vault.field_id !== before.field_id || vault.released_at !== null) throw conflict(CONCURRENT_CHANGE);
      const leaves = vault.field_id !== null && vault.field_id !== target.id;
      return {
        vault: { ...before, position: vault.position, type: vault.type, version: vault.version },
        target: { ...target, occupied: await occupiedPositions(trx, actor.companyId, target.id) },
        leaving: leaves ? await occupiedPositions(trx, actor.companyId, vault.field_id!) : [],
        stale: vault.version !== before.version,
      };
    },
    async place(vault, target, position, event) {
      await placeVault(trx, actor.companyId, vault.id, { fieldId: target.id, position });
      const left =
        vault.field_id === null || vault.field_id === target.id ? undefined : locked.get(vault.field_id);
      // the flag goes off when a vault leaves a field; a write only when it was on
      if (left?.full) await setFieldFull(trx, actor.companyId, left.id, false);
      await recordEvent(trx, event);
    },
    files: (vaultId) => findAttachmentsOfVaults(trx, actor.companyId, [vaultId]),
  };
}

/** The move on PostgreSQL: the vault and both fields read in one statement, the write in one that holds if unchanged. */
export function oneStatementMoveStore(db: Db, actor: Actor): MoveStore {
  let state: PlacementState | undefined;
  const leftField = (vault: VaultRow, target: FieldWithSlots) =>
    vault.field_id === null || vault.field_id === target.id ? undefined : state!.fields.get(vault.field_id);
  return {
    db,
    async readMove(vaultId, fieldId) {
      state = await readPlacement(db, actor.companyId, vaultId, fieldId);
      const { vault } = state;
      const target = state.fields.get(fieldId);
      if (!vault || !target) return { vault, ...NOTHING_TO_MOVE };
      return { vault, target, leaving: leftField(vault, target)?.occupied ?? [], stale: false };
    },
    async place(vault, target, position, event) {
      // the write holds on to the fields as they were read (their row versions)
      const read = state!.fields.get(target.id)!;
      const left = leftField(vault, target);
      const fields = left ? [read, left] : [read];
      await writePlacement(
        db,
        { companyId: actor.companyId, fields },
        vault,
        { fieldId: target.id, position },
        event,
      );
    },
    files: async () => state?.files ?? [],
  };
}
