// Floor-plan geometry for racks (feet, origin at the top-left corner, x to the right, y downward)
// and the slot rules for pallets on a shelf. The layout editor and the server both use these.

import { fieldGridSize } from './field-grid-floor';

/** Snap distance to walls and rack corners, and the overlap two racks may have without colliding. */
export const SNAP_TOLERANCE_FT = 0.5;
/** Float noise allowed when checking that a rack lies inside the walls. */
const EPSILON = 1e-6;

export const RACK_ORIENTATIONS = ['horizontal', 'vertical'] as const;
export type RackOrientation = (typeof RACK_ORIENTATIONS)[number];

export interface Size {
  /** extent along x */
  width: number;
  /** extent along y */
  length: number;
}

export interface Point {
  x: number;
  y: number;
}

export type Rect = Point & Size;

/** The floor the rack stands on: warehouse width runs along x, length along y. */
export type Floor = Size;

/** A horizontal rack lies with its width along x; a vertical one is turned by a quarter. */
export function rackFootprint(rack: { width: number; length: number; orientation: string }): Size {
  return rack.orientation === 'horizontal'
    ? { width: rack.width, length: rack.length }
    : { width: rack.length, length: rack.width };
}

function clampAxis(value: number, extent: number, wall: number): number {
  const max = Math.max(0, wall - extent);
  let v = Math.min(Math.max(value, 0), max);
  if (v < SNAP_TOLERANCE_FT) v = 0;
  if (Math.abs(v + extent - wall) < SNAP_TOLERANCE_FT) v = max;
  return v;
}

/** Keeps a footprint inside the walls and pulls it onto a wall it is within the tolerance of. */
export function clampToFloor(point: Point, size: Size, floor: Floor): Point {
  return { x: clampAxis(point.x, size.width, floor.width), y: clampAxis(point.y, size.length, floor.length) };
}

function corners(rect: Rect): Point[] {
  const right = rect.x + rect.width;
  const bottom = rect.y + rect.length;
  return [
    { x: rect.x, y: rect.y },
    { x: right, y: rect.y },
    { x: rect.x, y: bottom },
    { x: right, y: bottom },
  ];
}

/** Moves a rack so that its nearest corner sits on another rack's corner, when one is within the tolerance. */
export function snapToRackCorners(rect: Rect, others: readonly Rect[]): Point {
  let best: { dx: number; dy: number; distance: number } | null = null;
  const own = corners(rect);
  for (const other of others) {
    for (const target of corners(other)) {
      for (const corner of own) {
        const dx = target.x - corner.x;
        const dy = target.y - corner.y;
        if (Math.abs(dx) > SNAP_TOLERANCE_FT || Math.abs(dy) > SNAP_TOLERANCE_FT) continue;
        const distance = Math.hypot(dx, dy);
        if (!best || distance < best.distance) best = { dx, dy, distance };
      }
    }
  }
  return best ? { x: rect.x + best.dx, y: rect.y + best.dy } : { x: rect.x, y: rect.y };
}

function overlapOnAxis(aStart: number, aSize: number, bStart: number, bSize: number): number {
  return Math.min(aStart + aSize, bStart + bSize) - Math.max(aStart, bStart);
}

/** Two racks collide when they overlap by more than the tolerance along both axes. */
export function racksCollide(a: Rect, b: Rect): boolean {
  return (
    overlapOnAxis(a.x, a.width, b.x, b.width) > SNAP_TOLERANCE_FT &&
    overlapOnAxis(a.y, a.length, b.y, b.length) > SNAP_TOLERANCE_FT
  );
}

export interface NamedRect extends Rect {
  name?: string;
  /** how a refusal names it, when it is not a rack (the VAULTS field block) */
  label?: string;
}

/**
 * The VAULTS field block as an obstacle for racks: `cols` x 5 ft by `rows` x 5 ft from the grid's location;
 * none for a warehouse without fields.
 */
export function fieldBlockObstacle(grid: { rows: number; cols: number; x: number; y: number }): NamedRect[] {
  if (!(grid.rows > 0 && grid.cols > 0)) return [];
  return [{ x: grid.x, y: grid.y, ...fieldGridSize(grid), label: 'the VAULTS field block' }];
}

/** Why a rack cannot stand here, or null when it can. */
export function placementProblem(rect: Rect, floor: Floor, others: readonly NamedRect[]): string | null {
  if (!(floor.width > 0 && floor.length > 0)) return 'set the warehouse length and width first.';
  if (rect.width > floor.width + EPSILON || rect.length > floor.length + EPSILON) {
    return 'the rack is larger than the warehouse floor.';
  }
  if (
    rect.x < -EPSILON ||
    rect.y < -EPSILON ||
    rect.x + rect.width > floor.width + EPSILON ||
    rect.y + rect.length > floor.length + EPSILON
  ) {
    return 'the rack must stay inside the warehouse walls.';
  }
  const hit = others.find((other) => racksCollide(rect, other));
  if (hit) return `it overlaps ${hit.label ?? (hit.name ? rackTitle(hit.name) : 'another rack')}.`;
  return null;
}

export interface Placement extends Rect {
  valid: boolean;
  problem: string | null;
}

/**
 * Where a rack dropped with its top-left corner at `point` ends up: snapped to a nearby rack corner,
 * then kept inside the walls (and pulled onto a near wall); invalid when it then collides with a rack.
 */
export function placeRack(point: Point, size: Size, floor: Floor, others: readonly NamedRect[]): Placement {
  const snapped = snapToRackCorners({ ...point, ...size }, others);
  const clamped = clampToFloor(snapped, size, floor);
  const rect = { ...clamped, ...size };
  const problem = placementProblem(rect, floor, others);
  return { ...rect, valid: problem === null, problem };
}

// ---- pallets on a shelf: slots 0..capacity-1, a pallet covers `spots` consecutive slots from `slotIndex`

export interface SlotSpan {
  id?: number;
  slotIndex: number;
  spots: number;
}

/** Slots used by the pallets on a shelf, ignoring the pallet being edited. */
export function usedSpots(pallets: readonly SlotSpan[], exceptId?: number): number {
  return pallets.filter((p) => p.id === undefined || p.id !== exceptId).reduce((sum, p) => sum + p.spots, 0);
}

export function freeSpots(capacity: number, pallets: readonly SlotSpan[], exceptId?: number): number {
  return Math.max(0, capacity - usedSpots(pallets, exceptId));
}

export type PalletFit = { ok: true } | { ok: false; reason: 'space' | 'range' | 'overlap' };

/**
 * Whether `spots` slots from `slotIndex` are free on a shelf: first the total free space (spots, not pallets),
 * then the slot range, then overlap with the other pallets.
 */
export function palletFits(
  capacity: number,
  pallets: readonly SlotSpan[],
  wanted: { slotIndex: number; spots: number },
  exceptId?: number,
): PalletFit {
  if (wanted.spots > freeSpots(capacity, pallets, exceptId)) return { ok: false, reason: 'space' };
  if (wanted.slotIndex < 0 || wanted.slotIndex + wanted.spots > capacity)
    return { ok: false, reason: 'range' };
  const end = wanted.slotIndex + wanted.spots;
  const clash = pallets.some(
    (p) => p.id !== exceptId && p.slotIndex < end && wanted.slotIndex < p.slotIndex + p.spots,
  );
  return clash ? { ok: false, reason: 'overlap' } : { ok: true };
}

/** Every slot from which `spots` consecutive slots are free, not counting the pallet `exceptId` (one being moved). */
export function fittingSlots(
  capacity: number,
  pallets: readonly SlotSpan[],
  spots: number,
  exceptId?: number,
): number[] {
  const starts: number[] = [];
  for (let start = 0; start + spots <= capacity; start++) {
    if (palletFits(capacity, pallets, { slotIndex: start, spots }, exceptId).ok) starts.push(start);
  }
  return starts;
}

/** The first slot from which `spots` consecutive free slots run, or null when there is none. */
export function firstFreeRun(
  capacity: number,
  pallets: readonly SlotSpan[],
  spots: number,
  exceptId?: number,
): number | null {
  return fittingSlots(capacity, pallets, spots, exceptId)[0] ?? null;
}

export type ShelfCell =
  | { kind: 'pallet'; slotIndex: number; spots: number; palletIndex: number }
  | { kind: 'free'; slotIndex: number };

/** The shelf drawn left to right: each pallet spans its spots, each free slot is its own cell. */
export function shelfCells(capacity: number, pallets: readonly SlotSpan[]): ShelfCell[] {
  const cells: ShelfCell[] = [];
  const byStart = new Map<number, number>();
  pallets.forEach((p, index) => {
    if (!byStart.has(p.slotIndex)) byStart.set(p.slotIndex, index);
  });
  let slot = 0;
  while (slot < capacity) {
    const index = byStart.get(slot);
    if (index !== undefined) {
      const spots = Math.max(1, Math.min(pallets[index]!.spots, capacity - slot));
      cells.push({ kind: 'pallet', slotIndex: slot, spots, palletIndex: index });
      slot += spots;
    } else {
      cells.push({ kind: 'free', slotIndex: slot });
      slot += 1;
    }
  }
  return cells;
}

/** Rack preview scale (spec 9): 10 px per foot, less when the floor would not fit the space on screen. */
export const PLAN_PX_PER_FT = 10;

export function planScale(
  floor: Floor,
  available: { width: number; height: number },
  maxPxPerFt = PLAN_PX_PER_FT,
): number {
  if (!(floor.width > 0 && floor.length > 0)) return maxPxPerFt;
  const fit = Math.min(available.width / floor.width, available.height / floor.length);
  return Math.max(0.5, Math.min(maxPxPerFt, fit));
}

/** The 'Add a Rack' template (spec 9): 12 x 4 ft, 1 shelf, 1 slot. */
export const RACK_TEMPLATE_DEFAULTS = {
  name: '',
  width: 12,
  length: 4,
  orientation: 'horizontal',
  num_shelves: 1,
  capacity: 1,
} as const;

/** A rack as a sentence names it: "Rack C" for a rack named "C", and "Rack A" (not "Rack Rack A") for one named so. */
export function rackTitle(name: string): string {
  return /^rack\b/i.test(name.trim()) ? name.trim() : `Rack ${name.trim()}`;
}
