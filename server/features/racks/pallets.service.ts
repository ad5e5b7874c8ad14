import { firstFreeRun, freeSpots, palletFits, type SlotSpan } from '@domain/rules/rack-placement';
import {
  type AddPalletInput,
  type EditPalletInput,
  type MovePalletInput,
  PALLET_CHANGED,
  PALLET_STAYS_IN_WAREHOUSE,
  PALLET_OVERLAP,
  PALLET_SLOTS_TAKEN,
  type PalletDto,
  SHELF_NOT_FOUND,
  shelfSpaceMessage,
} from '@domain/schemas/rack.schema';
import type { Db } from '../../db/database';
import { lockShelves, lockWarehouse, type Trx } from '../../db/locks';
import { recordEvent } from '../../events/event-log.repo';
import { badRequest, conflict, notFound } from '../../http/errors';
import {
  deleteUnusedCustomers,
  deleteUnusedOrders,
  findOrCreateCustomer,
  findOrCreateOrder,
} from '../../customers/customers.repo';
import { actorName } from '../../auth/users.repo';
import type { Actor } from '../../auth/actor';
import type { Role } from '@domain/rules/roles';
import { checkPalletHoldOverride } from '../accounts/holds.service';
import {
  deletePalletRow,
  findPallet,
  findShelf,
  findSlotsOfShelf,
  insertPallet,
  placePallet,
  recordPalletDepartures,
  type PalletValues,
  type ShelfWithPlace,
  updatePallet,
} from './pallets.repo';
import { presentPallet } from './racks.presenter';

export const PALLET_NOT_FOUND = 'Pallet not found';

function spansOf(rows: { id: number; slot_index: number; shelf_spots: number }[]): SlotSpan[] {
  return rows.map((r) => ({ id: r.id, slotIndex: r.slot_index, spots: r.shelf_spots }));
}

/** Refuses a pallet that does not fit, with the spec's message for missing space (counted in spots). */
function requireFit(
  capacity: number,
  pallets: SlotSpan[],
  wanted: { slotIndex: number; spots: number },
  exceptId?: number,
  overlap = PALLET_OVERLAP,
) {
  const fit = palletFits(capacity, pallets, wanted, exceptId);
  if (fit.ok) return;
  throw badRequest(
    fit.reason === 'space' ? shelfSpaceMessage(capacity, freeSpots(capacity, pallets, exceptId)) : overlap,
  );
}

/**
 * The locks of pallet work (docs/decisions/003-locking.md): the shelf's warehouse shared, then the shelf. Answers the
 * shelf as it is once locked, or none when it went with its rack meanwhile.
 */
async function lockShelf(trx: Trx, actor: Actor, shelfId: number) {
  const located = await findShelf(trx, actor.companyId, shelfId);
  if (!located) return undefined;
  await lockWarehouse(trx, located.warehouse_id, 'share');
  await lockShelves(trx, [shelfId]);
  return findShelf(trx, actor.companyId, shelfId);
}

const PALLET_FIELDS = {
  customer_name: 'Customer',
  name: 'Name',
  pallet_number: 'Pallet number',
  order_name: 'Order',
  notes: 'Notes',
  weight: 'Weight',
  shelf_spots: 'Spaces',
} as const;
type PalletFields = { [K in keyof typeof PALLET_FIELDS]: string | number | null };

/** The pallet's fields an edit changed, each with its old and new value. */
function palletChanges(before: PalletFields, after: PalletFields) {
  const changes: Record<string, { label: string; before: unknown; after: unknown }> = {};
  for (const [key, label] of Object.entries(PALLET_FIELDS) as [keyof typeof PALLET_FIELDS, string][]) {
    const was =
      before[key] === null ? null : typeof after[key] === 'number' ? Number(before[key]) : before[key];
    if (was !== after[key]) changes[key] = { label, before: was, after: after[key] };
  }
  return changes;
}

/** What the pallet dialog stores, on adding and on editing: its customer (made if new), names, notes, weight, spots. */
async function palletValues(
  trx: Trx,
  actor: Actor,
  input: AddPalletInput | EditPalletInput,
  spots: number,
): Promise<PalletValues> {
  return {
    customerId: await findOrCreateCustomer(trx, actor.companyId, input.customer_name),
    orderId: input.order_name ? await findOrCreateOrder(trx, actor.companyId, input.order_name) : null,
    name: input.name ?? null,
    palletNumber: input.pallet_number ?? null,
    notes: input.notes ?? null,
    weight: input.weight,
    shelfSpots: spots,
  };
}

async function loadPallet(db: Db, companyId: number, palletId: number): Promise<PalletDto> {
  const row = await findPallet(db, companyId, palletId);
  if (!row) throw notFound(PALLET_NOT_FOUND);
  return presentPallet(row);
}

export async function addPallet(db: Db, actor: Actor, input: AddPalletInput): Promise<PalletDto> {
  if (input.shelf_id === undefined) throw notFound(SHELF_NOT_FOUND);
  const shelfId = input.shelf_id;
  return db.transaction().execute(async (trx) => {
    const shelf = await lockShelf(trx, actor, shelfId);
    if (!shelf) throw notFound(SHELF_NOT_FOUND);
    const capacity = shelf.capacity;
    const pallets = spansOf(await findSlotsOfShelf(trx, actor.companyId, shelfId));
    const spots = input.shelf_spots;
    const slotIndex = input.slot_index ?? firstFreeRun(capacity, pallets, spots) ?? 0;
    requireFit(capacity, pallets, { slotIndex, spots });
    const values = await palletValues(trx, actor, input, spots);
    const id = await insertPallet(trx, { ...values, companyId: actor.companyId, shelfId, slotIndex });
    await recordEvent(trx, {
      companyId: actor.companyId,
      userId: actor.userId,
      kind: 'pallet.added',
      entityType: 'pallet',
      entityId: id,
      warehouseId: shelf.warehouse_id,
      subject: input.pallet_number ?? input.name ?? null,
      customer: input.customer_name,
      payload: {
        shelfId,
        slotIndex,
        customer: input.customer_name,
        before: null,
        after: { rackId: shelf.rack_id, shelfId, slot: slotIndex + 1, spots },
      },
    });
    return loadPallet(trx, actor.companyId, id);
  });
}

/** Edits a pallet in place; more spaces must be free to its right, not counting the pallet itself. */
export async function editPallet(
  db: Db,
  actor: Actor,
  palletId: number,
  input: EditPalletInput,
): Promise<PalletDto> {
  return db.transaction().execute(async (trx) => {
    const located = await findPallet(trx, actor.companyId, palletId);
    if (!located) throw notFound(PALLET_NOT_FOUND);
    const shelf = await lockShelf(trx, actor, located.shelf_id);
    if (!shelf) throw notFound(SHELF_NOT_FOUND);
    const pallet = await findPallet(trx, actor.companyId, palletId);
    if (!pallet) throw notFound(PALLET_NOT_FOUND);
    if (input.version !== undefined && input.version !== pallet.version) throw conflict(PALLET_CHANGED);
    const spots = input.pallet_spaces ?? pallet.shelf_spots;
    const pallets = spansOf(await findSlotsOfShelf(trx, actor.companyId, shelf.id));
    requireFit(shelf.capacity, pallets, { slotIndex: pallet.slot_index, spots }, palletId);
    const values = await palletValues(trx, actor, input, spots);
    const { customerId, orderId } = values;
    const updated = await updatePallet(trx, actor.companyId, palletId, values, pallet.version);
    if (!updated) throw conflict(PALLET_CHANGED);
    if (customerId !== pallet.customer_id)
      await deleteUnusedCustomers(trx, actor.companyId, [pallet.customer_id]);
    if (pallet.order_id !== null && orderId !== pallet.order_id)
      await deleteUnusedOrders(trx, actor.companyId, [pallet.order_id]);
    await recordEvent(trx, {
      companyId: actor.companyId,
      userId: actor.userId,
      kind: 'pallet.edited',
      entityType: 'pallet',
      entityId: palletId,
      warehouseId: shelf.warehouse_id,
      subject: input.pallet_number ?? input.name ?? null,
      customer: input.customer_name,
      payload: {
        customer: input.customer_name,
        spots,
        changes: palletChanges(pallet, {
          customer_name: input.customer_name,
          name: input.name ?? null,
          pallet_number: input.pallet_number ?? null,
          order_name: input.order_name ?? null,
          notes: input.notes ?? null,
          weight: input.weight,
          shelf_spots: spots,
        }),
      },
    });
    return loadPallet(trx, actor.companyId, palletId);
  });
}

/** A pallet's place as its history keeps it: the rack and shelf by id and by name, the 1-based slot, its spots. */
const placeOf = (shelf: ShelfWithPlace, slotIndex: number, spots: number) => ({
  rackId: shelf.rack_id,
  rack: shelf.rack_name,
  shelfId: shelf.id,
  shelf: shelf.position,
  slot: slotIndex + 1,
  spots,
});

/**
 * Moves a pallet to another shelf of its warehouse, or along its own shelf: the spots it needs must be free there, not
 * counting the pallet itself. Both shelves are locked in id order, so two moves onto one free run cannot both land.
 */
export async function movePallet(
  db: Db,
  actor: Actor,
  palletId: number,
  input: MovePalletInput,
): Promise<PalletDto> {
  return db.transaction().execute(async (trx) => {
    const located = await findPallet(trx, actor.companyId, palletId);
    if (!located) throw notFound(PALLET_NOT_FOUND);
    const [from, to] = await Promise.all([
      findShelf(trx, actor.companyId, located.shelf_id),
      findShelf(trx, actor.companyId, input.shelf_id),
    ]);
    if (!from || !to) throw notFound(SHELF_NOT_FOUND);
    if (to.warehouse_id !== from.warehouse_id) throw badRequest(PALLET_STAYS_IN_WAREHOUSE);
    await lockWarehouse(trx, from.warehouse_id, 'share');
    await lockShelves(trx, [from.id, to.id]);
    const pallet = await findPallet(trx, actor.companyId, palletId);
    const target = await findShelf(trx, actor.companyId, to.id);
    if (!pallet) throw notFound(PALLET_NOT_FOUND);
    if (!target) throw notFound(SHELF_NOT_FOUND);
    if (input.version !== undefined && input.version !== pallet.version) throw conflict(PALLET_CHANGED);
    const spots = Number(pallet.shelf_spots);
    const pallets = spansOf(await findSlotsOfShelf(trx, actor.companyId, target.id));
    const slotIndex = input.slot_index ?? firstFreeRun(target.capacity, pallets, spots, palletId) ?? 0;
    if (target.id === pallet.shelf_id && slotIndex === Number(pallet.slot_index))
      return presentPallet(pallet);
    requireFit(target.capacity, pallets, { slotIndex, spots }, palletId, PALLET_SLOTS_TAKEN);
    const placed = await placePallet(
      trx,
      actor.companyId,
      palletId,
      { shelfId: target.id, slotIndex },
      pallet.version,
    );
    if (!placed) throw conflict(PALLET_CHANGED);
    // where it stood once locked: a move meanwhile within the warehouse may have taken it off `from`
    const before =
      pallet.shelf_id === from.id ? from : ((await findShelf(trx, actor.companyId, pallet.shelf_id)) ?? from);
    await recordEvent(trx, {
      companyId: actor.companyId,
      userId: actor.userId,
      kind: 'pallet.moved',
      entityType: 'pallet',
      entityId: palletId,
      warehouseId: target.warehouse_id,
      subject: pallet.pallet_number ?? pallet.name,
      customer: pallet.customer_name,
      payload: {
        customer: pallet.customer_name,
        before: placeOf(before, Number(pallet.slot_index), spots),
        after: placeOf(target, slotIndex, spots),
      },
    });
    return loadPallet(trx, actor.companyId, palletId);
  });
}

export async function deletePallet(
  db: Db,
  actor: Actor & { role: Role },
  palletId: number,
  overrideReason?: string,
): Promise<{ message: string; id: number }> {
  await db.transaction().execute(async (trx) => {
    const located = await findPallet(trx, actor.companyId, palletId);
    if (!located) throw notFound(PALLET_NOT_FOUND);
    const shelf = await lockShelf(trx, actor, located.shelf_id);
    const pallet = await findPallet(trx, actor.companyId, palletId);
    if (!pallet) throw notFound(PALLET_NOT_FOUND);
    // a pallet of an account on hold leaves only with a Manager's reason (decision 039)
    await checkPalletHoldOverride(trx, actor, [palletId], overrideReason);
    // a pallet of an order leaves the warehouse: its move-out is kept for billing (decision 051)
    await recordPalletDepartures(
      trx,
      actor.companyId,
      [pallet],
      shelf?.warehouse_id ?? null,
      await actorName(trx, actor.userId),
    );
    await deletePalletRow(trx, actor.companyId, palletId);
    await deleteUnusedCustomers(trx, actor.companyId, [pallet.customer_id]);
    await recordEvent(trx, {
      companyId: actor.companyId,
      userId: actor.userId,
      kind: 'pallet.deleted',
      entityType: 'pallet',
      entityId: palletId,
      warehouseId: shelf?.warehouse_id ?? null,
      subject: pallet.pallet_number ?? pallet.name,
      customer: pallet.customer_name,
      payload: {
        customer: pallet.customer_name,
        before: {
          rackId: shelf?.rack_id ?? null,
          shelfId: pallet.shelf_id,
          slot: Number(pallet.slot_index) + 1,
          spots: Number(pallet.shelf_spots),
          name: pallet.name,
          notes: pallet.notes,
        },
        after: null,
      },
    });
  });
  return { message: 'Pallet deleted successfully', id: palletId };
}
