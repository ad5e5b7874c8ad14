import type { Db } from '../../db/database';
import { nowIso } from '../../db/database';
import { PALLET_COLUMNS, type PalletRow } from './racks.repo';

export interface ShelfWithPlace {
  id: number;
  rack_id: number;
  capacity: number;
  position: number;
  rack_name: string;
  warehouse_id: number;
}

/** The shelf with its rack's warehouse, only when it belongs to the company. */
export async function findShelf(
  db: Db,
  companyId: number,
  shelfId: number,
): Promise<ShelfWithPlace | undefined> {
  return db
    .selectFrom('shelves as s')
    .innerJoin('racks as r', 'r.id', 's.rack_id')
    .select(['s.id', 's.rack_id', 's.capacity', 's.position', 'r.name as rack_name', 'r.warehouse_id'])
    .where('s.company_id', '=', companyId)
    .where('s.id', '=', shelfId)
    .executeTakeFirst();
}

export interface SlotRow {
  id: number;
  slot_index: number;
  shelf_spots: number;
}

export async function findSlotsOfShelf(db: Db, companyId: number, shelfId: number): Promise<SlotRow[]> {
  return db
    .selectFrom('pallets')
    .select(['id', 'slot_index', 'shelf_spots'])
    .where('company_id', '=', companyId)
    .where('shelf_id', '=', shelfId)
    .execute();
}

export async function findPallet(
  db: Db,
  companyId: number,
  palletId: number,
): Promise<PalletRow | undefined> {
  return db
    .selectFrom('pallets as p')
    .innerJoin('customers as c', 'c.id', 'p.customer_id')
    .leftJoin('orders as o', 'o.id', 'p.order_id')
    .select(PALLET_COLUMNS)
    .where('p.company_id', '=', companyId)
    .where('p.id', '=', palletId)
    .executeTakeFirst();
}

export interface PalletValues {
  customerId: number;
  orderId: number | null;
  name: string | null;
  palletNumber: string | null;
  notes: string | null;
  weight: number;
  shelfSpots: number;
}

export async function insertPallet(
  db: Db,
  pallet: PalletValues & { companyId: number; shelfId: number; slotIndex: number },
): Promise<number> {
  const row = await db
    .insertInto('pallets')
    .values({
      company_id: pallet.companyId,
      shelf_id: pallet.shelfId,
      customer_id: pallet.customerId,
      order_id: pallet.orderId,
      name: pallet.name,
      pallet_number: pallet.palletNumber,
      notes: pallet.notes,
      weight: pallet.weight,
      shelf_spots: pallet.shelfSpots,
      slot_index: pallet.slotIndex,
      created_at: nowIso(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Updates a pallet when it still has the version the caller saw; answers whether it did. */
export async function updatePallet(
  db: Db,
  companyId: number,
  palletId: number,
  values: PalletValues,
  expectedVersion: number,
): Promise<boolean> {
  const result = await db
    .updateTable('pallets')
    .set((eb) => ({
      customer_id: values.customerId,
      order_id: values.orderId,
      name: values.name,
      pallet_number: values.palletNumber,
      notes: values.notes,
      weight: values.weight,
      shelf_spots: values.shelfSpots,
      version: eb('version', '+', 1),
    }))
    .where('company_id', '=', companyId)
    .where('id', '=', palletId)
    .where('version', '=', expectedVersion)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Puts a pallet on a shelf at a slot when it still has the version the caller saw; answers whether it did. */
export async function placePallet(
  db: Db,
  companyId: number,
  palletId: number,
  place: { shelfId: number; slotIndex: number },
  expectedVersion: number,
): Promise<boolean> {
  const result = await db
    .updateTable('pallets')
    .set((eb) => ({ shelf_id: place.shelfId, slot_index: place.slotIndex, version: eb('version', '+', 1) }))
    .where('company_id', '=', companyId)
    .where('id', '=', palletId)
    .where('version', '=', expectedVersion)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deletePalletRow(db: Db, companyId: number, palletId: number): Promise<void> {
  await db.deleteFrom('pallets').where('company_id', '=', companyId).where('id', '=', palletId).execute();
}

/**
 * Pallets about to leave the warehouse (deleted, alone or with their rack or warehouse): those of an order are
 * written down as departures, so the order's storage account bills them up to this day (issue 28, decision 051).
 */
export async function recordPalletDepartures(
  db: Db,
  companyId: number,
  pallets: {
    id: number;
    order_id: number | null;
    pallet_number: string | null;
    name: string | null;
    created_at: string;
  }[],
  warehouseId: number | null,
  by: string | null,
): Promise<void> {
  const rows = pallets
    .filter((p) => p.order_id !== null)
    .map((p) => ({
      company_id: companyId,
      pallet_id: p.id,
      order_id: p.order_id!,
      warehouse_id: warehouseId,
      label: p.pallet_number ?? p.name,
      moved_in_at: p.created_at,
      moved_out_by: by,
      moved_out_at: nowIso(),
    }));
  for (let i = 0; i < rows.length; i += 500)
    await db
      .insertInto('pallet_departures')
      .values(rows.slice(i, i + 500))
      .execute();
}
