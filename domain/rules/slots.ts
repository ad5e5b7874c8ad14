import { fieldSlotCount, nextFreePosition, typeFitsField } from './capacity';
import { fieldName, parseFieldName } from './field-names';
import { placeholderKind } from './placeholders';

/**
 * The slot decision (issue 26): where a unit goes in a field, or why it does not. Every place that puts a vault, a
 * liftvan, a T2 or a couchbox into a field asks `decideSlot` (the server's add, move, stage put-back, receiving,
 * scan-to-move, pull lists and the vault import; the web's dialogs that offer free slots ask `freeSlot`), so a change
 * of the slot rules is made here and nowhere else.
 *
 * The rules (spec 4.1, 4.2, decision 012): nothing in a couchbox's hidden lower half; a couchbox only into a couchbox
 * field, every other unit only into a plain field (empty placeholders aside); nothing into a field marked full; a field
 * fills from its highest slot upward, so a unit takes the highest free slot and no other.
 */

export const FIELD_FULL = 'Field is full. Cannot add more vaults.';
export const SLOT_TAKEN = 'Someone else just placed a vault in this slot. Please refresh and try again.';
export const COUCHBOX_FIELD_ONLY = 'A couchbox can only be placed in a couchbox field.';
/** decision 012: every other type only into plain fields (the field detail's empty placeholders aside) */
export const plainFieldOnly = (type: string, field: string) =>
  `Field ${field} is a couchbox field: a ${type === 't2' ? 'T2' : type} can only be placed in a plain field.`;
export const notNextFree = (position: number, field: string, next: number) =>
  `Position ${position} is not the next free slot of field ${field} (next free: ${next}).`;
/** the refusals of a move to a field's next free slot (scan to move, issue 15) name the field */
export const fieldFull = (field: string) => `Field ${field} is full.`;
export const alreadyInField = (field: string) => `This vault is already in field ${field}.`;
export const beyondSlots = (position: number, field: string, slots: number) =>
  `Position ${position} is beyond the ${slots} slots of field ${field}.`;
export const couchboxBottom = (field: string) =>
  `Field ${field} is the lower half of a couchbox. Use the field above it.`;

/** A field as the slot rules see it. */
export interface SlotField {
  /** 'A3' */
  name: string;
  /** 'vault', 'couchbox-T' (or the older 'couchbox'), 'couchbox-B' */
  type: string;
  full: boolean | number;
  /** the warehouse's field capacity (a couchbox field has one slot more) */
  capacity: number | null | undefined;
}

/** The unit to place: its type and customer (an EMPTY placeholder may go where its type alone may not). */
export interface SlotUnit {
  type: string;
  customerName: string;
  /** the slot it holds in this very field now, if it stands there (a move within its own field) */
  heldSlot?: number | null;
}

/** A slot asked for by number, or 'next' for the field's next free slot. */
export type SlotWanted = number | 'next';

export type SlotRefusalReason =
  /** the field is a couchbox's hidden lower half */
  | 'couchbox-bottom'
  /** the unit's type does not go into this kind of field */
  | 'wrong-type'
  /** a move to the next free slot of the field the unit stands in */
  | 'already-here'
  /** the field is marked full */
  | 'full'
  /** the slot asked for is outside the field's slots */
  | 'beyond'
  /** the slot asked for holds another unit */
  | 'taken'
  /** every slot of the field holds a unit */
  | 'no-room'
  /** the slot asked for is free but is not the next free one */
  | 'not-next';

export interface SlotRefusal {
  ok: false;
  reason: SlotRefusalReason;
  message: string;
  /** the field's slot count */
  slots: number;
  /** the next free slot, when there is one */
  next: number | null;
}

export type SlotDecision = { ok: true; slot: number } | SlotRefusal;

/** The field's slot count: its capacity, one more for a couchbox, none in a couchbox's hidden lower half. */
export function slotCount(field: Pick<SlotField, 'type' | 'capacity'>): number {
  return fieldSlotCount(field.type, field.capacity);
}

/** The slot the next unit takes in this field, or null when it takes none (marked full, no room, couchbox bottom). */
export function freeSlot(
  field: Pick<SlotField, 'type' | 'full' | 'capacity'>,
  occupied: readonly number[],
): number | null {
  return freeSlotOf(field, slotCount(field), occupied);
}

/** `freeSlot` for a field whose slot count is known already (receiving counts it once per field). */
export function freeSlotOf(
  field: Pick<SlotField, 'type' | 'full'>,
  slots: number,
  occupied: readonly number[],
): number | null {
  if (field.full || field.type === 'couchbox-B') return null;
  return nextFreePosition(occupied, slots);
}

/** How many more units the field takes (none when it is marked full or is a couchbox bottom). */
export function freeSlotCount(
  field: Pick<SlotField, 'type' | 'full' | 'capacity'>,
  occupied: readonly number[],
): number {
  return roomOf(field, slotCount(field), occupied);
}

/** `freeSlotCount` for a field whose slot count is known already. */
export function roomOf(
  field: Pick<SlotField, 'type' | 'full'>,
  slots: number,
  occupied: readonly number[],
): number {
  if (field.full || field.type === 'couchbox-B') return 0;
  return Math.max(0, slots - new Set(occupied.filter((p) => p >= 1 && p <= slots)).size);
}

/**
 * The name of the field a couchbox pairs this one with: the field above a couchbox's lower half, else the field below
 * (a couchbox's lower half, or the one a plain field would take as such); null for a name that is not a grid place or
 * a first row's bottom half.
 */
export function couchboxPartnerName(field: Pick<SlotField, 'name' | 'type'>): string | null {
  const place = parseFieldName(field.name);
  if (!place) return null;
  if (field.type !== 'couchbox-B') return fieldName(place.col, place.row + 1);
  return place.row > 1 ? fieldName(place.col, place.row - 1) : null;
}

/**
 * The refusal of a unit's type in this kind of field (`typeFitsField`), or null when it fits; also the check of a
 * vault's edit, which may change its type where it stands.
 */
export function typeRefusal(field: Pick<SlotField, 'name' | 'type'>, unit: SlotUnit): string | null {
  if (typeFitsField(unit.type, field.type, placeholderKind(unit.customerName) !== null)) return null;
  return unit.type === 'couchbox' ? COUCHBOX_FIELD_ONLY : plainFieldOnly(unit.type, field.name);
}

/**
 * Every rule the placement breaks, in the order the API names them: the field's kind, the unit's type, then the
 * slot. A bottom half is not also said to be the wrong kind; 'beyond' always comes with 'no-room' or 'not-next' when
 * a number is asked for, and the API names those instead (`decideSlot`), the vault import names it.
 */
export function slotRefusals(
  field: SlotField,
  occupied: readonly number[],
  unit: SlotUnit,
  wanted: SlotWanted,
): SlotRefusal[] {
  const slots = slotCount(field);
  const others = unit.heldSlot == null ? [...occupied] : occupied.filter((p) => p !== unit.heldSlot);
  const next = freeSlot(field, others);
  const out: SlotRefusal[] = [];
  const refuse = (reason: SlotRefusalReason, message: string) =>
    out.push({ ok: false, reason, message, slots, next });
  const byName = wanted === 'next';
  const wrongType = typeRefusal(field, unit);
  if (field.type === 'couchbox-B') refuse('couchbox-bottom', couchboxBottom(field.name));
  else if (wrongType) refuse('wrong-type', wrongType);
  if (byName && unit.heldSlot != null) refuse('already-here', alreadyInField(field.name));
  if (field.full) refuse('full', byName ? fieldFull(field.name) : FIELD_FULL);
  if (!byName && (wanted < 1 || wanted > slots)) refuse('beyond', beyondSlots(wanted, field.name, slots));
  if (!byName && others.includes(wanted)) refuse('taken', SLOT_TAKEN);
  if (nextFreePosition(others, slots) === null)
    refuse('no-room', byName ? fieldFull(field.name) : FIELD_FULL);
  else if (!byName && next !== null && wanted !== next)
    refuse('not-next', notNextFree(wanted, field.name, next));
  return out;
}

/**
 * Where the unit goes in the field, or the first rule it breaks with the API's message. `occupied`: the field's taken
 * slots (the unit's own among them when it stands in this field: `unit.heldSlot`); `wanted`: a slot by number, which
 * must be the next free one, or 'next'.
 */
export function decideSlot(
  field: SlotField,
  occupied: readonly number[],
  unit: SlotUnit,
  wanted: SlotWanted = 'next',
): SlotDecision {
  const refusal = slotRefusals(field, occupied, unit, wanted).find((r) => r.reason !== 'beyond');
  if (refusal) return refusal;
  const slot = wanted === 'next' ? freeSlot(field, occupied) : wanted;
  // the refusals above leave a free slot; this only narrows the type
  if (slot === null) throw new Error(`no free slot in field ${field.name}`);
  return { ok: true, slot };
}
