import { fieldName } from '@domain/rules/field-names';
import { type PrintVaultDto, STAGED_FIELD_NAME } from '@domain/rules/print-order';
import type { PrintFieldRow, PrintVaultRow } from './print.repo';

export interface PrintPlace {
  field_name: string;
  warehouse_name: string;
}

/** Each field's name and warehouse name, by field id. */
export function printPlaces(fields: PrintFieldRow[]): Map<number, PrintPlace> {
  return new Map(
    fields.map((f) => [f.id, { field_name: fieldName(f.col, f.row), warehouse_name: f.warehouse_name }]),
  );
}

/** The place a vault is listed under: a vault without a (known) field is staged. */
export function printPlaceOf(
  row: Pick<PrintVaultRow, 'field_id'>,
  places: Map<number, PrintPlace>,
): PrintPlace | undefined {
  return row.field_id === null ? undefined : places.get(row.field_id);
}

/** One Print Studio line. */
export function presentPrintVault(row: PrintVaultRow, place: PrintPlace | undefined): PrintVaultDto {
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
}
