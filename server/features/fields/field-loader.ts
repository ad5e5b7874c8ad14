import type { FieldDto } from '@domain/schemas/warehouse.schema';
import type { Db } from '../../db/database';
import { notFound } from '../../http/errors';
import { findAttachmentsOfVaults } from '../vaults/attachments.repo';
import { attachmentsByVault, presentVault } from '../vaults/vaults.presenter';
import { findVaultsOfFields } from '../vaults/vaults.repo';
import { presentField } from './fields.presenter';
import { type FieldRow, findField, findFieldsByIds } from './fields.repo';

export const FIELD_NOT_FOUND = 'Field not found';

/** FieldDtos of the given field rows with their vaults and attachment names. */
export async function presentFieldRows(db: Db, companyId: number, rows: FieldRow[]): Promise<FieldDto[]> {
  const vaults = await findVaultsOfFields(
    db,
    companyId,
    rows.map((r) => r.id),
  );
  const files = attachmentsByVault(
    await findAttachmentsOfVaults(
      db,
      companyId,
      vaults.map((v) => v.id),
    ),
  );
  return rows.map((row) =>
    presentField(
      row,
      vaults.filter((v) => v.field_id === row.id).map((v) => presentVault(v, files.get(v.id))),
    ),
  );
}

export async function loadField(db: Db, companyId: number, fieldId: number): Promise<FieldDto> {
  const row = await findField(db, companyId, fieldId);
  if (!row) throw notFound(FIELD_NOT_FOUND);
  const [field] = await presentFieldRows(db, companyId, [row]);
  return field!;
}

/** The company's fields among `fieldIds` with their vaults, as the warehouse shows them (the live frames, issue 11). */
export async function loadFields(db: Db, companyId: number, fieldIds: number[]): Promise<FieldDto[]> {
  return presentFieldRows(db, companyId, await findFieldsByIds(db, companyId, fieldIds));
}
