import { naturalCompare } from './text';
import { compareFieldNames } from './field-names';

/** One line of the Print Studio list (`GET /api/vaults/all`). Staged vaults have field 'staged' and no warehouse. */
export interface PrintVaultDto {
  id: number;
  name: string | null;
  customer_name: string;
  type: string;
  position: number | null;
  field_name: string;
  warehouse_name: string;
  note: string | null;
}

export const STAGED_FIELD_NAME = 'staged';

function asNumber(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  const trimmed = value.trim();
  if (trimmed === '') return null;
  const n = Number(trimmed);
  return Number.isFinite(n) ? n : null;
}

/** Positions compare as numbers when both are numeric, otherwise as text; a missing position sorts last. */
export function comparePositions(
  a: string | number | null | undefined,
  b: string | number | null | undefined,
): number {
  const aMissing = a === null || a === undefined || a === '';
  const bMissing = b === null || b === undefined || b === '';
  if (aMissing || bMissing) return aMissing === bMissing ? 0 : aMissing ? 1 : -1;
  const na = asNumber(a);
  const nb = asNumber(b);
  if (na !== null && nb !== null) return na - nb;
  return naturalCompare(String(a), String(b));
}

export interface PrintSortable {
  warehouse_name: string | null;
  field_name: string | null;
  position: string | number | null;
}

/** Print order: warehouse name, then field name in natural order (A2 before A10), then position. */
export function comparePrintOrder(a: PrintSortable, b: PrintSortable): number {
  return (
    naturalCompare(a.warehouse_name ?? '', b.warehouse_name ?? '') ||
    compareFieldNames(a.field_name ?? '', b.field_name ?? '') ||
    comparePositions(a.position, b.position)
  );
}

/** Each distinct name once, in order; names that compare equal share a rank. */
function ranks(names: Iterable<string>, compare: (a: string, b: string) => number): Map<string, number> {
  const sorted = [...new Set(names)].sort(compare);
  const rank = new Map<string, number>();
  sorted.forEach((name, i) =>
    rank.set(name, i > 0 && compare(sorted[i - 1]!, name) === 0 ? rank.get(sorted[i - 1]!)! : i),
  );
  return rank;
}

/**
 * A sorted copy in `comparePrintOrder`'s order; the input is left as it was. A company has a few warehouse names
 * and field names but thousands of vaults, so each name is collated or parsed once and the vaults sort on ranks.
 * Field names are ranked within their warehouse: only there do they all follow one rule ("staged" has none).
 */
export function sortForPrint<T extends PrintSortable>(vaults: readonly T[]): T[] {
  const fieldsByWarehouse = new Map<string, string[]>();
  for (const v of vaults) {
    const warehouse = v.warehouse_name ?? '';
    const fields = fieldsByWarehouse.get(warehouse);
    if (fields) fields.push(v.field_name ?? '');
    else fieldsByWarehouse.set(warehouse, [v.field_name ?? '']);
  }
  const warehouseRank = ranks(fieldsByWarehouse.keys(), naturalCompare);
  const fieldRank = new Map(
    [...fieldsByWarehouse].map(([warehouse, fields]) => [warehouse, ranks(fields, compareFieldNames)]),
  );
  return vaults
    .map((vault) => {
      const warehouse = vault.warehouse_name ?? '';
      return {
        vault,
        warehouse: warehouseRank.get(warehouse)!,
        field: fieldRank.get(warehouse)!.get(vault.field_name ?? '')!,
      };
    })
    .sort(
      (a, b) =>
        a.warehouse - b.warehouse ||
        a.field - b.field ||
        comparePositions(a.vault.position, b.vault.position),
    )
    .map((keyed) => keyed.vault);
}

export const PRINT_CSV_HEADER = [
  'Vault Name',
  'Customer Name',
  'Vault Type',
  'Position',
  'Field Name',
  'Warehouse Name',
  'Notes',
] as const;

/** The cells of one CSV line, in the header's order. */
export function printCsvRow(vault: PrintVaultDto): (string | number | null)[] {
  return [
    vault.name,
    vault.customer_name,
    vault.type,
    vault.position,
    vault.field_name,
    vault.warehouse_name,
    vault.note,
  ];
}
