import { fieldName } from '@domain/rules/field-names';
import type { Actor } from '../../auth/actor';
import type { EventRecord } from '../../events/event-log.repo';
import type { LockedFieldRow } from '../fields/fields.repo';
import type { VaultRow } from './vaults.repo';

/** Where a vault stood, by name as it was then; null while staged. */
export interface VaultPlace {
  warehouseId: number;
  warehouse: string;
  field: string;
  position: number;
}

export function placeOf(row: VaultRow): VaultPlace | null {
  if (row.field_id === null || row.warehouse_id === null || row.field_col === null || row.field_row === null)
    return null;
  return {
    warehouseId: row.warehouse_id,
    warehouse: row.warehouse_name ?? '',
    field: fieldName(row.field_col, row.field_row),
    position: row.position ?? 0,
  };
}

/** What a vault event says about the vault itself: its number and customer, searchable in the Activity page. */
export function vaultSubject(row: Pick<VaultRow, 'name' | 'customer_name'>) {
  return { subject: row.name, customer: row.customer_name };
}

const EDITABLE = {
  name: 'Vault number',
  customer_name: 'Customer',
  order_name: 'Order',
  type: 'Kind',
  note: 'Note',
} as const;

/** The fields an edit changed, each with its old and new value. */
export function changedFields(
  before: Pick<VaultRow, keyof typeof EDITABLE>,
  after: Pick<VaultRow, keyof typeof EDITABLE>,
): Record<string, { label: string; before: string | null; after: string | null }> {
  const changes: Record<string, { label: string; before: string | null; after: string | null }> = {};
  for (const [key, label] of Object.entries(EDITABLE) as [keyof typeof EDITABLE, string][]) {
    if ((before[key] ?? null) !== (after[key] ?? null))
      changes[key] = { label, before: before[key] ?? null, after: after[key] ?? null };
  }
  return changes;
}

/** An event about a vault: its number and customer searchable in the Activity page. */
export function vaultEvent(
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

/** The field and warehouse columns of a VaultRow for a vault in this locked field. */
export function placedIn(
  field: LockedFieldRow,
): Pick<VaultRow, 'field_col' | 'field_row' | 'warehouse_id' | 'warehouse_name'> {
  return {
    field_col: field.col,
    field_row: field.row,
    warehouse_id: field.warehouse_id,
    warehouse_name: field.warehouse_name,
  };
}

/** A VaultRow's place columns for a slot of this field. */
export function placedAt(field: LockedFieldRow, position: number) {
  return { field_id: field.id, position, ...placedIn(field) };
}
