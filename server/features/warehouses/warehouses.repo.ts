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

export async function findWarehouse(
  db: Db,
  companyId: number,
  warehouseId: number,
): Promise<WarehouseRow | undefined> {
  return db
    .selectFrom('warehouses')
    .select(WAREHOUSE_COLUMNS)
    .where('company_id', '=', companyId)
    .where('id', '=', warehouseId)
    .executeTakeFirst();
}

export async function listWarehouses(db: Db, companyId: number): Promise<WarehouseRow[]> {
  return db
    .selectFrom('warehouses')
    .select(WAREHOUSE_COLUMNS)
    .where('company_id', '=', companyId)
    .orderBy('name')
    .orderBy('id')
    .execute();
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
  await db
    .deleteFrom('warehouses')
    .where('company_id', '=', companyId)
    .where('id', '=', warehouseId)
    .execute();
}

export interface WarehouseCountsRow {
  warehouse_id: number;
  vault_count: number;
  real_count: number;
  empty_vault_count: number;
  empty_couchbox_count: number;
}

/**
 * The statistics counts of every warehouse of the company (or just one) in one grouped query. Whether a vault is
 * an EMPTY placeholder is decided once per customer (a short list) instead of once per vault, and one warehouse's
 * vaults are found through its fields, so the query reads only the rows it counts.
 */
export async function countVaultsByWarehouse(
  db: Db,
  companyId: number,
  warehouseId?: number,
): Promise<WarehouseCountsRow[]> {
  const emptyCustomers = db
    .selectFrom('customers')
    .select('id')
    .where('company_id', '=', companyId)
    .where(sql<boolean>`upper(name) like '%EMPTY%'`);
  let query = db
    .selectFrom('vaults as v')
    .innerJoin('fields as f', 'f.id', 'v.field_id')
    .select((eb) => [
      'f.warehouse_id',
      'v.type',
      eb.case().when('v.customer_id', 'in', emptyCustomers).then(1).else(0).end().as('is_empty'),
      eb.fn.countAll<number>().as('n'),
    ])
    .where('v.company_id', '=', companyId)
    .groupBy(['f.warehouse_id', 'v.type', 'is_empty']);
  if (warehouseId !== undefined) {
    query = query.where('v.field_id', 'in', (eb) =>
      eb
        .selectFrom('fields')
        .select('id')
        .where('warehouse_id', '=', warehouseId)
        .where('company_id', '=', companyId),
    );
  }
  const byWarehouse = new Map<number, WarehouseCountsRow>();
  for (const row of await query.execute()) {
    const id = Number(row.warehouse_id);
    let counts = byWarehouse.get(id);
    if (!counts) {
      counts = {
        warehouse_id: id,
        vault_count: 0,
        real_count: 0,
        empty_vault_count: 0,
        empty_couchbox_count: 0,
      };
      byWarehouse.set(id, counts);
    }
    const n = Number(row.n);
    counts.vault_count += n;
    if (Number(row.is_empty) === 0) counts.real_count += n;
    else if (row.type === 'vault') counts.empty_vault_count += n;
    else if (row.type === 'couchbox') counts.empty_couchbox_count += n;
  }
  return [...byWarehouse.values()];
}
