import type { AddVaultInput, StagedVaultDto, UpdateVaultInput } from '@domain/schemas/vault.schema';
import type { AttachmentDto, VaultDto } from '@domain/schemas/warehouse.schema';
import { digOutCount } from '@domain/rules/dig-out';
import { normaliseDetails, placeholderKind, type VaultDetails } from '@domain/rules/placeholders';
import type { Db } from '../../db/database';
import type { Trx } from '../../db/locks';
import { type EventRecord, findLatestEvents, recordEvent } from '../../events/event-log.repo';
import { conflict, notFound } from '../../http/errors';
import { revisionTag } from '../../http/revalidation';
import { FIELD_NOT_FOUND } from '../fields/field-loader';
import type { LockedFieldRow } from '../fields/fields.repo';
import type { Actor } from '../../auth/actor';
import { changedFields, placeOf, vaultSubject } from './vault-history';
import { checkType, placeOrRefuse, slotField } from './slot-placement';
export { CONCURRENT_CHANGE, withConflictMapping } from './vault-stores';
export {
  ALREADY_STAGED,
  ONLY_TOPMOST_MOVED,
  ONLY_TOPMOST_STAGED,
  VAULT_CHANGED,
  VAULT_NOT_FOUND,
  VAULT_RELEASED,
  loadVault,
} from './vault-loader';
export { moveVault, moveVaultIn } from './vault-move';
export { type DeleteVaultAnswer, deleteVault } from './vault-delete';
export { stageVault, stageVaultIn } from './vault-stage';
import { VAULT_CHANGED, VAULT_NOT_FOUND, loadVault } from './vault-loader';
import { placedAt, vaultEvent } from './vault-history';
import {
  type AddStore,
  CONCURRENT_CHANGE,
  lockForVaultWork,
  lockingAddStore,
  oneStatementAddStore,
  resolveNames,
  runVaultWrite,
  withConflictMapping,
} from './vault-stores';
import {
  deleteAttachmentRow,
  deleteAttachmentsOfVault,
  findAttachment,
  insertAttachment,
} from './attachments.repo';
import type { UploadedFile } from '../../http/form-reader';
import { ATTACHMENT_NOT_FOUND } from './attachments.download';
import { deleteUnusedNames } from '../../customers/customers.repo';
import { presentAttachment, presentStagedVault, presentVault } from './vaults.presenter';
import {
  findStageRevision,
  findStagedVaults,
  findVault,
  findVaultAndLockWarehouse,
  insertVault,
  type VaultRow,
  updateVaultDetails,
} from './vaults.repo';

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
} from '@domain/rules/slots';
export { checkType } from './slot-placement';

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

/** The event of a new vault; its entity is the vault's id, or the insert's own in a one-statement add. */
function addedEvent(actor: Actor, row: VaultRow): EventRecord {
  return vaultEvent(actor, 'vault.added', row, row.warehouse_id, {
    fieldId: row.field_id,
    position: row.position,
    before: null,
    after: placeOf(row),
  });
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
