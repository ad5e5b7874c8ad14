import { fieldBlockObstacle, placementProblem, rackFootprint } from '@domain/rules/rack-placement';
import {
  type AddRackInput,
  type EditRackInput,
  type MoveRackInput,
  RACK_CHANGED,
  type RackDto,
  shelfCapacityHoldsPallets,
  shelfCountHoldsPallets,
} from '@domain/schemas/rack.schema';
import type { Db } from '../../db/database';
import type { Trx } from '../../db/locks';
import { recordEvent, recordEvents } from '../../events/event-log.repo';
import { badRequest, conflict, notFound } from '../../http/errors';
import { deleteUnusedCustomers } from '../../customers/customers.repo';
import type { Actor } from '../../auth/actor';
import { actorName } from '../../auth/users.repo';
import { recordPalletDepartures } from './pallets.repo';
import { refuseHeldPalletsOfRack } from '../accounts/holds.service';
import { lockWarehouseLayout, requireWarehouse } from '../warehouses/warehouse-access';
import { presentRacks } from './racks.presenter';
import {
  appendShelves,
  customersOfRack,
  deleteRackRow,
  deleteShelves,
  findPalletsOfRacks,
  findPalletsToRemove,
  findRack,
  findRacksOfWarehouse,
  findShelvesOfRacks,
  insertRack,
  insertShelves,
  moveRack as moveRackRow,
  type RackRow,
  setShelfCapacity,
  updateRack,
} from './racks.repo';
import type { WarehouseRow } from '../warehouses/warehouses.repo';

export const RACK_NOT_FOUND = 'Rack not found';

/** Racks are part of the floor's layout: their changes lock the warehouse exclusively, then read it. */
function lockFloor(trx: Trx, actor: Actor, warehouseId: number) {
  return lockWarehouseLayout(trx, actor.companyId, warehouseId);
}

async function withContents(db: Db, companyId: number, racks: RackRow[]): Promise<RackDto[]> {
  const ids = racks.map((r) => r.id);
  const [shelves, pallets] = await Promise.all([
    findShelvesOfRacks(db, companyId, ids),
    findPalletsOfRacks(db, companyId, ids),
  ]);
  return presentRacks(racks, shelves, pallets);
}

export async function listRacks(db: Db, companyId: number, warehouseId: number): Promise<RackDto[]> {
  await requireWarehouse(db, companyId, warehouseId);
  return withContents(db, companyId, await findRacksOfWarehouse(db, companyId, warehouseId));
}

async function loadRack(db: Db, companyId: number, warehouseId: number, rackId: number): Promise<RackDto> {
  const rack = await findRack(db, companyId, warehouseId, rackId);
  if (!rack) throw notFound(RACK_NOT_FOUND);
  const [dto] = await withContents(db, companyId, [rack]);
  return dto!;
}

/** The other racks of the warehouse as rectangles on the floor. */
function rectsOf(racks: RackRow[]) {
  return racks.map((r) => ({
    x: r.x,
    y: r.y,
    ...rackFootprint({ width: r.width, length: r.length, orientation: r.orientation }),
    name: r.name,
  }));
}

/** Inside the walls, clear of the other racks and of the VAULTS field block. */
function checkPlacement(
  warehouse: Pick<WarehouseRow, 'width' | 'length' | 'rows' | 'cols' | 'grid_x' | 'grid_y'>,
  rect: { x: number; y: number; width: number; length: number },
  others: RackRow[],
) {
  const block = fieldBlockObstacle({
    rows: warehouse.rows,
    cols: warehouse.cols,
    x: warehouse.grid_x,
    y: warehouse.grid_y,
  });
  const problem = placementProblem(rect, { width: warehouse.width, length: warehouse.length }, [
    ...rectsOf(others),
    ...block,
  ]);
  if (problem) throw badRequest(`Invalid rack position: ${problem}`);
}

/** Creates the rack and its shelves, each with `capacity` pallet slots, where it does not collide. */
export async function addRack(
  db: Db,
  actor: Actor,
  warehouseId: number,
  input: AddRackInput,
): Promise<RackDto> {
  const rackId = await db.transaction().execute(async (trx) => {
    const warehouse = await lockFloor(trx, actor, warehouseId);
    const footprint = rackFootprint(input);
    const others = await findRacksOfWarehouse(trx, actor.companyId, warehouseId);
    checkPlacement(warehouse, { ...input.position, ...footprint }, others);
    const id = await insertRack(trx, {
      companyId: actor.companyId,
      warehouseId,
      name: input.name,
      orientation: input.orientation,
      width: input.width,
      length: input.length,
      x: input.position.x,
      y: input.position.y,
      capacity: input.capacity,
    });
    await insertShelves(trx, actor.companyId, id, input.num_shelves, input.capacity);
    await recordEvent(trx, {
      companyId: actor.companyId,
      userId: actor.userId,
      kind: 'rack.added',
      entityType: 'rack',
      entityId: id,
      warehouseId,
      payload: { name: input.name },
    });
    return id;
  });
  return loadRack(db, actor.companyId, warehouseId, rackId);
}

/**
 * One change of a rack, in a transaction under its warehouse's exclusive lock: `change` gets the warehouse, the rack
 * and the other racks of the floor (what it must still fit beside). A version the client sends must still be the
 * rack's. Answers the rack as it now is.
 */
async function changeRack(
  db: Db,
  actor: Actor,
  ids: { warehouseId: number; rackId: number; version: number | undefined },
  change: (trx: Trx, locked: { warehouse: WarehouseRow; rack: RackRow; others: RackRow[] }) => Promise<void>,
): Promise<RackDto> {
  const { warehouseId, rackId, version } = ids;
  await db.transaction().execute(async (trx) => {
    const warehouse = await lockFloor(trx, actor, warehouseId);
    const racks = await findRacksOfWarehouse(trx, actor.companyId, warehouseId);
    const rack = racks.find((r) => r.id === rackId);
    if (!rack) throw notFound(RACK_NOT_FOUND);
    if (version !== undefined && version !== rack.version) throw conflict(RACK_CHANGED);
    await change(trx, { warehouse, rack, others: racks.filter((r) => r.id !== rackId) });
  });
  return loadRack(db, actor.companyId, warehouseId, rackId);
}

/** Moves (and maybe turns) a rack after checking the walls and the other racks again. */
export async function moveRack(
  db: Db,
  actor: Actor,
  warehouseId: number,
  rackId: number,
  input: MoveRackInput,
): Promise<RackDto> {
  return changeRack(db, actor, { warehouseId, rackId, version: input.version }, async (trx, locked) => {
    const { warehouse, rack, others } = locked;
    const orientation = input.orientation ?? rack.orientation;
    const footprint = rackFootprint({ width: rack.width, length: rack.length, orientation });
    const { x, y } = input.position;
    checkPlacement(warehouse, { x, y, ...footprint }, others);
    const moved = await moveRackRow(trx, actor.companyId, rackId, {
      x,
      y,
      orientation,
      expectedVersion: rack.version,
    });
    if (!moved) throw conflict(RACK_CHANGED);
    await recordEvent(trx, {
      companyId: actor.companyId,
      userId: actor.userId,
      kind: 'rack.moved',
      entityType: 'rack',
      entityId: rackId,
      warehouseId,
      payload: { x, y, orientation },
    });
  });
}

/**
 * Rack Info's edit: name, size, orientation, shelf count and shelf capacity. The rack keeps its corner and must
 * still fit (walls, racks, VAULTS block); shelves that go must be empty, and no shelf may shrink below the spaces
 * its pallets reach.
 */
export async function editRack(
  db: Db,
  actor: Actor,
  warehouseId: number,
  rackId: number,
  input: EditRackInput,
): Promise<RackDto> {
  return changeRack(db, actor, { warehouseId, rackId, version: input.version }, async (trx, locked) => {
    const { warehouse, rack, others } = locked;
    const next = {
      name: input.name ?? rack.name,
      orientation: input.orientation ?? rack.orientation,
      width: input.width ?? rack.width,
      length: input.length ?? rack.length,
      capacity: input.capacity ?? rack.capacity,
    };
    const footprint = rackFootprint(next);
    checkPlacement(warehouse, { x: rack.x, y: rack.y, ...footprint }, others);

    const [shelves, pallets] = await Promise.all([
      findShelvesOfRacks(trx, actor.companyId, [rackId]),
      findPalletsOfRacks(trx, actor.companyId, [rackId]),
    ]);
    const count = input.num_shelves ?? shelves.length;
    const leaving = shelves.slice(count);
    for (const shelf of leaving) {
      const held = pallets.filter((p) => p.shelf_id === shelf.id).length;
      if (held > 0) throw badRequest(shelfCountHoldsPallets(shelf.position, held));
    }
    const capacityChanged = input.capacity !== undefined;
    if (capacityChanged) {
      for (const shelf of shelves.slice(0, count)) {
        const reach = pallets
          .filter((p) => p.shelf_id === shelf.id)
          .reduce((end, p) => Math.max(end, p.slot_index + p.shelf_spots), 0);
        if (reach > next.capacity) throw badRequest(shelfCapacityHoldsPallets(shelf.position, reach));
      }
    }

    const updated = await updateRack(trx, actor.companyId, rackId, next, rack.version);
    if (!updated) throw conflict(RACK_CHANGED);
    await deleteShelves(
      trx,
      actor.companyId,
      rackId,
      leaving.map((s) => s.id),
    );
    if (capacityChanged) await setShelfCapacity(trx, actor.companyId, rackId, next.capacity);
    const top = shelves.reduce((max, s) => Math.max(max, s.position), 0);
    if (count > shelves.length) {
      await appendShelves(
        trx,
        actor.companyId,
        rackId,
        { from: top + 1, to: top + count - shelves.length },
        next.capacity,
      );
    }
    await recordEvent(trx, {
      companyId: actor.companyId,
      userId: actor.userId,
      kind: 'rack.edited',
      entityType: 'rack',
      entityId: rackId,
      warehouseId,
      payload: { ...next, num_shelves: count },
    });
  });
}

/** Deletes the rack; its shelves and pallets go with it, and customers left without vaults or pallets too. */
export async function deleteRack(
  db: Db,
  actor: Actor,
  warehouseId: number,
  rackId: number,
): Promise<{ message: string; id: number }> {
  await db.transaction().execute(async (trx) => {
    const warehouse = await lockFloor(trx, actor, warehouseId);
    const rack = await findRack(trx, actor.companyId, warehouseId, rackId);
    if (!rack) throw notFound(RACK_NOT_FOUND);
    // its pallets would leave with it, around a hold (decision 051)
    await refuseHeldPalletsOfRack(trx, actor.companyId, rackId);
    const customers = await customersOfRack(trx, actor.companyId, rackId);
    const pallets = await recordPalletRemovals(
      trx,
      actor,
      { id: warehouseId, name: warehouse.name },
      { rackId },
      'rack-deleted',
    );
    await deleteRackRow(trx, actor.companyId, rackId);
    await deleteUnusedCustomers(trx, actor.companyId, customers);
    await recordEvent(trx, {
      companyId: actor.companyId,
      userId: actor.userId,
      kind: 'rack.deleted',
      entityType: 'rack',
      entityId: rackId,
      warehouseId,
      payload: { name: rack.name, pallets },
    });
  });
  return { message: 'Rack deleted successfully', id: rackId };
}

/**
 * Records a 'pallet.removed' event for each pallet about to go with its rack or warehouse (issue 34): where it stood,
 * names as they were. Answers what went, for the rack's or warehouse's own event.
 */
export async function recordPalletRemovals(
  trx: Trx,
  actor: Actor,
  warehouse: { id: number; name: string },
  where: { rackId: number } | { warehouseId: number },
  reason: 'rack-deleted' | 'warehouse-deleted',
) {
  const pallets = await findPalletsToRemove(trx, actor.companyId, where);
  // pallets of an order leave with their rack: their move-out is kept for billing (decision 051)
  await recordPalletDepartures(
    trx,
    actor.companyId,
    pallets,
    warehouse.id,
    await actorName(trx, actor.userId),
  );
  await recordEvents(
    trx,
    pallets.map((p) => ({
      companyId: actor.companyId,
      userId: actor.userId,
      kind: 'pallet.removed',
      entityType: 'pallet' as const,
      entityId: p.id,
      warehouseId: warehouse.id,
      warehouseName: warehouse.name,
      subject: p.pallet_number ?? p.name,
      customer: p.customer_name,
      payload: {
        reason,
        customer: p.customer_name,
        before: {
          warehouse: warehouse.name,
          rackId: p.rack_id,
          rack: p.rack_name,
          shelf: Number(p.shelf),
          slot: Number(p.slot_index) + 1,
          spots: Number(p.shelf_spots),
          name: p.name,
        },
        after: null,
      },
    })),
  );
  return pallets.map((p) => ({
    id: p.id,
    number: p.pallet_number ?? p.name,
    customer: p.customer_name,
    rack: p.rack_name,
    shelf: Number(p.shelf),
  }));
}

/** The racks feature's step in a warehouse's delete (registered by feature-routes.ts). */
export const removePalletsOfWarehouse = async (
  trx: Trx,
  actor: Actor,
  warehouse: { id: number; name: string },
) => ({
  pallets: await recordPalletRemovals(
    trx,
    actor,
    warehouse,
    { warehouseId: warehouse.id },
    'warehouse-deleted',
  ),
});
