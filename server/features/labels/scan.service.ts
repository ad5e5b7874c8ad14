import { freeSlot } from '@domain/rules/slots';
import { fieldName, parseFieldName } from '@domain/rules/field-names';
import { parseScanText, severalVaults, splitWarehouseAndField } from '@domain/rules/scan-text';
import type { ScanAnswer, ScanQuery, ScannedFieldDto, ScannedVaultDto } from '@domain/schemas/scan.schema';
import type { Db } from '../../db/database';
import { conflict, notFound } from '../../http/errors';
import { findVault, occupiedPositions } from '../vaults/vaults.repo';
import { slotField } from '../vaults/slot-placement';
import {
  type ScanFieldRow,
  countVaultsAbove,
  findScanField,
  findScanFieldsAt,
  findVaultIdByLabelCode,
  findVaultsNumbered,
  findWarehouseIdByNameOrSlug,
} from './labels.repo';

export const NOT_OURS = 'This code is not a label of this app.';
export const LABEL_NOT_FOUND = 'No vault of your company has this label.';
export const NOTHING_NAMED = 'No vault or field of your company matches this scan.';
export const fieldNeedsWarehouse = (field: string) =>
  `Several warehouses have a field ${field}. Scan it on its warehouse page or with the warehouse name.`;

/** GET /api/scan: the vault or field a scanned text names, within the signed-in user's company only. */
export async function resolveScan(db: Db, companyId: number, query: ScanQuery): Promise<ScanAnswer> {
  const target = parseScanText(query.text);
  if (!target) throw notFound(NOT_OURS);
  if (target.kind === 'vault-code') {
    const vaultId = await findVaultIdByLabelCode(db, companyId, target.code);
    if (vaultId === undefined) throw notFound(LABEL_NOT_FOUND);
    return { kind: 'vault', vault: await scannedVault(db, companyId, vaultId) };
  }
  if (target.kind === 'field-link') {
    const warehouseId = await findWarehouseIdByNameOrSlug(db, companyId, target.warehouseSlug);
    const field =
      warehouseId === undefined ? undefined : await fieldAt(db, companyId, target.field, warehouseId);
    if (!field) throw notFound(LABEL_NOT_FOUND);
    return { kind: 'field', field: await scannedField(db, companyId, field) };
  }
  return resolveWords(db, companyId, target.text, query.warehouseId);
}

/** A field name in the current warehouse, a warehouse name with a field name, or a vault number. */
async function resolveWords(
  db: Db,
  companyId: number,
  text: string,
  warehouseId?: number,
): Promise<ScanAnswer> {
  const place = parseFieldName(text);
  if (place && warehouseId !== undefined) {
    const field = await fieldAt(db, companyId, text, warehouseId);
    if (field) return { kind: 'field', field: await scannedField(db, companyId, field) };
  }
  const split = splitWarehouseAndField(text);
  if (split) {
    const named = await findWarehouseIdByNameOrSlug(db, companyId, split.warehouse);
    const field = named === undefined ? undefined : await fieldAt(db, companyId, split.field, named);
    if (field) return { kind: 'field', field: await scannedField(db, companyId, field) };
  }
  const vaults = scannedNumber(text, await findVaultsNumbered(db, companyId, text));
  if (vaults.length > 1) throw conflict(severalVaults(text));
  if (vaults.length === 1) return { kind: 'vault', vault: await scannedVault(db, companyId, vaults[0]!.id) };
  if (place && warehouseId === undefined) {
    const fields = await findScanFieldsAt(db, companyId, place);
    if (fields.length > 1) throw conflict(fieldNeedsWarehouse(fieldName(place.col, place.row)));
    if (fields.length === 1) return { kind: 'field', field: await scannedField(db, companyId, fields[0]!) };
  }
  throw notFound(NOTHING_NAMED);
}

/**
 * The vaults a scanned number means, of those numbered like it in any case: a vault in store before one released
 * (its number may be given again), and the number as it is written before the same letters in another case.
 */
function scannedNumber<T extends { name: string | null; released_at: unknown }>(
  text: string,
  vaults: T[],
): T[] {
  const tiers = [
    (v: T) => v.released_at === null && v.name === text,
    (v: T) => v.released_at === null,
    (v: T) => v.name === text,
    () => true,
  ];
  for (const tier of tiers) {
    const found = vaults.filter(tier);
    if (found.length > 0) return found;
  }
  return [];
}

async function fieldAt(db: Db, companyId: number, name: string, warehouseId: number) {
  const place = parseFieldName(name);
  if (!place) return undefined;
  return (await findScanFieldsAt(db, companyId, place, warehouseId))[0];
}

export async function scannedVault(
  db: Db,
  companyId: number,
  vaultId: number,
  missing = LABEL_NOT_FOUND,
): Promise<ScannedVaultDto> {
  const row = await findVault(db, companyId, vaultId);
  if (!row) throw notFound(missing);
  const placed = row.field_id !== null && row.position !== null;
  return {
    id: row.id,
    name: row.name,
    customerName: row.customer_name,
    orderName: row.order_name,
    type: row.type,
    warehouseId: row.warehouse_id,
    warehouseName: row.warehouse_name,
    fieldId: row.field_id,
    fieldName:
      row.field_col !== null && row.field_row !== null ? fieldName(row.field_col, row.field_row) : null,
    position: row.position,
    above: placed ? await countVaultsAbove(db, companyId, row.field_id!, row.position!) : 0,
  };
}

export async function loadScannedField(db: Db, companyId: number, fieldId: number): Promise<ScannedFieldDto> {
  const field = await findScanField(db, companyId, fieldId);
  if (!field) throw notFound(LABEL_NOT_FOUND);
  return scannedField(db, companyId, field);
}

async function scannedField(db: Db, companyId: number, field: ScanFieldRow): Promise<ScannedFieldDto> {
  const occupied = (await occupiedPositions(db, companyId, field.id)).map((v) => v.position);
  return {
    id: field.id,
    name: fieldName(field.col, field.row),
    warehouseId: field.warehouse_id,
    warehouseName: field.warehouse_name,
    type: field.type,
    full: Boolean(field.full),
    vaultCount: occupied.length,
    nextFree: freeSlot(slotField(field), occupied),
  };
}
