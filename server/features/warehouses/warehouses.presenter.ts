import type {
  FieldDto,
  WarehouseDto,
  WarehouseStats,
  WarehouseSummaryDto,
} from '@domain/schemas/warehouse.schema';
import { warehouseCapacity } from '@domain/rules/capacity';
import type { WarehouseRow } from './warehouses.repo';

export const NO_VAULTS: WarehouseStats = {
  vaultCount: 0,
  realVaultCount: 0,
  emptyVaultCount: 0,
  emptyCouchboxCount: 0,
};

export function presentWarehouseSummary(row: WarehouseRow, stats: WarehouseStats): WarehouseSummaryDto {
  const fieldCapacity = row.field_capacity;
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    companyId: row.company_id,
    rows: row.rows,
    cols: row.cols,
    fieldCapacity,
    field_capacity: fieldCapacity,
    length: row.length,
    width: row.width,
    warehouseCapacity: warehouseCapacity(row.rows, row.cols, fieldCapacity),
    fieldgridLocation: { x: row.grid_x, y: row.grid_y },
    version: row.version,
    stats,
  };
}

export function presentWarehouse(
  row: WarehouseRow,
  stats: WarehouseStats,
  fields: FieldDto[],
  names: { customers: string[]; orders: string[] },
): WarehouseDto {
  const byId: Record<number, FieldDto> = {};
  for (const field of fields) byId[field.id] = field;
  return {
    ...presentWarehouseSummary(row, stats),
    fields: byId,
    customers: names.customers,
    orders: names.orders,
  };
}
