import type { Selectable } from 'kysely';
import type { Db } from '../../db/database';
import type { WarehousesTable } from '../../db/schema';
import { nowIso } from '../../db/database';

/** A warehouse as its repository reads it: every column but when it was made. */
export type WarehouseRow = Omit<Selectable<WarehousesTable>, 'created_at'>;

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

export type WarehouseWithStatsRow = WarehouseRow & WarehouseCountsRow & { revision: number };

/** The kept counts and revisions of the company's warehouses, their slots summed (migration 0010). */
function summedStats(db: Db, companyId: number, warehouseId?: number) {
  let query = db
    .selectFrom('warehouse_stats')
    .select((eb) => [
      'warehouse_id',
      eb.fn.sum<number>('revision').as('revision'),
      eb.fn.sum<number>('vault_count').as('vault_count'),
      eb.fn.sum<number>('real_count').as('real_count'),
      eb.fn.sum<number>('empty_vault_count').as('empty_vault_count'),
      eb.fn.sum<number>('empty_couchbox_count').as('empty_couchbox_count'),
    ])
    .where('company_id', '=', companyId)
    .groupBy('warehouse_id');
  if (warehouseId !== undefined) query = query.where('warehouse_id', '=', warehouseId);
  return query;
}

/** The company's warehouses (or one) with their summed counts, as a query to run or to embed in a larger one. */
export function warehousesWithStats(db: Db, companyId: number, warehouseId?: number) {
  const query = db
    .selectFrom('warehouses as w')
    .innerJoin(summedStats(db, companyId, warehouseId).as('s'), 's.warehouse_id', 'w.id')
    .select(WAREHOUSE_COLUMNS.map((c) => `w.${c}` as const))
    .select([
      's.warehouse_id',
      's.revision',
      's.vault_count',
      's.real_count',
      's.empty_vault_count',
      's.empty_couchbox_count',
    ])
    .where('w.company_id', '=', companyId);
  return warehouseId === undefined ? query : query.where('w.id', '=', warehouseId);
}

/**
 * The company's warehouses with their counts and revisions, kept by the triggers of migration 0005: a read of one
 * row per warehouse, whatever the number of vaults.
 */
export async function listWarehousesWithStats(db: Db, companyId: number): Promise<WarehouseWithStatsRow[]> {
  return warehousesWithStats(db, companyId).execute();
}

/** One warehouse with its counts (the lean summary a write answers with). */
export async function findWarehouseWithStats(
  db: Db,
  companyId: number,
  warehouseId: number,
): Promise<WarehouseWithStatsRow | undefined> {
  return warehousesWithStats(db, companyId, warehouseId).executeTakeFirst();
}

/** What identifies the current state of a warehouse's answers: its layout version and its write revision. */
export async function findWarehouseRevision(
  db: Db,
  companyId: number,
  warehouseId: number,
): Promise<{ version: number; revision: number } | undefined> {
  return db
    .selectFrom('warehouses as w')
    .innerJoin(summedStats(db, companyId, warehouseId).as('s'), 's.warehouse_id', 'w.id')
    .select(['w.version', 's.revision'])
    .where('w.company_id', '=', companyId)
    .where('w.id', '=', warehouseId)
    .executeTakeFirst();
}
