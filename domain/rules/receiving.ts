import { naturalCompare } from './text';
import { isCouchboxField } from './capacity';
import { compareFieldNames, parseFieldName } from './field-names';
import type { ShipmentProposalDto } from '../schemas/receiving.schema';
import { freeSlotOf, roomOf } from './slots';

/**
 * Receiving (issue 16): slots for a new shipment that keep an order together. Fields that already hold the customer's
 * vaults come first, then the other fields of the warehouses where the customer has vaults, then every other field,
 * each group in walking order. Within a group the shipment goes into as few fields as possible: a field with room for
 * all that is left when there is one (the first in walking order), else the field with the most room. Couchboxes go
 * only into couchbox fields, everything else only into plain vault fields, and each field fills from its next free
 * slot downward-up, as the slot rules demand.
 */

export interface ReceivingField {
  fieldId: number;
  fieldName: string;
  warehouseId: number;
  warehouseName: string;
  /** 'vault', 'couchbox-T' (or the older 'couchbox'), 'couchbox-B' */
  type: string;
  full: boolean;
  /** slot count of the field */
  capacity: number;
  occupied: readonly number[];
  /** vaults of the receiving customer in this field */
  customerVaults: number;
}

export interface SlotProposal {
  /** index of the item in the shipment */
  index: number;
  fieldId: number;
  position: number;
}

/** Fields in walking order; the names are parsed and the warehouses ranked once, not in every comparison. */
function inWalkingOrder(fields: readonly ReceivingField[]): ReceivingField[] {
  const warehouses = [...new Map(fields.map((f) => [f.warehouseId, f.warehouseName])).entries()].sort(
    (a, b) => naturalCompare(a[1], b[1]) || a[0] - b[0],
  );
  const rank = new Map(warehouses.map(([id], i) => [id, i]));
  const keyed = fields.map((f) => ({ f, w: rank.get(f.warehouseId)!, place: parseFieldName(f.fieldName) }));
  keyed.sort(
    (a, b) =>
      a.w - b.w ||
      (a.place && b.place
        ? a.place.col - b.place.col || a.place.row - b.place.row
        : compareFieldNames(a.f.fieldName, b.f.fieldName)) ||
      a.f.fieldId - b.f.fieldId,
  );
  return keyed.map((k) => k.f);
}

interface Room {
  field: ReceivingField;
  taken: number[];
  free: number;
}

/** The free slots of each field, in proposal order; full fields and couchbox bottoms have none. */
function roomsOf(fields: readonly ReceivingField[]): Room[] {
  return inWalkingOrder(fields).map((field) => {
    return { field, taken: [...field.occupied], free: roomOf(field, field.capacity, field.occupied) };
  });
}

function fillGroup(rooms: Room[], indexes: number[], out: SlotProposal[]): number[] {
  let left = [...indexes];
  const customerWarehouses = new Set(
    rooms.filter((r) => r.field.customerVaults > 0).map((r) => r.field.warehouseId),
  );
  const tiers = [
    rooms.filter((r) => r.field.customerVaults > 0),
    rooms.filter((r) => r.field.customerVaults === 0 && customerWarehouses.has(r.field.warehouseId)),
    rooms.filter((r) => r.field.customerVaults === 0 && !customerWarehouses.has(r.field.warehouseId)),
  ];
  for (const tier of tiers) {
    while (left.length > 0) {
      const open = tier.filter((r) => r.free > 0);
      if (open.length === 0) break;
      const room =
        open.find((r) => r.free >= left.length) ?? open.reduce((best, r) => (r.free > best.free ? r : best));
      const count = Math.min(room.free, left.length);
      for (const index of left.slice(0, count)) {
        const position = freeSlotOf(room.field, room.field.capacity, room.taken);
        if (position === null) break;
        room.taken.push(position);
        room.free -= 1;
        out.push({ index, fieldId: room.field.fieldId, position });
      }
      left = left.slice(count);
    }
  }
  return left;
}

/**
 * Proposes a slot for each item of the shipment (its type: 'vault', 'liftvan', 't2' or 'couchbox'). Answers the
 * proposals in shipment order and the indexes no field had room for.
 */
export function proposeSlots(
  fields: readonly ReceivingField[],
  itemTypes: readonly string[],
): { proposals: SlotProposal[]; unplaced: number[] } {
  const rooms = roomsOf(fields);
  const out: SlotProposal[] = [];
  const couchboxes = itemTypes.flatMap((t, i) => (t === 'couchbox' ? [i] : []));
  const others = itemTypes.flatMap((t, i) => (t === 'couchbox' ? [] : [i]));
  const unplaced = [
    ...fillGroup(
      rooms.filter((r) => isCouchboxField(r.field.type)),
      couchboxes,
      out,
    ),
    ...fillGroup(
      rooms.filter((r) => r.field.type === 'vault'),
      others,
      out,
    ),
  ].sort((a, b) => a - b);
  return { proposals: out.sort((a, b) => a.index - b.index), unplaced };
}

/** The most fields a proposal offers to choose from when changing one. */
export const MAX_FIELD_CHOICES = 300;

/**
 * A proposal in the answer's shape, the server's and the tablet's alike: each placed item with its field's names, the
 * items with no room, and the fields to choose from instead, the chosen ones first, each with its free room.
 */
export function proposalAnswer(
  fields: readonly ReceivingField[],
  proposals: readonly SlotProposal[],
  unplaced: number[],
  chosen: ReadonlySet<number>,
): ShipmentProposalDto {
  const byId = new Map(fields.map((f) => [f.fieldId, f]));
  const roomIn = (f: ReceivingField) => roomOf(f, f.capacity, f.occupied);
  const withRoom = fields.filter((f) => roomIn(f) > 0);
  const choices = [
    ...withRoom.filter((f) => chosen.has(f.fieldId)),
    ...withRoom.filter((f) => !chosen.has(f.fieldId)),
  ];
  return {
    proposals: proposals.map((p) => {
      const f = byId.get(p.fieldId)!;
      return {
        index: p.index,
        field_id: p.fieldId,
        field_name: f.fieldName,
        warehouse_id: f.warehouseId,
        warehouse_name: f.warehouseName,
        position: p.position,
      };
    }),
    unplaced,
    fields: choices.slice(0, MAX_FIELD_CHOICES).map((f) => ({
      field_id: f.fieldId,
      field_name: f.fieldName,
      warehouse_id: f.warehouseId,
      warehouse_name: f.warehouseName,
      couchbox: f.type !== 'vault',
      free: roomIn(f),
    })),
  };
}
