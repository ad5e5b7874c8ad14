import {
  type ColumnMapping,
  IMPORT_COLUMN_LABELS,
  PALLET_IMPORT_COLUMNS,
  PALLET_ROW_COLUMNS,
  RACK_LAYOUT_COLUMNS,
} from '@domain/rules/import-columns';
import {
  type NamedRect,
  type SlotSpan,
  fieldBlockObstacle,
  firstFreeRun,
  freeSpots,
  palletFits,
  placementProblem,
  rackFootprint,
} from '@domain/rules/rack-placement';
import type { ImportProblemDto } from '@domain/schemas/import.schema';
import {
  AddPalletSchema,
  AddRackSchema,
  PALLET_OVERLAP,
  shelfSpaceMessage,
} from '@domain/schemas/rack.schema';
import type { Db } from '../../db/database';
import type { NewRack } from '../racks/racks.repo';
import { findCompanyWarehouses } from './import.repo';
import {
  findCompanyPalletSpans,
  findCompanyRacks,
  findCompanyShelves,
  type ImportShelfRow,
} from './pallet-import.repo';
import type { Sheet } from './read-sheet';
import { MISSING_WAREHOUSE, cellReader, layoutDiffers, mappingProblems } from './vault-import';

export interface PlannedPallet {
  row: number;
  warehouseId: number;
  /** a stored shelf's id, or the (negative) stand-in id of a shelf of a rack the import creates */
  shelfId: number;
  slotIndex: number;
  spots: number;
  customerName: string;
  name: string | null;
  palletNumber: string | null;
  /** the order (lot) the pallet belongs to */
  orderName: string | null;
  notes: string | null;
  weight: number;
}

/** A rack the import creates, with the stand-in ids of its shelves (top shelf first). */
export type PlannedRack = Omit<NewRack, 'companyId'> & { shelfIds: number[] };

export interface PalletPlan {
  mapping: ColumnMapping;
  pallets: PlannedPallet[];
  newRacks: PlannedRack[];
  problems: ImportProblemDto[];
}

/** The choices of the pallet import form. */
export interface PalletImportOptions {
  /** create the racks the file describes (Rack Shelves, Shelf Capacity, size) but the warehouse does not have */
  createRacks: boolean;
}

export const MISSING_RACK = 'No rack of this name exists in the warehouse.';
export const MISSING_RACK_CREATE =
  'No rack of this name exists in the warehouse. Create it first, or give its Rack Shelves, Shelf Capacity, Rack Width and Rack Length and let the import create missing racks.';
export const rackDiffers = (row: number) =>
  `Row ${row} describes this rack differently (shelves, slots, size or place); the rows of one rack must agree.`;
export const rackPlacement = (problem: string) => `The rack cannot stand there: ${problem}`;
export const missingShelf = (shelf: string, shelves: number) =>
  `Shelf ${shelf} does not exist: the rack has shelves 1 to ${shelves} (1 is the top shelf).`;
export const notAWholeNumber = (label: string, text: string) =>
  `${label} "${text}" is not a whole number from 1.`;

type PalletColumn = (typeof PALLET_IMPORT_COLUMNS)[number];
const PATH_COLUMN: Record<string, PalletColumn> = {
  name: 'pallet_name',
  customer_name: 'customer',
  pallet_number: 'pallet_number',
  order_name: 'order',
  notes: 'notes',
  weight: 'weight',
  shelf_spots: 'spaces',
  slot_index: 'slot',
};
const RACK_PATH_COLUMN: Record<string, PalletColumn> = {
  name: 'rack',
  capacity: 'shelf_capacity',
  num_shelves: 'rack_shelves',
  width: 'rack_width',
  length: 'rack_length',
  orientation: 'rack_orientation',
  position: 'rack_x',
};

const wholeNumber = (text: string) => (/^\d+(\.0+)?$/.test(text) ? Number(text) : null);

/**
 * The dry run of a pallet import: each row by the API's pallet schema, its warehouse, rack and shelf by name and
 * number, and the shelf-space rules (free spaces, no overlap, within the shelf) against the pallets stored and the
 * rows above it. A row without a slot takes the first free run, as adding a pallet by hand does.
 */
export async function planPalletImport(
  db: Db,
  companyId: number,
  sheet: Sheet,
  mapping: ColumnMapping,
  options: PalletImportOptions = { createRacks: false },
): Promise<PalletPlan> {
  const label = (c: PalletColumn) => mapping[c] ?? IMPORT_COLUMN_LABELS[c];
  const problems: ImportProblemDto[] = [
    ...mappingProblems('pallets', mapping, sheet.headers, PALLET_IMPORT_COLUMNS),
    ...sheet.problems,
  ];
  const plan: PalletPlan = { mapping, pallets: [], newRacks: [], problems };
  if (problems.some((p) => p.row === 1)) return plan;
  const [warehouses, shelves, spans, racks] = await Promise.all([
    findCompanyWarehouses(db, companyId),
    findCompanyShelves(db, companyId),
    findCompanyPalletSpans(db, companyId),
    findCompanyRacks(db, companyId),
  ]);
  const newRacks = new Map<string, PlannedRack & { firstRow: number; given: string }>();
  const onShelf = new Map<number, SlotSpan[]>();
  for (const s of spans) {
    const list = onShelf.get(s.shelf_id) ?? [];
    list.push({ id: s.id, slotIndex: Number(s.slot_index), spots: Number(s.shelf_spots) });
    onShelf.set(s.shelf_id, list);
  }
  const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
  const cell = cellReader(mapping, sheet.headers);
  const cellProblemRows = new Set(sheet.problems.map((p) => p.row));

  for (const { row, cells } of sheet.rows) {
    if (cellProblemRows.has(row)) continue;
    const before = problems.length;
    const problem = (column: PalletColumn, message: string) =>
      problems.push({ row, column: label(column), message });
    const rackName = cell(cells, 'rack');
    const rackGiven = RACK_LAYOUT_COLUMNS.some((c) => cell(cells, c) !== '');
    // a row with a rack but no shelf and no pallet describes only the rack (an empty rack)
    const rackOnly =
      rackName !== '' &&
      cell(cells, 'shelf') === '' &&
      PALLET_ROW_COLUMNS.every((c) => cell(cells, c) === '');
    const slotText = cell(cells, 'slot');
    const slot = wholeNumber(slotText);
    if (slotText !== '' && (slot === null || slot < 1)) problem('slot', notAWholeNumber('Slot', slotText));
    const parsed = rackOnly
      ? null
      : AddPalletSchema.safeParse({
          name: cell(cells, 'pallet_name'),
          customer_name: cell(cells, 'customer'),
          pallet_number: cell(cells, 'pallet_number'),
          order_name: cell(cells, 'order'),
          notes: cell(cells, 'notes'),
          weight: cell(cells, 'weight'),
          shelf_spots: cell(cells, 'spaces'),
          slot_index: slot === null || slot < 1 ? undefined : slot - 1,
        });
    if (parsed && !parsed.success)
      for (const issue of parsed.error.issues)
        problem(PATH_COLUMN[String(issue.path[0])] ?? 'customer', issue.message);

    const warehouse =
      warehouses.find((w) => w.name === cell(cells, 'warehouse')) ??
      warehouses.find((w) => same(w.name, cell(cells, 'warehouse')));
    let shelf: ImportShelfRow | undefined;
    if (!warehouse) problem('warehouse', MISSING_WAREHOUSE);
    else {
      let ofRack = shelves.filter((s) => s.warehouse_id === warehouse.id && same(s.rack_name, rackName));
      // the rack as the row describes it, by the rule of adding a rack by hand
      const described = rackGiven
        ? AddRackSchema.safeParse({
            name: rackName,
            capacity: cell(cells, 'shelf_capacity'),
            num_shelves: cell(cells, 'rack_shelves'),
            width: cell(cells, 'rack_width'),
            length: cell(cells, 'rack_length'),
            orientation: cell(cells, 'rack_orientation').toLowerCase() || undefined,
            position: { x: cell(cells, 'rack_x'), y: cell(cells, 'rack_y') },
          })
        : null;
      if (described && !described.success)
        for (const issue of described.error.issues) {
          const column = issue.path[0] === 'position' && issue.path[1] === 'y' ? 'rack_y' : undefined;
          problem(column ?? RACK_PATH_COLUMN[String(issue.path[0])] ?? 'rack', issue.message);
        }
      const key = `${warehouse.id}:${rackName.trim().toLowerCase()}`;
      if (ofRack.length > 0 && described?.success) {
        // a stored rack: its shelves and their slots must be what the file says
        const capacity = Number(ofRack[0]!.capacity);
        if (described.data.num_shelves !== ofRack.length)
          problem('rack_shelves', layoutDiffers('Rack Shelves', ofRack.length));
        if (described.data.capacity !== capacity)
          problem('shelf_capacity', layoutDiffers('Shelf Capacity', capacity));
      } else if (ofRack.length === 0 && options.createRacks && rackName !== '') {
        const planned = newRacks.get(key);
        if (planned) {
          if (described?.success) {
            const d = described.data;
            const says = `${d.num_shelves}/${d.capacity}/${d.width}/${d.length}/${d.orientation}/${d.position.x}/${d.position.y}`;
            if (says !== planned.given) problem('rack', rackDiffers(planned.firstRow));
          }
        } else if (described?.success) {
          const d = described.data;
          const rect = { x: d.position.x, y: d.position.y, ...rackFootprint(d) };
          const others: NamedRect[] = [
            ...racks
              .filter((r) => r.warehouse_id === warehouse.id)
              .map((r) => ({
                x: Number(r.x),
                y: Number(r.y),
                ...rackFootprint({
                  width: Number(r.width),
                  length: Number(r.length),
                  orientation: r.orientation,
                }),
                name: r.name,
              })),
            ...[...newRacks.values()]
              .filter((r) => r.warehouseId === warehouse.id)
              .map((r) => ({ x: r.x, y: r.y, ...rackFootprint(r), name: r.name })),
            ...fieldBlockObstacle({
              rows: Number(warehouse.rows),
              cols: Number(warehouse.cols),
              x: Number(warehouse.grid_x),
              y: Number(warehouse.grid_y),
            }),
          ];
          const floor = { width: Number(warehouse.width), length: Number(warehouse.length) };
          const placement = placementProblem(rect, floor, others);
          if (placement) problem('rack_x', rackPlacement(placement));
          else {
            const shelfIds = Array.from({ length: d.num_shelves }, (_, i) => -(newRacks.size * 1000 + i + 1));
            newRacks.set(key, {
              warehouseId: warehouse.id,
              name: rackName,
              orientation: d.orientation,
              width: d.width,
              length: d.length,
              x: d.position.x,
              y: d.position.y,
              capacity: d.capacity,
              shelfIds,
              firstRow: row,
              given: `${d.num_shelves}/${d.capacity}/${d.width}/${d.length}/${d.orientation}/${d.position.x}/${d.position.y}`,
            });
          }
        } else if (!described) problem('rack', MISSING_RACK_CREATE);
        const made = newRacks.get(key);
        if (made)
          ofRack = made.shelfIds.map((id, i) => ({
            shelf_id: id,
            position: i + 1,
            capacity: made.capacity,
            rack_id: 0,
            rack_name: made.name,
            warehouse_id: warehouse.id,
          }));
      }
      const shelfText = cell(cells, 'shelf');
      const position = wholeNumber(shelfText);
      if (rackOnly) {
        if (ofRack.length === 0 && problems.length === before) problem('rack', MISSING_RACK);
      } else if (ofRack.length === 0) {
        if (problems.length === before) problem('rack', MISSING_RACK);
      } else if (position === null) problem('shelf', notAWholeNumber('Shelf', shelfText));
      else {
        shelf = ofRack.find((s) => Number(s.position) === position);
        if (!shelf) problem('shelf', missingShelf(shelfText, ofRack.length));
      }
    }
    if (!parsed?.success || !shelf || !warehouse || problems.length > before) continue;
    const capacity = Number(shelf.capacity);
    const taken = onShelf.get(shelf.shelf_id) ?? [];
    const spots = parsed.data.shelf_spots;
    const slotIndex = parsed.data.slot_index ?? firstFreeRun(capacity, taken, spots) ?? 0;
    const fit = palletFits(capacity, taken, { slotIndex, spots });
    if (!fit.ok) {
      if (fit.reason === 'space') problem('spaces', shelfSpaceMessage(capacity, freeSpots(capacity, taken)));
      else problem('slot', PALLET_OVERLAP);
      continue;
    }
    // the overlap rule compares pallets by id: a row's pallet is known by its (negative) row number
    taken.push({ id: -row, slotIndex, spots });
    onShelf.set(shelf.shelf_id, taken);
    plan.pallets.push({
      row,
      warehouseId: warehouse.id,
      shelfId: shelf.shelf_id,
      slotIndex,
      spots,
      customerName: parsed.data.customer_name,
      name: parsed.data.name || null,
      palletNumber: parsed.data.pallet_number || null,
      orderName: parsed.data.order_name || null,
      notes: parsed.data.notes || null,
      weight: parsed.data.weight,
    });
  }
  plan.newRacks = [...newRacks.values()].map(({ firstRow: _row, given: _given, ...rack }) => rack);
  problems.sort((a, b) => a.row - b.row);
  return plan;
}
