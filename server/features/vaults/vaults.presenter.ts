import type { StagedVaultDto } from '@domain/schemas/vault.schema';
import type { AttachmentDto, VaultDto } from '@domain/schemas/warehouse.schema';
import { fieldName } from '@domain/rules/field-names';
import type { AttachmentRow } from './attachments.repo';
import type { VaultRow } from './vaults.repo';

export const attachmentUrl = (id: number) => `/api/attachments/${id}`;

export function presentAttachment(row: AttachmentRow): AttachmentDto {
  return { id: row.id, file_name: row.file_name, file_url: attachmentUrl(row.id) };
}

/** Groups attachment rows by vault id, ready for presentVault. */
export function attachmentsByVault(rows: AttachmentRow[]): Map<number, AttachmentDto[]> {
  const byVault = new Map<number, AttachmentDto[]>();
  for (const row of rows) {
    const list = byVault.get(row.vault_id) ?? [];
    list.push(presentAttachment(row));
    byVault.set(row.vault_id, list);
  }
  return byVault;
}

/** `digOut` is the number of vaults above it in its field; the caller knows the field's other vaults. */
export function presentVault(
  row: VaultRow,
  attachments: AttachmentDto[] = [],
  digOut: number | null = null,
): VaultDto {
  return {
    id: row.id,
    name: row.name,
    field_id: row.field_id,
    field_name:
      row.field_col !== null && row.field_row !== null ? fieldName(row.field_col, row.field_row) : null,
    warehouse_id: row.warehouse_id,
    warehouse_name: row.warehouse_name,
    customer_id: row.customer_id,
    customer_name: row.customer_name,
    order_id: row.order_id,
    order_name: row.order_name,
    note: row.note,
    type: row.type,
    position: row.position,
    dig_out: row.position === null ? null : digOut,
    released_at: row.released_at ?? null,
    released_by: row.released_by ?? null,
    version: row.version,
    attachments,
  };
}

const textOrNull = (v: unknown) => (typeof v === 'string' ? v : null);

/** A staged vault with its latest 'vault.staged' event: a payload naming a field means it came from there. */
export function presentStagedVault(
  row: VaultRow,
  stagedEvent?: { payload: unknown; createdAt: string },
): StagedVaultDto {
  const payload = (stagedEvent?.payload ?? null) as Record<string, unknown> | null;
  const fromField = payload !== null && typeof payload === 'object' && 'fromFieldId' in payload;
  return {
    id: row.id,
    name: row.name,
    customer_name: row.customer_name,
    order_name: row.order_name,
    type: row.type,
    note: row.note,
    staged_at: stagedEvent?.createdAt ?? null,
    staged_from: fromField
      ? {
          warehouse: textOrNull(payload.fromWarehouse),
          field: textOrNull(payload.fromField),
          position: typeof payload.position === 'number' ? payload.position : null,
        }
      : null,
  };
}
