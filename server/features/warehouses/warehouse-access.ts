import type { Db } from '../../db/database';
import { lockWarehouse, type Trx } from '../../db/locks';
import { notFound } from '../../http/errors';
import { findWarehouse, type WarehouseRow } from './warehouses.repo';

export const WAREHOUSE_NOT_FOUND = 'Warehouse not found';

/** The company's warehouse, or a 404: another company's warehouse is not found either. */
export async function requireWarehouse(
  db: Db,
  companyId: number,
  warehouseId: number,
): Promise<WarehouseRow> {
  const warehouse = await findWarehouse(db, companyId, warehouseId);
  if (!warehouse) throw notFound(WAREHOUSE_NOT_FOUND);
  return warehouse;
}

/**
 * Layout changes (dimensions, grid, racks, delete) lock the warehouse exclusively (docs/decisions/003-locking.md), then
 * read it; only a warehouse of the caller's company is locked.
 */
export async function lockWarehouseLayout(
  trx: Trx,
  companyId: number,
  warehouseId: number,
): Promise<WarehouseRow> {
  await requireWarehouse(trx, companyId, warehouseId);
  await lockWarehouse(trx, warehouseId, 'update');
  return requireWarehouse(trx, companyId, warehouseId);
}
