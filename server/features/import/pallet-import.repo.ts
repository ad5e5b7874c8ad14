import type { Db } from '../../db/database';
import { nowIso } from '../../db/database';
import type { Trx } from '../../db/locks';
import type { PalletValues } from '../racks/pallets.repo';
import { palletsInRacks } from '../racks/racks.repo';

export interface ImportShelfRow {
  shelf_id: number;
  position: number;
  capacity: number;
  rack_id: number;
  rack_name: string;
  warehouse_id: number;
}

/** Every shelf of the company with its rack's name and warehouse. */
export async function findCompanyShelves(db: Db, companyId: number): Promise<ImportShelfRow[]> {
  return db
    .selectFrom('shelves as s')
    .innerJoin('racks as r', 'r.id', 's.rack_id')
    .select([
      's.id as shelf_id',
      's.position',
      's.capacity',
      'r.id as rack_id',
      'r.name as rack_name',
      'r.warehouse_id',
    ])
    .where('s.company_id', '=', companyId)
    .execute();
}

export interface ImportRackRow {
  id: number;
  warehouse_id: number;
  name: string;
  x: number;
  y: number;
  width: number;
  length: number;
  orientation: string;
}

/** Every rack of the company where it stands on its warehouse's floor. */
export async function findCompanyRacks(db: Db, companyId: number): Promise<ImportRackRow[]> {
  return db
    .selectFrom('racks')
    .select(['id', 'warehouse_id', 'name', 'x', 'y', 'width', 'length', 'orientation'])
    .where('company_id', '=', companyId)
    .execute();
}

/** Where the company's pallets stand on their shelves. */
export async function findCompanyPalletSpans(
  db: Db,
  companyId: number,
): Promise<{ id: number; shelf_id: number; slot_index: number; shelf_spots: number }[]> {
  return db
    .selectFrom('pallets')
    .select(['id', 'shelf_id', 'slot_index', 'shelf_spots'])
    .where('company_id', '=', companyId)
    .execute();
}

/** A pallet of an import: what the pallet dialog stores, on its shelf and slot. */
export type NewImportedPallet = PalletValues & { shelfId: number; slotIndex: number };

export async function insertPallets(
  trx: Trx,
  companyId: number,
  pallets: readonly NewImportedPallet[],
): Promise<number[]> {
  const now = nowIso();
  const ids: number[] = [];
  for (let i = 0; i < pallets.length; i += 500) {
    const rows = await trx
      .insertInto('pallets')
      .values(
        pallets.slice(i, i + 500).map((p) => ({
          company_id: companyId,
          shelf_id: p.shelfId,
          customer_id: p.customerId,
          order_id: p.orderId,
          name: p.name,
          pallet_number: p.palletNumber,
          notes: p.notes,
          weight: p.weight,
          shelf_spots: p.shelfSpots,
          slot_index: p.slotIndex,
          created_at: now,
        })),
      )
      .returning('id')
      .execute();
    for (const row of rows) ids.push(row.id);
  }
  return ids;
}

export async function findPalletStates(
  db: Db,
  companyId: number,
  palletIds: readonly number[],
): Promise<
  { id: number; version: number; customer_id: number; order_id: number | null; warehouse_id: number }[]
> {
  const out: {
    id: number;
    version: number;
    customer_id: number;
    order_id: number | null;
    warehouse_id: number;
  }[] = [];
  for (let i = 0; i < palletIds.length; i += 500)
    out.push(
      ...(await db
        .selectFrom('pallets as p')
        .innerJoin('shelves as s', 's.id', 'p.shelf_id')
        .innerJoin('racks as r', 'r.id', 's.rack_id')
        .select(['p.id', 'p.version', 'p.customer_id', 'p.order_id', 'r.warehouse_id'])
        .where('p.company_id', '=', companyId)
        .where('p.id', 'in', palletIds.slice(i, i + 500))
        .execute()),
    );
  return out;
}

export async function deletePallets(
  trx: Trx,
  companyId: number,
  palletIds: readonly number[],
): Promise<void> {
  for (let i = 0; i < palletIds.length; i += 500)
    await trx
      .deleteFrom('pallets')
      .where('company_id', '=', companyId)
      .where('id', 'in', palletIds.slice(i, i + 500))
      .execute();
}

export interface ExportPalletRow {
  rack_id: number;
  warehouse_name: string;
  rack_name: string;
  shelf: number;
  slot_index: number;
  customer_name: string;
  name: string | null;
  pallet_number: string | null;
  shelf_spots: number;
  weight: number;
  notes: string | null;
  order_name: string | null;
}

export async function findPalletsForExport(db: Db, companyId: number): Promise<ExportPalletRow[]> {
  return palletsInRacks(db)
    .leftJoin('orders as o', 'o.id', 'p.order_id')
    .select([
      'o.name as order_name',
      'r.id as rack_id',
      'w.name as warehouse_name',
      'r.name as rack_name',
      's.position as shelf',
      'p.slot_index',
      'c.name as customer_name',
      'p.name',
      'p.pallet_number',
      'p.shelf_spots',
      'p.weight',
      'p.notes',
    ])
    .where('p.company_id', '=', companyId)
    .orderBy('w.name')
    .orderBy('r.name')
    .orderBy('s.position')
    .orderBy('p.slot_index')
    .execute();
}
