import { compareFieldNames, fieldName, parseFieldName } from '@domain/rules/field-names';
import { fieldLinkPath, vaultLinkPath } from '@domain/rules/scan-text';
import type { PosterFormat } from '@domain/rules/label-sheets';
import type { FieldLabelsInput, VaultLabelsInput } from '@domain/schemas/label.schema';
import type { Db } from '../../db/database';
import { badRequest, notFound } from '../../http/errors';
import { fillInPath } from '../checklists/checklist-key';
import { findChecklist } from '../checklists/checklists.repo';
import { VAULT_NOT_FOUND } from '../vaults/vaults.service';
import { WAREHOUSE_NOT_FOUND } from '../warehouses/warehouse-access';
import { checklistPosterPdf, fieldLabelsPdf, vaultLabelsPdf } from './label-pdf';
import { assignMissingLabelCodes, findVaultLabelRows, findWarehouseFields } from './labels.repo';

export const CHECKLIST_NOT_FOUND = 'Checklist not found';
export const NO_FILL_IN_LINK = 'This checklist has no fill-in link yet. Issue one with New link first.';
export const NO_FIELDS_IN_RANGE = 'No field of this warehouse lies in that range.';

/**
 * Vault labels in the order asked for; every vault must be the company's (else 404, as for one that is gone).
 * Everything that can refuse the request happens before this answers; the PDF is drawn as the answer is read.
 */
export async function buildVaultLabels(
  db: Db,
  companyId: number,
  origin: string,
  input: VaultLabelsInput,
): Promise<AsyncIterable<Uint8Array>> {
  await assignMissingLabelCodes(db, companyId, input.vaultIds);
  const rows = new Map((await findVaultLabelRows(db, companyId, input.vaultIds)).map((r) => [r.id, r]));
  const labels = input.vaultIds.map((id) => {
    const row = rows.get(id);
    if (!row || !row.label_code) throw notFound(VAULT_NOT_FOUND);
    return {
      link: `${origin}${vaultLinkPath(row.label_code)}`,
      number: row.name ?? row.customer_name,
      customer: row.customer_name,
      order: row.order_name,
      type: row.type,
    };
  });
  return vaultLabelsPdf(input.format, labels);
}

/**
 * Field labels of a warehouse in natural order, all or the block of columns and rows between `from` and `to`;
 * drawn, like vault labels, as the answer is read.
 */
export async function buildFieldLabels(
  db: Db,
  companyId: number,
  origin: string,
  input: FieldLabelsInput,
): Promise<AsyncIterable<Uint8Array>> {
  const found = await findWarehouseFields(db, companyId, input.warehouseId);
  if (!found) throw notFound(WAREHOUSE_NOT_FOUND);
  const from = parseFieldName(input.from ?? 'A1')!;
  const to = input.to ? parseFieldName(input.to)! : { col: Infinity, row: Infinity };
  const [colLow, colHigh] = [Math.min(from.col, to.col), Math.max(from.col, to.col)];
  const [rowLow, rowHigh] = [Math.min(from.row, to.row), Math.max(from.row, to.row)];
  const names = found.fields
    .filter((f) => f.col >= colLow && f.col <= colHigh && f.row >= rowLow && f.row <= rowHigh)
    .map((f) => fieldName(f.col, f.row))
    .sort(compareFieldNames);
  if (names.length === 0) throw badRequest(NO_FIELDS_IN_RANGE);
  return fieldLabelsPdf(
    input.format,
    names.map((field) => ({
      link: `${origin}${fieldLinkPath(found.warehouse.slug, field)}`,
      warehouse: found.warehouse.name,
      field,
    })),
  );
}

/** The poster of a checklist's fill-in link for the warehouse wall. */
export async function buildChecklistPoster(
  db: Db,
  companyId: number,
  origin: string,
  checklistId: number,
  format: PosterFormat,
): Promise<Uint8Array> {
  const checklist = await findChecklist(db, checklistId, companyId);
  if (!checklist) throw notFound(CHECKLIST_NOT_FOUND);
  const path = fillInPath(checklist.warehouse_name, checklist.link_key);
  if (!path) throw badRequest(NO_FILL_IN_LINK);
  return checklistPosterPdf(format, { link: `${origin}${path}`, warehouse: checklist.warehouse_name });
}
