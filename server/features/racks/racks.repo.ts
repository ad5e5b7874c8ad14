import type { Selectable } from 'kysely';
import type { Db } from '../../db/database';
import type { PalletsTable, RacksTable } from '../../db/schema';
import { nowIso } from '../../db/database';

/** A rack as its repository reads it: every column but when it was made. */
export type RackRow = Omit<Selectable<RacksTable>, 'created_at'>;

export interface ShelfRow {
  id: number;
  rack_id: number;
  position: number;
  capacity: number;
}

/** A pallet as the racks read it: its own columns but its company, with its customer's and its order's names. */
export type PalletRow = Omit<Selectable<PalletsTable>, 'company_id'> & {
  customer_name: string;
  order_name: string | null;
};

const RACK_COLUMNS = [
  'id',
  'company_id',
  'warehouse_id',
  'name',
  'orientation',
  'width',
  'length',
  'x',
  'y',
  'capacity',
  'version',
] as const;

export async function findRacksOfWarehouse(
  db: Db,
  companyId: number,
  warehouseId: number,
): Promise<RackRow[]> {
  return db
    .selectFrom('racks')
    .select(RACK_COLUMNS)
    .where('company_id', '=', companyId)
    .where('warehouse_id', '=', warehouseId)
    .orderBy('id')
    .execute();
}

export async function findRack(
  db: Db,
  companyId: number,
  warehouseId: number,
  rackId: number,
): Promise<RackRow | undefined> {
  return db
    .selectFrom('racks')
    .select(RACK_COLUMNS)
    .where('company_id', '=', companyId)
    .where('warehouse_id', '=', warehouseId)
    .where('id', '=', rackId)
    .executeTakeFirst();
}

/** A new rack: its company and warehouse, and what the rack dialog sets. */
export type NewRack = { companyId: number; warehouseId: number } & Pick<
  RackRow,
  'name' | 'orientation' | 'width' | 'length' | 'x' | 'y' | 'capacity'
>;

export async function insertRack(db: Db, rack: NewRack): Promise<number> {
  const row = await db
    .insertInto('racks')
    .values({
      company_id: rack.companyId,
      warehouse_id: rack.warehouseId,
      name: rack.name,
      orientation: rack.orientation,
      width: rack.width,
      length: rack.length,
      x: rack.x,
      y: rack.y,
      capacity: rack.capacity,
      created_at: nowIso(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function insertShelves(
  db: Db,
  companyId: number,
  rackId: number,
  count: number,
  capacity: number,
): Promise<void> {
  const values = Array.from({ length: count }, (_, i) => ({
    company_id: companyId,
    rack_id: rackId,
    position: i + 1,
    capacity,
  }));
  await db.insertInto('shelves').values(values).execute();
}

/** Moves a rack when it still has the version the caller saw; answers whether it did. */
export async function moveRack(
  db: Db,
  companyId: number,
  rackId: number,
  change: { x: number; y: number; orientation: string; expectedVersion: number },
): Promise<boolean> {
  const result = await db
    .updateTable('racks')
    .set((eb) => ({
      x: change.x,
      y: change.y,
      orientation: change.orientation,
      version: eb('version', '+', 1),
    }))
    .where('company_id', '=', companyId)
    .where('id', '=', rackId)
    .where('version', '=', change.expectedVersion)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteRackRow(db: Db, companyId: number, rackId: number): Promise<void> {
  await db.deleteFrom('racks').where('company_id', '=', companyId).where('id', '=', rackId).execute();
}

export async function findShelvesOfRacks(db: Db, companyId: number, rackIds: number[]): Promise<ShelfRow[]> {
  if (rackIds.length === 0) return [];
  return db
    .selectFrom('shelves')
    .select(['id', 'rack_id', 'position', 'capacity'])
    .where('company_id', '=', companyId)
    .where('rack_id', 'in', rackIds)
    .orderBy('rack_id')
    .orderBy('position')
    .execute();
}

/** A pallet's columns with its customer's name (`p` with `c` joined). */
export const PALLET_COLUMNS = [
  'p.id',
  'p.shelf_id',
  'p.customer_id',
  'c.name as customer_name',
  'p.name',
  'p.pallet_number',
  'p.order_id',
  'o.name as order_name',
  'p.notes',
  'p.weight',
  'p.shelf_spots',
  'p.slot_index',
  'p.version',
  'p.created_at',
] as const;

export async function findPalletsOfRacks(db: Db, companyId: number, rackIds: number[]): Promise<PalletRow[]> {
  if (rackIds.length === 0) return [];
  return db
    .selectFrom('pallets as p')
    .innerJoin('shelves as s', 's.id', 'p.shelf_id')
    .innerJoin('customers as c', 'c.id', 'p.customer_id')
    .leftJoin('orders as o', 'o.id', 'p.order_id')
    .select(PALLET_COLUMNS)
    .where('s.company_id', '=', companyId)
    .where('s.rack_id', 'in', rackIds)
    .orderBy('p.shelf_id')
    .orderBy('p.slot_index')
    .execute();
}

export async function customersOfRack(db: Db, companyId: number, rackId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('pallets as p')
    .innerJoin('shelves as s', 's.id', 'p.shelf_id')
    .select('p.customer_id')
    .distinct()
    .where('s.company_id', '=', companyId)
    .where('s.rack_id', '=', rackId)
    .execute();
  return rows.map((r) => r.customer_id);
}

export interface RackChanges {
  name: string;
  orientation: string;
  width: number;
  length: number;
  capacity: number;
}

/** Rack Info's edit of a rack that still has the version the caller saw; answers whether it did. */
export async function updateRack(
  db: Db,
  companyId: number,
  rackId: number,
  changes: RackChanges,
  expectedVersion: number,
): Promise<boolean> {
  const result = await db
    .updateTable('racks')
    .set((eb) => ({ ...changes, version: eb('version', '+', 1) }))
    .where('company_id', '=', companyId)
    .where('id', '=', rackId)
    .where('version', '=', expectedVersion)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Removes shelves of a rack (their pallets must be gone already). */
export async function deleteShelves(
  db: Db,
  companyId: number,
  rackId: number,
  shelfIds: number[],
): Promise<void> {
  if (shelfIds.length === 0) return;
  await db
    .deleteFrom('shelves')
    .where('company_id', '=', companyId)
    .where('rack_id', '=', rackId)
    .where('id', 'in', shelfIds)
    .execute();
}

/** Adds shelves `from`..`to` (positions) to a rack, each with `capacity` spaces. */
export async function appendShelves(
  db: Db,
  companyId: number,
  rackId: number,
  range: { from: number; to: number },
  capacity: number,
): Promise<void> {
  const values = [];
  for (let position = range.from; position <= range.to; position++) {
    values.push({ company_id: companyId, rack_id: rackId, position, capacity });
  }
  if (values.length > 0) await db.insertInto('shelves').values(values).execute();
}

export async function setShelfCapacity(
  db: Db,
  companyId: number,
  rackId: number,
  capacity: number,
): Promise<void> {
  await db
    .updateTable('shelves')
    .set({ capacity })
    .where('company_id', '=', companyId)
    .where('rack_id', '=', rackId)
    .execute();
}

/**
 * Pallets (`p`) with where they stand and whose they are: shelf `s`, rack `r`, warehouse `w` and customer `c`. Every
 * read that names a pallet's place starts here.
 */
export function palletsInRacks(db: Db) {
  return db
    .selectFrom('pallets as p')
    .innerJoin('shelves as s', 's.id', 'p.shelf_id')
    .innerJoin('racks as r', 'r.id', 's.rack_id')
    .innerJoin('warehouses as w', 'w.id', 'r.warehouse_id')
    .innerJoin('customers as c', 'c.id', 'p.customer_id');
}

/** The pallets of one rack, or of every rack of a warehouse, with where they stand (for their removal events). */
export async function findPalletsToRemove(
  db: Db,
  companyId: number,
  where: { rackId: number } | { warehouseId: number },
) {
  let query = palletsInRacks(db)
    .select([
      'p.id',
      'p.name',
      'p.pallet_number',
      'p.slot_index',
      'p.shelf_spots',
      'p.order_id',
      'p.created_at',
      'c.name as customer_name',
      's.position as shelf',
      'r.id as rack_id',
      'r.name as rack_name',
    ])
    .where('p.company_id', '=', companyId);
  query =
    'rackId' in where
      ? query.where('r.id', '=', where.rackId)
      : query.where('r.warehouse_id', '=', where.warehouseId);
  return query.orderBy('p.id').execute();
}
