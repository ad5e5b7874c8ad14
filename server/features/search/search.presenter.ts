import { fieldName } from '@domain/rules/field-names';
import type { SearchHitDto, VaultPlaceDto } from '@domain/schemas/search.schema';
import type { SpreadRow, VaultHitRow } from './search.repo';
import { naturalCompare } from '@domain/rules/text';

export function presentVaultHit(row: VaultHitRow): SearchHitDto {
  let place: VaultPlaceDto;
  if (row.field_id !== null && row.col !== null && row.row !== null && row.warehouse_id !== null)
    place = {
      at: 'field',
      warehouse: { id: row.warehouse_id, name: row.warehouse_name!, slug: row.warehouse_slug! },
      fieldId: row.field_id,
      fieldName: fieldName(row.col, row.row),
      position: Number(row.position),
    };
  else if (row.released_at !== null)
    place = { at: 'released', releasedAt: row.released_at, releasedBy: row.released_by };
  else place = { at: 'stage' };
  return {
    kind: 'vault',
    id: row.id,
    name: row.name,
    customerName: row.customer_name,
    orderName: row.order_name,
    place,
  };
}

/** A customer or order with where its vaults and pallets are. */
export function presentOwnerHit(
  kind: 'customer' | 'order',
  owner: { id: number; name: string },
  vaults: SpreadRow[],
  pallets: SpreadRow[],
): SearchHitDto {
  const mine = (rows: SpreadRow[]) => rows.filter((r) => r.owner_id === owner.id);
  const sum = (rows: SpreadRow[]) => rows.reduce((total, r) => total + r.count, 0);
  const warehouses = new Set<string>();
  for (const r of [...mine(vaults), ...mine(pallets)]) if (r.warehouse_name) warehouses.add(r.warehouse_name);
  return {
    kind,
    id: owner.id,
    name: owner.name,
    vaults: sum(mine(vaults)),
    staged: sum(mine(vaults).filter((r) => r.warehouse_name === null)),
    pallets: sum(mine(pallets)),
    warehouses: [...warehouses].sort(naturalCompare),
  };
}
