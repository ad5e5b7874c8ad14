import type {
  AddVaultInput,
  MoveVaultInput,
  StagedVaultDto,
  UpdateVaultInput,
} from '../../../domain/schemas/vault.schema';
import type {
  AttachmentDto,
  FieldDto,
  VaultDto,
  WarehouseSummaryDto,
} from '../../../domain/schemas/warehouse.schema';
import { topmostPosition } from '../../../domain/rules/capacity';
import { digOutCount } from '../../../domain/rules/dig-out';
import { fieldName } from '../../../domain/rules/field-names';
import { normaliseDetails, placeholderKind, type VaultDetails } from '../../../domain/rules/placeholders';
import type { Db } from '../../db/database';
import type { Trx } from '../../db/locks';
import { type EventRecord, findLatestEvents, recordEvent } from '../../events/event-log.repo';
import { badRequest, conflict, notFound } from '../../http/errors';
import { revisionTag } from '../../http/revalidation';
import { FIELD_NOT_FOUND } from '../fields/field-loader';
import type { LockedFieldRow } from '../fields/fields.repo';
import type { Actor } from '../../auth/actor';
import { changedFields, placeOf, vaultSubject } from './vault-history';
import { checkType, placeOrRefuse, slotField } from './slot-placement';
export { CONCURRENT_CHANGE, withConflictMapping } from './vault-stores';
import {
  type AddStore,
  CONCURRENT_CHANGE,
  lockForVaultWork,
  lockingAddStore,
  type DeleteStore,
  lockingDeleteStore,
  lockingMoveStore,
  lockingStageStore,
  type MoveStore,
  oneStatementDeleteStore,
  oneStatementMoveStore,
  oneStatementStageStore,
  type StageStore,
  oneStatementAddStore,
  resolveNames,
  runVaultWrite,
  withConflictMapping,
} from './vault-stores';
import {
  deleteAttachmentRow,
  deleteAttachmentsOfVault,
  findAttachment,
  findAttachmentsOfVaults,
  insertAttachment,
} from './attachments.repo';
import type { UploadedFile } from '../../http/form-reader';
import { ATTACHMENT_NOT_FOUND } from './attachments.download';
import { deleteUnusedNames } from '../../customers/customers.repo';
import { attachmentsByVault, presentAttachment, presentStagedVault, presentVault } from './vaults.presenter';
import {
  findStageRevision,
  findStagedVaults,
  findVault,
  findVaultAndLockWarehouse,
  insertVault,
  type VaultRow,
  occupiedPositions,
  updateVaultDetails,
} from './vaults.repo';

export const VAULT_NOT_FOUND = 'Vault not found';
export const VAULT_CHANGED = 'This vault was changed by someone else. Please reload it and try again.';
export const ONLY_TOPMOST_STAGED = 'Only the topmost vault can be staged.';
export const ONLY_TOPMOST_MOVED = 'Only the topmost vault of a field can be moved.';
export const ALREADY_STAGED = 'This vault is already staged.';
export const VAULT_RELEASED = 'This vault was released and has left the warehouse.';
// the slot refusals are the domain's (domain/rules/slots.ts); named here too for the callers that know them from here
export {
  COUCHBOX_FIELD_ONLY,
  FIELD_FULL,
  SLOT_TAKEN,
  alreadyInField,
  couchboxBottom,
  fieldFull,
  notNextFree,
  plainFieldOnly,
} from '../../../domain/rules/slots';
export { checkType } from './slot-placement';

export async function loadVault(db: Db, companyId: number, vaultId: number): Promise<VaultDto> {
  const row = await findVault(db, companyId, vaultId);
  if (!row) throw notFound(VAULT_NOT_FOUND);
  const files = attachmentsByVault(await findAttachmentsOfVaults(db, companyId, [vaultId]));
  const inField = row.field_id === null ? [] : await occupiedPositions(db, row.field_id);
  const digOut =
    row.position === null
      ? null
      : digOutCount(
          Number(row.position),
          inField.map((v) => v.position),
        );
  return presentVault(row, files.get(vaultId), digOut);
}

/** POST /api/vaults/: a new vault in the field's next free slot, with an optional attachment. */
export async function addVault(
  db: Db,
  actor: Actor,
  input: AddVaultInput,
  file?: UploadedFile,
): Promise<VaultDto> {
  // an add with a file takes the transaction: the file is written beside the vault
  const stores = {
    locking: (trx: Trx) => lockingAddStore(trx, actor),
    oneStatement: file ? undefined : (d: Db) => oneStatementAddStore(d, actor),
  };
  return runVaultWrite(db, stores, (store) => addWith(store, actor, input, file));
}

/** Adding inside a caller's transaction (a received shipment), with every rule and lock of the add. */
export async function addVaultIn(
  trx: Trx,
  actor: Actor,
  input: AddVaultInput,
  file?: UploadedFile,
): Promise<VaultDto> {
  return addWith(lockingAddStore(trx, actor), actor, input, file);
}

/** The add: the field as the store reads it, the domain's slot decision, the store's write. */
async function addWith(store: AddStore, actor: Actor, input: AddVaultInput, file?: UploadedFile) {
  const field = await store.readField(input.field_id);
  if (!field) throw notFound(FIELD_NOT_FOUND);
  const details = newVaultDetails(input);
  const occupied = field.occupied.map((v) => v.position);
  placeOrRefuse(slotField(field), occupied, unitOf(details), input.position);
  const planned = newVaultRow(actor, field, input.position, details);
  const inserted = await store.insert(
    field,
    {
      companyId: actor.companyId,
      name: details.name,
      customerName: details.customerName,
      orderName: details.orderName,
      fieldId: field.id,
      position: input.position,
      type: details.type,
      note: details.note,
    },
    addedEvent(actor, planned),
    file,
  );
  // answered from inside the transaction, so the answer is what was committed; a new vault has no other files
  if (file) return loadVault(store.db, actor.companyId, inserted.id);
  // the new vault as findVault would read it: everything is known here, so no read back
  const row = { ...planned, ...inserted, order_name: inserted.order_id === null ? null : details.orderName };
  // the slots taken when the slot was checked: the vaults above the new one
  return presentVault(row, [], digOutCount(input.position, occupied));
}

/** A new vault as the slot rules see it. */
function unitOf(details: VaultDetails) {
  return { type: details.type, customerName: details.customerName };
}

function newVaultDetails(input: AddVaultInput): VaultDetails {
  return normaliseDetails({
    name: input.vault_id,
    customer_name: input.customer_name,
    order_name: input.order_name,
    type: input.type,
    note: input.note,
    fallbackType: 'vault',
  });
}

/** A new vault in this field's slot as findVault would read it, but for what only its insert knows (ids, version). */
function newVaultRow(actor: Actor, field: LockedFieldRow, position: number, details: VaultDetails): VaultRow {
  return {
    id: 0,
    company_id: actor.companyId,
    name: details.name,
    customer_id: 0,
    customer_name: details.customerName,
    order_id: null,
    order_name: details.orderName,
    ...placedAt(field, position),
    type: details.type,
    note: details.note,
    version: 1,
    released_at: null,
    released_by: null,
  };
}

/** An event about a vault: its number and customer searchable in the Activity page. */
function vaultEvent(
  actor: Actor,
  kind: string,
  vault: VaultRow,
  warehouseId: number | null,
  payload: unknown,
): EventRecord {
  return {
    companyId: actor.companyId,
    userId: actor.userId,
    kind,
    entityType: 'vault',
    entityId: vault.id,
    warehouseId,
    ...vaultSubject(vault),
    payload,
  };
}

/** The event of a new vault; its entity is the vault's id, or the insert's own in a one-statement add. */
function addedEvent(actor: Actor, row: VaultRow): EventRecord {
  return vaultEvent(actor, 'vault.added', row, row.warehouse_id, {
    fieldId: row.field_id,
    position: row.position,
    before: null,
    after: placeOf(row),
  });
}

/** The field and warehouse columns of a VaultRow for a vault in this locked field. */
function placedIn(
  field: LockedFieldRow,
): Pick<VaultRow, 'field_col' | 'field_row' | 'warehouse_id' | 'warehouse_name'> {
  return {
    field_col: field.col,
    field_row: field.row,
    warehouse_id: field.warehouse_id,
    warehouse_name: field.warehouse_name,
  };
}

/** A vault that waits on the stage (no field); the API stages placed vaults, factories and the seed create them here. */
export async function createStagedVault(
  db: Db,
  actor: Actor,
  input: { name?: string; customer_name: string; order_name?: string; type?: string; note?: string },
): Promise<VaultDto> {
  const id = await db.transaction().execute(async (trx) => {
    const details = normaliseDetails({ ...input, fallbackType: 'vault' });
    const { customerId, orderId } = await resolveNames(trx, actor.companyId, details);
    const { id: vaultId } = await insertVault(trx, {
      companyId: actor.companyId,
      name: details.name,
      customerId,
      orderId,
      fieldId: null,
      position: null,
      type: details.type,
      note: details.note,
    });
    await recordEvent(trx, {
      companyId: actor.companyId,
      userId: actor.userId,
      kind: 'vault.staged',
      entityType: 'vault',
      entityId: vaultId,
      subject: details.name,
      customer: details.customerName,
      payload: { before: null, after: null, created: true },
    });
    return vaultId;
  });
  return loadVault(db, actor.companyId, id);
}

/** PUT /api/vaults/{id}: number, customer, order, note (and kind for placeholders). */
export async function updateVault(
  db: Db,
  actor: Actor,
  vaultId: number,
  input: UpdateVaultInput,
): Promise<VaultDto> {
  return withConflictMapping(() =>
    db.transaction().execute(async (trx) => {
      const before = await findVaultAndLockWarehouse(trx, actor.companyId, vaultId);
      if (!before) throw notFound(VAULT_NOT_FOUND);
      const { fields } = await lockForVaultWork(trx, actor, {
        fieldIds: [before.field_id],
        vaultIds: [vaultId],
      });
      // read again with its names: the lock may have waited for another writer
      const current = await findVault(trx, actor.companyId, vaultId);
      if (!current) throw notFound(VAULT_NOT_FOUND);
      if (current.field_id !== before.field_id) throw conflict(CONCURRENT_CHANGE);
      if (input.version !== undefined && input.version !== current.version) throw conflict(VAULT_CHANGED);
      const field = current.field_id === null ? null : (fields.get(current.field_id) ?? null);

      const details = normaliseDetails({
        name: input.name,
        customer_name: input.customer_name,
        order_name: input.order_name,
        type: input.type,
        note: input.note,
        fallbackType: current.type,
      });
      checkType(details.type, details.customerName, field);
      const wasPlaceholder = placeholderKind(current.customer_name) !== null;
      const becomesPlaceholder = placeholderKind(details.customerName) !== null;
      // spec 4.2: turning a filled vault into an empty one erases its info, attachments included
      const erase = becomesPlaceholder && !wasPlaceholder;
      if (erase) {
        details.note = null;
        await deleteAttachmentsOfVault(trx, actor.companyId, vaultId);
      }
      const { customerId, orderId } = await resolveNames(trx, actor.companyId, details);
      await updateVaultDetails(trx, actor.companyId, vaultId, {
        name: details.name,
        customerId,
        orderId,
        type: details.type,
        note: details.note,
      });
      await deleteUnusedNames(
        trx,
        actor.companyId,
        [current.customer_id],
        current.order_id === null ? [] : [current.order_id],
      );
      const edited = { ...current, name: details.name, customer_name: details.customerName };
      await recordEvent(trx, {
        companyId: actor.companyId,
        userId: actor.userId,
        kind: 'vault.edited',
        entityType: 'vault',
        entityId: vaultId,
        warehouseId: current.warehouse_id,
        ...vaultSubject(edited),
        payload: {
          fieldId: current.field_id,
          erased: erase,
          place: placeOf(current),
          changes: changedFields(current, {
            ...edited,
            order_name: details.orderName,
            type: details.type,
            note: details.note,
          }),
        },
      });
      return loadVault(trx, actor.companyId, vaultId);
    }),
  );
}

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

/** A VaultRow's place columns for a slot of this field. */
function placedAt(field: LockedFieldRow, position: number) {
  return { field_id: field.id, position, ...placedIn(field) };
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

/** POST /api/stage/vaults/{id}: takes the topmost vault off its field onto the stage. */
export async function stageVault(
  db: Db,
  actor: Actor,
  vaultId: number,
): Promise<VaultDto & { old_field_id: number }> {
  const stores = {
    locking: (trx: Trx) => lockingStageStore(trx, actor),
    oneStatement: (d: Db) => oneStatementStageStore(d, actor),
  };
  return runVaultWrite(db, stores, (store) => stageWith(store, actor, vaultId));
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
): Promise<VaultDto & { old_field_id: number }> {
  const read = await store.readVault(vaultId);
  if (!read) throw notFound(VAULT_NOT_FOUND);
  const { vault, field } = read;
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

/** The tag of the current state of the company's stage (issue 11). */
export async function stageTag(db: Db, companyId: number): Promise<string> {
  return revisionTag('s', companyId, (await findStageRevision(db, companyId)) ?? 0);
}

/** The stage, each vault with where and when it was staged (its latest 'vault.staged' event). */
export async function listStagedVaults(db: Db, companyId: number): Promise<Record<number, StagedVaultDto>> {
  const rows = await findStagedVaults(db, companyId);
  const events = await findLatestEvents(
    db,
    companyId,
    'vault.staged',
    rows.map((r) => r.id),
  );
  const staged: Record<number, StagedVaultDto> = {};
  for (const row of rows) staged[row.id] = presentStagedVault(row, events.get(row.id));
  return staged;
}

export type DeleteVaultAnswer =
  | { deleteFrom: 'stage'; vaultId: number }
  | { deleteFrom: 'field'; vaultId: number; field: FieldDto; warehouse: WarehouseSummaryDto };

/** DELETE /api/vaults/{id}: removes the vault, its attachments, and customers/orders nothing uses any more. */
export async function deleteVault(db: Db, actor: Actor, vaultId: number): Promise<DeleteVaultAnswer> {
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

/** POST /api/vaults/upload: stores the file's bytes with the vault. */
export async function addAttachment(
  db: Db,
  actor: Actor,
  vaultId: number,
  file: UploadedFile,
): Promise<{ attachment: AttachmentDto }> {
  const row = await withConflictMapping(() =>
    db.transaction().execute(async (trx) => {
      const vault = await findVault(trx, actor.companyId, vaultId);
      if (!vault) throw notFound(VAULT_NOT_FOUND);
      const attachment = await insertAttachment(trx, { companyId: actor.companyId, vaultId, ...file });
      await recordEvent(trx, {
        companyId: actor.companyId,
        userId: actor.userId,
        kind: 'vault.attachment',
        entityType: 'vault',
        entityId: vaultId,
        warehouseId: vault.warehouse_id,
        payload: { attachmentId: attachment.id },
      });
      return attachment;
    }),
  );
  return { attachment: presentAttachment(row) };
}

/**
 * DELETE /api/attachments/{id}: removes one attachment of one of the company's vaults. The attachment belongs to its
 * vault, so the vault's warehouse is locked shared and the vault row exclusive, like any other vault edit.
 */
export async function deleteAttachment(
  db: Db,
  actor: Actor,
  attachmentId: number,
): Promise<{ attachmentId: number; vaultId: number }> {
  return withConflictMapping(() =>
    db.transaction().execute(async (trx) => {
      const attachment = await findAttachment(trx, actor.companyId, attachmentId);
      if (!attachment) throw notFound(ATTACHMENT_NOT_FOUND);
      const vault = await findVaultAndLockWarehouse(trx, actor.companyId, attachment.vault_id);
      if (!vault) throw notFound(ATTACHMENT_NOT_FOUND);
      await lockForVaultWork(trx, actor, {
        fieldIds: [],
        vaultIds: [vault.id],
      });
      // a second click or another user may have removed it while this one waited for the locks
      if ((await deleteAttachmentRow(trx, actor.companyId, attachmentId)) === 0)
        throw notFound(ATTACHMENT_NOT_FOUND);
      await recordEvent(trx, {
        companyId: actor.companyId,
        userId: actor.userId,
        kind: 'vault.attachment-deleted',
        entityType: 'vault',
        entityId: vault.id,
        warehouseId: vault.warehouse_id,
        payload: { attachmentId },
      });
      return { attachmentId, vaultId: vault.id };
    }),
  );
}
