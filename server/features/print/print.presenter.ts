import { fieldName } from '../../../domain/rules/field-names';
import { type PrintVaultDto, STAGED_FIELD_NAME } from '../../../domain/rules/print-order';
import type { PrintVaultRow } from './print.repo';

export function presentPrintVault(row: PrintVaultRow): PrintVaultDto {
  const placed = row.field_col !== null && row.field_row !== null;
  return {
    id: row.id,
    name: row.name,
    customer_name: row.customer_name,
    type: row.type,
    position: placed ? row.position : null,
    field_name: placed ? fieldName(row.field_col!, row.field_row!) : STAGED_FIELD_NAME,
    warehouse_name: placed ? (row.warehouse_name ?? '') : '',
    note: row.note,
  };
}
