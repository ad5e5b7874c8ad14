import { fieldName, compareFieldNames } from '../../../domain/rules/field-names';
import type {
  CheckDto,
  CheckFieldDto,
  CheckResolution,
  CheckSummaryDto,
  CheckVaultDto,
} from '../../../domain/schemas/check.schema';
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
    field_count: row.field_count,
  };
}

/** A vault the check met is a discrepancy when it was not found where it was expected. */
export const isDiscrepancy = (v: Pick<CheckVaultDto, 'expected_field_id' | 'found_field_id'>) =>
  v.expected_field_id !== v.found_field_id;

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
      return {
        id: f.id,
        name: names.get(f.id)!,
        opened_by: f.opened_by,
        opened_at: f.opened_at,
        expected: expected.length,
        found: expected.filter((v) => v.found_field_id === f.id),
        missing: expected.filter((v) => v.found_field_id !== f.id),
        unexpected: vaults.filter((v) => v.found_field_id === f.id && v.expected_field_id !== f.id),
      };
    })
    .sort((a, b) => compareFieldNames(a.name, b.name));
  const discrepancies = vaults.filter(isDiscrepancy);
  return {
    ...presentCheckSummary(row),
    version: row.version,
    fields,
    discrepancies: discrepancies.length,
    unresolved: discrepancies.filter((v) => v.resolution === null).length,
  };
}
