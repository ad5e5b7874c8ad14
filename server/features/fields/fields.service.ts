import type { FieldDto } from '@domain/schemas/warehouse.schema';
import { fieldName, parseFieldName } from '@domain/rules/field-names';
import type { Db } from '../../db/database';
import { lockFields, lockWarehouse, type Trx } from '../../db/locks';
import { recordEvent } from '../../events/event-log.repo';
import { badRequest, notFound } from '../../http/errors';
import { countVaultsInFields } from '../vaults/vaults.repo';
import type { Actor } from '../../auth/actor';
import { FIELD_NOT_FOUND, loadField, presentFieldRows } from './field-loader';
import { type FieldRow, findField, findFieldAt, setFieldFull, setFieldType } from './fields.repo';

export const stageVaultsFirst = (names: string[]) =>
  `Please stage all vaults in ${names.join(' and ')} to continue.`;
export const noFieldBelow = (name: string) =>
  `Field ${name} is in the last row: a couchbox needs the field below it.`;
export const belowIsPaired = (below: string) => `Field ${below} below is already part of a couchbox.`;
export const isBottomHalf = (name: string) =>
  `Field ${name} is the lower half of a couchbox. Change the field above it instead.`;
export const wrongField2 = (given: string, below: string) =>
  `field2 must name the field below (${below}), not ${given}.`;

export interface FieldTypeChange {
  type: 'couchbox' | 'vault';
  field2?: string;
  warehouseId?: number | string;
}

/**
 * The locks of work inside one warehouse's fields (docs/decisions/003-locking.md): the warehouse shared, then the field
 * and the one below it in id order. Answers both as they are once locked.
 */
async function lockFieldAndBelow(trx: Trx, actor: Actor, fieldId: number) {
  const located = await findField(trx, actor.companyId, fieldId);
  if (!located) throw notFound(FIELD_NOT_FOUND);
  await lockWarehouse(trx, located.warehouse_id, 'share');
  // which fields exist and where cannot change while the warehouse is locked shared; their types still can
  const placed = await findField(trx, actor.companyId, fieldId);
  if (!placed) throw notFound(FIELD_NOT_FOUND);
  const belowAt = await findFieldAt(trx, actor.companyId, placed.warehouse_id, placed.col, placed.row + 1);
  await lockFields(trx, [placed.id, belowAt?.id]);
  const field = (await findField(trx, actor.companyId, fieldId))!;
  const below = belowAt && (await findField(trx, actor.companyId, belowAt.id));
  return { field, below };
}

/**
 * Couchbox pairing (ARCHITECTURE 4.3): the field becomes couchbox-T and the field below couchbox-B, both
 * empty, in one transaction; back to vault restores both. Asking for the type a field already has changes nothing.
 */
export async function changeFieldType(
  db: Db,
  actor: Actor,
  fieldId: number,
  change: FieldTypeChange,
): Promise<{ field1: FieldDto; field2: FieldDto | null }> {
  return db.transaction().execute(async (trx) => {
    const { field, below } = await lockFieldAndBelow(trx, actor, fieldId);
    if (
      change.warehouseId !== undefined &&
      change.warehouseId !== '' &&
      Number(change.warehouseId) !== field.warehouse_id
    ) {
      throw badRequest(`Field ${fieldName(field.col, field.row)} is not in warehouse ${change.warehouseId}.`);
    }
    const name = fieldName(field.col, field.row);
    if (field.type === 'couchbox-B') throw badRequest(isBottomHalf(name));
    const belowName = fieldName(field.col, field.row + 1);
    if (change.field2) {
      const given = parseFieldName(change.field2);
      if (!given || given.col !== field.col || given.row !== field.row + 1)
        throw badRequest(wrongField2(change.field2, belowName));
    }

    const wantsCouchbox = change.type === 'couchbox';
    const isCouchbox = field.type === 'couchbox-T';
    // answered from inside the transaction: a row removed right after cannot turn a saved change into a 404
    const answer = async () => ({
      field1: await loadField(trx, actor.companyId, field.id),
      field2: below ? await loadField(trx, actor.companyId, below.id) : null,
    });
    if (wantsCouchbox === isCouchbox) return answer();

    if (wantsCouchbox) {
      if (!below) throw badRequest(noFieldBelow(name));
      if (below.type !== 'vault') throw badRequest(belowIsPaired(belowName));
    }
    const pair: FieldRow[] =
      below && (wantsCouchbox || below.type === 'couchbox-B') ? [field, below] : [field];
    if (
      (await countVaultsInFields(
        trx,
        actor.companyId,
        pair.map((f) => f.id),
      )) > 0
    ) {
      throw badRequest(stageVaultsFirst(pair.map((f) => fieldName(f.col, f.row))));
    }
    await setFieldType(trx, actor.companyId, field.id, wantsCouchbox ? 'couchbox-T' : 'vault');
    if (pair[1]) await setFieldType(trx, actor.companyId, pair[1].id, wantsCouchbox ? 'couchbox-B' : 'vault');
    await recordEvent(trx, {
      companyId: actor.companyId,
      userId: actor.userId,
      kind: 'field.type',
      entityType: 'field',
      entityId: field.id,
      warehouseId: field.warehouse_id,
      payload: {
        field: fieldName(field.col, field.row),
        type: wantsCouchbox ? 'couchbox-T' : 'vault',
        field2Id: pair[1]?.id ?? null,
      },
    });
    return answer();
  });
}

/** PATCH /api/fields/{id}/full: the manual "Field is Full" flag. */
export async function changeFieldFull(
  db: Db,
  actor: Actor,
  fieldId: number,
  full: boolean,
): Promise<FieldDto> {
  return db.transaction().execute(async (trx) => {
    const located = await findField(trx, actor.companyId, fieldId);
    if (!located) throw notFound(FIELD_NOT_FOUND);
    await lockWarehouse(trx, located.warehouse_id, 'share');
    await lockFields(trx, [located.id]);
    const field = await findField(trx, actor.companyId, fieldId);
    if (!field) throw notFound(FIELD_NOT_FOUND);
    const name = fieldName(field.col, field.row);
    if (field.type === 'couchbox-B') throw badRequest(isBottomHalf(name));
    await setFieldFull(trx, actor.companyId, field.id, full);
    await recordEvent(trx, {
      companyId: actor.companyId,
      userId: actor.userId,
      kind: 'field.full',
      entityType: 'field',
      entityId: field.id,
      warehouseId: field.warehouse_id,
      payload: { field: name, full },
    });
    return loadField(trx, actor.companyId, fieldId);
  });
}

/** GET /api/warehouse/{warehouseId}/{fieldId}: the field must be in that warehouse of the caller's company. */
export async function loadFieldOfWarehouse(
  db: Db,
  companyId: number,
  warehouseId: number,
  fieldId: number,
): Promise<FieldDto> {
  const row = await findField(db, companyId, fieldId);
  if (!row || row.warehouse_id !== warehouseId) throw notFound(FIELD_NOT_FOUND);
  const [field] = await presentFieldRows(db, companyId, [row]);
  return field!;
}
