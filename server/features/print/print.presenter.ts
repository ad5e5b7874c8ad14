import { fieldName } from '../../../domain/rules/field-names';
import { type PrintVaultDto, STAGED_FIELD_NAME } from '../../../domain/rules/print-order';
import type { PrintFieldRow, PrintVaultRow } from './print.repo';

/** The Print Studio lines of a company's vaults, unsorted; a vault without a field (staged) says so. */
export function presentPrintVaults(vaults: PrintVaultRow[], fields: PrintFieldRow[]): PrintVaultDto[] {
  const placeOf = new Map(
    fields.map((f) => [f.id, { field_name: fieldName(f.col, f.row), warehouse_name: f.warehouse_name }]),
  );
  return vaults.map((row) => {
    const place = row.field_id === null ? undefined : placeOf.get(row.field_id);
    return {
      id: row.id,
      name: row.name,
      customer_name: row.customer_name,
      type: row.type,
      position: place ? row.position : null,
      field_name: place?.field_name ?? STAGED_FIELD_NAME,
      warehouse_name: place?.warehouse_name ?? '',
      note: row.note,
    };
  });
}
