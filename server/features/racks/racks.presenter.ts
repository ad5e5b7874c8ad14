import { rackFootprint } from '@domain/rules/rack-placement';
import type { PalletDto, RackDto, ShelfDto } from '@domain/schemas/rack.schema';
import type { PalletRow, RackRow, ShelfRow } from './racks.repo';

export function presentPallet(row: PalletRow): PalletDto {
  const spots = row.shelf_spots;
  return {
    id: row.id,
    shelfId: row.shelf_id,
    name: row.name,
    customerName: row.customer_name,
    palletNumber: row.pallet_number,
    orderName: row.order_name,
    notes: row.notes,
    weight: row.weight,
    palletSpaces: spots,
    shelfSpots: spots,
    slotIndex: row.slot_index,
    version: row.version,
  };
}

export function presentShelf(row: ShelfRow, pallets: PalletRow[]): ShelfDto {
  return {
    id: row.id,
    position: row.position,
    capacity: row.capacity,
    pallets: pallets.map(presentPallet),
  };
}

export function presentRack(row: RackRow, shelves: ShelfDto[]): RackDto {
  const width = row.width;
  const length = row.length;
  const footprint = rackFootprint({ width, length, orientation: row.orientation });
  return {
    id: row.id,
    warehouseId: row.warehouse_id,
    name: row.name,
    orientation: row.orientation,
    width,
    length,
    capacity: row.capacity,
    num_shelves: shelves.length,
    position: { x: row.x, y: row.y, ...footprint },
    version: row.version,
    shelves,
  };
}

/** Racks with their shelves (top first) and pallets (left to right), from three flat lists. */
export function presentRacks(racks: RackRow[], shelves: ShelfRow[], pallets: PalletRow[]): RackDto[] {
  const palletsByShelf = new Map<number, PalletRow[]>();
  for (const pallet of pallets) {
    const list = palletsByShelf.get(pallet.shelf_id) ?? [];
    list.push(pallet);
    palletsByShelf.set(pallet.shelf_id, list);
  }
  const shelvesByRack = new Map<number, ShelfDto[]>();
  for (const shelf of shelves) {
    const list = shelvesByRack.get(shelf.rack_id) ?? [];
    list.push(presentShelf(shelf, palletsByShelf.get(shelf.id) ?? []));
    shelvesByRack.set(shelf.rack_id, list);
  }
  return racks.map((rack) => presentRack(rack, shelvesByRack.get(rack.id) ?? []));
}
