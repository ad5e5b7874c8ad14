import type { Db } from '../../db/database';

/** Demo racks with shelves and pallets in the demo warehouses. */
export async function seedDemoRacks(db: Db, companyId: number, warehouseIds: number[]): Promise<void> {
  void db;
  void companyId;
  void warehouseIds;
}
