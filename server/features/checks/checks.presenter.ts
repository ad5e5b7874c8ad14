import { fieldName, compareFieldNames } from '@domain/rules/field-names';
import type {
  CheckDto,
  CheckFieldDto,
  CheckResolution,
  CheckSummaryDto,
  CheckVaultDto,
} from '@domain/schemas/check.schema';
import type { CheckFieldRow, CheckRow, CheckVaultRow } from './checks.repo';

export function presentCheckSummary(row: CheckRow): CheckSummaryDto {
  return {
    id: row.id,
    warehouse_id: row.warehouse_id,
    warehouse_name: row.warehouse_name,
    started_by: row.started_by,
    started_at: row.started_at,
    finished_by: row.finished_by,
    finished_at: row.finished_at,
    cancelled_by: row.cancelled_by,
    cancelled_at: row.cancelled_at,
    warehouse_deleted_at: null,
    field_count: row.field_count,
    checked_count: row.checked_count,
  };
}

/**
 * A vault the check met is a discrepancy when it was not found where it was expected: found elsewhere, or not found
 * although its field was checked. A vault of a field nobody checked is not checked, not missing.
 */
export const isDiscrepancy = (
  v: Pick<CheckVaultDto, 'expected_field_id' | 'found_field_id'>,
  checkedFields: ReadonlySet<number>,
) =>
  v.expected_field_id !== v.found_field_id &&
  (v.found_field_id !== null || (v.expected_field_id !== null && checkedFields.has(v.expected_field_id)));

export function presentCheck(
  row: CheckRow,
  fieldRows: CheckFieldRow[],
  vaultRows: CheckVaultRow[],
): CheckDto {
  const names = new Map(fieldRows.map((f) => [f.id, fieldName(f.col, f.row)]));
  const nameOf = (id: number | null) => (id === null ? null : (names.get(id) ?? null));
  const vaults: CheckVaultDto[] = vaultRows.map((v) => ({
    id: v.id,
    name: v.name,
    customer_name: v.customer_name,
    order_name: v.order_name,
    type: v.type,
    label_code: v.label_code,
    expected_field_id: v.expected_field_id,
    expected_field_name: nameOf(v.expected_field_id),
    found_field_id: v.found_field_id,
    found_field_name: nameOf(v.found_field_id),
    found_by: v.found_by,
    resolution: v.resolution as CheckResolution | null,
    resolved_by: v.resolved_by,
    resolved_at: v.resolved_at,
  }));
  const fields: CheckFieldDto[] = fieldRows
    .map((f) => {
      const expected = vaults.filter((v) => v.expected_field_id === f.id);
      const checked = f.opened_at !== null;
      const notHere = expected.filter((v) => v.found_field_id !== f.id);
      return {
        id: f.id,
        name: names.get(f.id)!,
        opened_by: f.opened_by,
        opened_at: f.opened_at,
        checked,
        expected: expected.length,
        found: expected.filter((v) => v.found_field_id === f.id),
        missing: checked ? notHere : [],
        not_checked: checked ? [] : notHere.filter((v) => v.found_field_id === null),
        unexpected: vaults.filter((v) => v.found_field_id === f.id && v.expected_field_id !== f.id),
      };
    })
    .sort((a, b) => compareFieldNames(a.name, b.name));
  const checkedFields = new Set(fieldRows.filter((f) => f.opened_at !== null).map((f) => f.id));
  const discrepancies = vaults.filter((v) => isDiscrepancy(v, checkedFields));
  return {
    ...presentCheckSummary(row),
    version: row.version,
    fields,
    discrepancies: discrepancies.length,
    unresolved: discrepancies.filter((v) => v.resolution === null).length,
  };
}
