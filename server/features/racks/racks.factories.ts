import type { Db } from '../../db/database';
import { findOrCreateCustomer, findOrCreateOrder } from '../../customers/customers.repo';
import { insertPallet } from './pallets.repo';
import { findShelvesOfRacks, insertRack, insertShelves } from './racks.repo';

export interface BuiltRack {
  id: number;
  /** top shelf first */
  shelfIds: number[];
}

/** A rack with its shelves, placed where the caller says (no placement check: tests arrange edge cases too). */
export async function buildRack(
  db: Db,
  options: {
    companyId: number;
    warehouseId: number;
    name?: string;
    x?: number;
    y?: number;
    width?: number;
    length?: number;
    orientation?: 'horizontal' | 'vertical';
    shelves?: number;
    capacity?: number;
  },
): Promise<BuiltRack> {
  const capacity = options.capacity ?? 4;
  const id = await insertRack(db, {
    companyId: options.companyId,
    warehouseId: options.warehouseId,
    name: options.name ?? 'Rack',
    orientation: options.orientation ?? 'horizontal',
    width: options.width ?? 12,
    length: options.length ?? 4,
    x: options.x ?? 0,
    y: options.y ?? 0,
    capacity,
  });
  await insertShelves(db, options.companyId, id, options.shelves ?? 3, capacity);
  const shelves = await findShelvesOfRacks(db, options.companyId, [id]);
  return { id, shelfIds: shelves.map((s) => s.id) };
}

export async function buildPallet(
  db: Db,
  options: {
    companyId: number;
    shelfId: number;
    customer: string;
    slotIndex: number;
    spots?: number;
    name?: string;
    palletNumber?: string;
    notes?: string;
    weight?: number;
    /** the order (lot) of the pallet, billed on its storage account */
    order?: string;
  },
): Promise<number> {
  const customerId = await findOrCreateCustomer(db, options.companyId, options.customer.toUpperCase());
  const orderId = options.order ? await findOrCreateOrder(db, options.companyId, options.order) : null;
  return insertPallet(db, {
    companyId: options.companyId,
    shelfId: options.shelfId,
    slotIndex: options.slotIndex,
    customerId,
    orderId,
    name: options.name?.toUpperCase() ?? null,
    palletNumber: options.palletNumber ?? null,
    notes: options.notes ?? null,
    weight: options.weight ?? 0,
    shelfSpots: options.spots ?? 1,
  });
}
