import { z } from 'zod';
import { RACK_ORIENTATIONS } from '../rules/rack-placement';
import {
  blankAsAbsent,
  customerName,
  decimalFrom,
  intFrom,
  optionalText,
  rowId,
  safeName,
  safeText,
} from './form-values';

export const MAX_RACK_SHELVES = 20;
export const MAX_SHELF_CAPACITY = 100;
export const MAX_RACK_SIZE_FT = 10_000;
export const DEFAULT_RACK_NAME = 'Unnamed Rack';

export const SHELF_NOT_FOUND = 'Shelf not found. Please select a valid shelf.';
export const RACK_CHANGED = 'This rack was changed by someone else';
export const PALLET_CHANGED = 'This pallet was changed by someone else';
export const PALLET_OVERLAP =
  'These pallet spaces run into another pallet or past the end of the shelf. Choose a free slot or fewer spaces.';

/** The spec's text, with the free space quoted after it. */
export function shelfSpaceMessage(capacity: number, free: number): string {
  return `Shelf does not have enough space for this. Please increase Shelf capacity. Shelf capacity is currently ${capacity}; ${free} ${free === 1 ? 'space is' : 'spaces are'} free.`;
}

/** Refusal of a rack edit that would leave pallets without a shelf or past a shelf's end. */
export function shelfCountHoldsPallets(position: number, pallets: number): string {
  return `Shelf ${position} holds ${pallets} ${pallets === 1 ? 'pallet' : 'pallets'}. Move or delete ${pallets === 1 ? 'it' : 'them'} before removing the shelf.`;
}

export function shelfCapacityHoldsPallets(position: number, needed: number): string {
  return `Shelf ${position} holds pallets up to space ${needed}. Move or delete them, or keep the capacity at ${needed} or more.`;
}

export function fullShelfMessage(capacity: number): string {
  return `This shelf already has the maximum number of pallets (${capacity}).`;
}

/** A blank size means 1 ft (spec 5); zero or less is refused. */
const rackSize = (label: string) =>
  z.preprocess(
    blankAsAbsent,
    decimalFrom(label, 0, MAX_RACK_SIZE_FT)
      .refine((v) => (v as number) > 0, `${label} must be more than 0.`)
      .optional()
      .default(1),
  );

const coordinate = (label: string) =>
  z.preprocess(blankAsAbsent, decimalFrom(label, -MAX_RACK_SIZE_FT, MAX_RACK_SIZE_FT).optional().default(0));

const orientation = z.enum(RACK_ORIENTATIONS, { error: 'Orientation must be horizontal or vertical.' });

const rackName = safeName(
  'Name',
  z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : v),
    z
      .string({ error: 'Name must be text.' })
      .max(100, 'Name must be at most 100 characters.')
      .optional()
      .transform((v) => (v ? v : DEFAULT_RACK_NAME)),
  ),
);

/** POST /api/racks/warehouse/{id}/add */
export const AddRackSchema = z.object({
  name: rackName,
  capacity: z.preprocess(blankAsAbsent, intFrom('Capacity', 1, MAX_SHELF_CAPACITY).optional().default(100)),
  num_shelves: z.preprocess(blankAsAbsent, intFrom('Shelves', 1, MAX_RACK_SHELVES).optional().default(1)),
  width: rackSize('Width'),
  length: rackSize('Length'),
  orientation: orientation.default('horizontal'),
  position: z
    .object({ x: coordinate('x'), y: coordinate('y') }, { error: 'Position must have x and y.' })
    .default({ x: 0, y: 0 }),
});
export type AddRackInput = z.infer<typeof AddRackSchema>;
/** What the template form holds before it is sent (strings while typing). */

/** PUT /api/racks/{warehouseId}/rack/{rackId}: a move, and maybe a turn. */
export const MoveRackSchema = z.object({
  position: z.object(
    {
      x: coordinate('x'),
      y: coordinate('y'),
      width: z.unknown().optional(),
      length: z.unknown().optional(),
    },
    { error: 'Position is required.' },
  ),
  orientation: orientation.optional(),
  version: rowId('version').optional(),
});
export type MoveRackInput = z.infer<typeof MoveRackSchema>;

/** PATCH /api/racks/{warehouseId}/rack/{rackId}: Rack Info's edit; what is left out stays as it is. */
export const EditRackSchema = z.object({
  name: rackName.optional(),
  width: z.preprocess(
    blankAsAbsent,
    decimalFrom('Width', 0, MAX_RACK_SIZE_FT)
      .refine((v) => (v as number) > 0, 'Width must be more than 0.')
      .optional(),
  ),
  length: z.preprocess(
    blankAsAbsent,
    decimalFrom('Length', 0, MAX_RACK_SIZE_FT)
      .refine((v) => (v as number) > 0, 'Length must be more than 0.')
      .optional(),
  ),
  orientation: orientation.optional(),
  num_shelves: z.preprocess(blankAsAbsent, intFrom('Shelves', 1, MAX_RACK_SHELVES).optional()),
  capacity: z.preprocess(blankAsAbsent, intFrom('Capacity', 1, MAX_SHELF_CAPACITY).optional()),
  version: rowId('version').optional(),
});
export type EditRackInput = z.infer<typeof EditRackSchema>;
export type EditRackValues = z.input<typeof EditRackSchema>;

const upperText = (label: string, max: number) =>
  safeName(label, optionalText(label, max)).transform((v) => (v ? v.toUpperCase() : undefined));

const weight = z.preprocess(blankAsAbsent, decimalFrom('Weight', 0, 1_000_000).optional().default(0));
const spaces = (label: string) => z.preprocess(blankAsAbsent, intFrom(label, 1, MAX_SHELF_CAPACITY));

const palletFields = {
  name: upperText('Pallet name', 100),
  customer_name: customerName,
  pallet_number: safeName('Pallet number', optionalText('Pallet number', 50)),
  /** the order (lot) the pallet belongs to, optional; its storage account bills the pallet (issue 28) */
  order_name: safeName('Order number', optionalText('Order number', 50)),
  notes: safeText('Notes', optionalText('Notes', 2000)),
  weight,
};

/** POST /api/racks/pallets */
export const AddPalletSchema = z.object({
  ...palletFields,
  shelf_id: z.preprocess(blankAsAbsent, rowId('shelf_id').optional()),
  shelf_spots: spaces('Pallet spaces').optional().default(1),
  /** 0-based first slot; without it the first free run is used */
  slot_index: z.preprocess(blankAsAbsent, intFrom('slot_index', 0, MAX_SHELF_CAPACITY - 1).optional()),
});
export type AddPalletInput = z.infer<typeof AddPalletSchema>;

/** PUT /api/racks/pallets/{id}/edit; without pallet_spaces the pallet keeps its spots. */
export const EditPalletSchema = z.object({
  ...palletFields,
  id: z.unknown().optional(),
  pallet_spaces: spaces('Pallet spaces').optional(),
  version: rowId('version').optional(),
});
export type EditPalletInput = z.infer<typeof EditPalletSchema>;

/** PUT /api/racks/pallets/{id}/move: onto a shelf of the same warehouse; without slot_index the first free run. */
export const MovePalletSchema = z.object({
  shelf_id: rowId('shelf_id'),
  slot_index: z.preprocess(blankAsAbsent, intFrom('slot_index', 0, MAX_SHELF_CAPACITY - 1).optional()),
  version: rowId('version').optional(),
});
export type MovePalletInput = z.infer<typeof MovePalletSchema>;

/** A move onto slots another pallet took meanwhile, or past the shelf's end: the pallet's size is not the user's choice. */
export const PALLET_SLOTS_TAKEN =
  'These slots are taken, or run past the end of the shelf: choose another slot for the pallet.';

export const PALLET_STAYS_IN_WAREHOUSE = 'A pallet can only be moved to a shelf in its own warehouse.';

/**
 * DELETE /api/pallets/{id}/delete?override_reason=...: a pallet of an account on hold leaves only with a Manager's
 * reason (decision 039); the query is optional, so the spec's call without it is unchanged.
 */
export const DeletePalletQuerySchema = z.object({
  override_reason: safeText('Override reason', optionalText('Override reason', 200)),
});

/** The pallet modal: the same rules as the API, with pallet spaces required (spec 5). */
export const PalletFormSchema = z.object({
  ...palletFields,
  pallet_spaces: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : blankAsAbsent(v)),
    z
      .number({
        error: (issue) =>
          issue.input === undefined ? 'Pallet spaces is required.' : 'Pallet spaces must be a whole number.',
      })
      .int('Pallet spaces must be a whole number.')
      .min(1, 'Pallet spaces must be at least 1.')
      .max(MAX_SHELF_CAPACITY, `Pallet spaces must be at most ${MAX_SHELF_CAPACITY}.`),
  ),
});

export interface PalletDto {
  id: number;
  shelfId: number;
  name: string | null;
  customerName: string;
  palletNumber: string | null;
  /** the order (lot) the pallet belongs to */
  orderName: string | null;
  notes: string | null;
  weight: number;
  /** slots the pallet covers; palletSpaces and shelfSpots carry the same number */
  palletSpaces: number;
  shelfSpots: number;
  slotIndex: number;
  version: number;
}

export interface ShelfDto {
  id: number;
  /** 1 is the top shelf */
  position: number;
  capacity: number;
  pallets: PalletDto[];
}

export interface RackDto {
  id: number;
  warehouseId: number;
  name: string;
  orientation: string;
  width: number;
  length: number;
  capacity: number;
  num_shelves: number;
  /** top-left corner and footprint on the floor, in feet */
  position: { x: number; y: number; width: number; length: number };
  version: number;
  shelves: ShelfDto[];
}

// Answer schemas (decision 045), typed to the DTOs.
export const PalletDtoSchema: z.ZodType<PalletDto> = z.object({
  id: z.number().int(),
  shelfId: z.number().int(),
  name: z.string().nullable(),
  customerName: z.string(),
  orderName: z.string().nullable(),
  palletNumber: z.string().nullable(),
  notes: z.string().nullable(),
  weight: z.number(),
  palletSpaces: z.number().int(),
  shelfSpots: z.number().int(),
  slotIndex: z.number().int(),
  version: z.number().int(),
});

export const RackDtoSchema: z.ZodType<RackDto> = z.object({
  id: z.number().int(),
  warehouseId: z.number().int(),
  name: z.string(),
  orientation: z.string(),
  width: z.number(),
  length: z.number(),
  capacity: z.number().int(),
  num_shelves: z.number().int(),
  position: z.object({ x: z.number(), y: z.number(), width: z.number(), length: z.number() }),
  version: z.number().int(),
  shelves: z.array(
    z.object({
      id: z.number().int(),
      position: z.number().int(),
      capacity: z.number().int(),
      pallets: z.array(PalletDtoSchema),
    }),
  ),
});
