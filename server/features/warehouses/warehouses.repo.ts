import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { nowIso } from '../../db/database';

export interface WarehouseRow {
  id: number;
  company_id: number;
  name: string;
  slug: string;
  rows: number;
  cols: number;
  field_capacity: number;
  length: number;
  width: number;
  grid_x: number;
  grid_y: number;
  version: number;
}

const WAREHOUSE_COLUMNS = [
  'id',
  'company_id',
  'name',
  'slug',
  'rows',
  'cols',
  'field_capacity',
  'length',
  'width',
  'grid_x',
  'grid_y',
  'version',
] as const;

export async function findWarehouse(db: Db, companyId: number, warehouseId: number): Promise<WarehouseRow | undefined> {
  return db
    .selectFrom('warehouses')
    .select(WAREHOUSE_COLUMNS)
    .where('company_id', '=', companyId)
    .where('id', '=', warehouseId)
    .executeTakeFirst();
}

export async function listWarehouses(db: Db, companyId: number): Promise<WarehouseRow[]> {
  return db.selectFrom('warehouses').select(WAREHOUSE_COLUMNS).where('company_id', '=', companyId).orderBy('name').orderBy('id').execute();
}

export async function findWarehouseNamed(db: Db, companyId: number, name: string, slug: string) {
  return db
    .selectFrom('warehouses')
    .select(['id', 'name', 'slug'])
    .where('company_id', '=', companyId)
    .where((eb) => eb.or([eb('name', '=', name), eb('slug', '=', slug)]))
    .executeTakeFirst();
}

export interface NewWarehouse {
  companyId: number;
  name: string;
  slug: string;
  rows: number;
  cols: number;
  fieldCapacity: number;
  length: number;
  width: number;
  gridX?: number;
  gridY?: number;
}

export async function insertWarehouse(db: Db, warehouse: NewWarehouse): Promise<number> {
  const row = await db
    .insertInto('warehouses')
    .values({
      company_id: warehouse.companyId,
      name: warehouse.name,
      slug: warehouse.slug,
      rows: warehouse.rows,
      cols: warehouse.cols,
      field_capacity: warehouse.fieldCapacity,
      length: warehouse.length,
      width: warehouse.width,
      grid_x: warehouse.gridX ?? 0,
      grid_y: warehouse.gridY ?? 0,
      created_at: nowIso(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function deleteWarehouseRow(db: Db, companyId: number, warehouseId: number): Promise<void> {
  await db.deleteFrom('warehouses').where('company_id', '=', companyId).where('id', '=', warehouseId).execute();
}

export interface WarehouseCountsRow {
  warehouse_id: number;
  vault_count: number;
  real_count: number;
  empty_vault_count: number;
  empty_couchbox_count: number;
}

/** The statistics counts of every warehouse of the company (or just one) in one grouped query. */
export async function countVaultsByWarehouse(db: Db, companyId: number, warehouseId?: number): Promise<WarehouseCountsRow[]> {
  const isEmpty = sql`upper(c.name) like '%EMPTY%'`;
  let query = db
    .selectFrom('vaults as v')
    .innerJoin('fields as f', 'f.id', 'v.field_id')
    .innerJoin('customers as c', 'c.id', 'v.customer_id')
    .select([
      'f.warehouse_id',
      sql<number>`count(v.id)`.as('vault_count'),
      sql<number>`sum(case when ${isEmpty} then 0 else 1 end)`.as('real_count'),
      sql<number>`sum(case when ${isEmpty} and v.type = 'vault' then 1 else 0 end)`.as('empty_vault_count'),
      sql<number>`sum(case when ${isEmpty} and v.type = 'couchbox' then 1 else 0 end)`.as('empty_couchbox_count'),
    ])
    .where('v.company_id', '=', companyId)
    .groupBy('f.warehouse_id');
  if (warehouseId !== undefined) query = query.where('f.warehouse_id', '=', warehouseId);
  const rows = await query.execute();
  return rows.map((r) => ({
    warehouse_id: r.warehouse_id,
    vault_count: Number(r.vault_count),
    real_count: Number(r.real_count),
    empty_vault_count: Number(r.empty_vault_count),
    empty_couchbox_count: Number(r.empty_couchbox_count),
  }));
}
