import {
  type ColumnMapping,
  IMPORT_COLUMN_LABELS,
  PALLET_IMPORT_COLUMNS,
} from '../../../domain/rules/import-columns';
import { type SlotSpan, firstFreeRun, freeSpots, palletFits } from '../../../domain/rules/rack-placement';
import type { ImportProblemDto } from '../../../domain/schemas/import.schema';
import { AddPalletSchema, PALLET_OVERLAP, shelfSpaceMessage } from '../../../domain/schemas/rack.schema';
import type { Db } from '../../db/database';
import { findCompanyWarehouses } from './import.repo';
import { findCompanyPalletSpans, findCompanyShelves, type ImportShelfRow } from './pallet-import.repo';
import type { Sheet } from './read-sheet';
import { MISSING_WAREHOUSE, cellReader, mappingProblems } from './vault-import';

export interface PlannedPallet {
  row: number;
  warehouseId: number;
  shelfId: number;
  slotIndex: number;
  spots: number;
  customerName: string;
  name: string | null;
  palletNumber: string | null;
  notes: string | null;
  weight: number;
}

export interface PalletPlan {
  mapping: ColumnMapping;
  pallets: PlannedPallet[];
  problems: ImportProblemDto[];
}

export const MISSING_RACK = 'No rack of this name exists in the warehouse.';
export const missingShelf = (shelf: string, shelves: number) =>
  `Shelf ${shelf} does not exist: the rack has shelves 1 to ${shelves} (1 is the top shelf).`;
export const notAWholeNumber = (label: string, text: string) =>
  `${label} "${text}" is not a whole number from 1.`;

type PalletColumn = (typeof PALLET_IMPORT_COLUMNS)[number];
const PATH_COLUMN: Record<string, PalletColumn> = {
  name: 'pallet_name',
  customer_name: 'customer',
  pallet_number: 'pallet_number',
  notes: 'notes',
  weight: 'weight',
  shelf_spots: 'spaces',
  slot_index: 'slot',
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
): Promise<PalletPlan> {
  const label = (c: PalletColumn) => mapping[c] ?? IMPORT_COLUMN_LABELS[c];
  const problems: ImportProblemDto[] = [
    ...mappingProblems('pallets', mapping, sheet.headers, PALLET_IMPORT_COLUMNS),
    ...sheet.problems,
  ];
  const plan: PalletPlan = { mapping, pallets: [], problems };
  if (problems.some((p) => p.row === 1)) return plan;
  const [warehouses, shelves, spans] = await Promise.all([
    findCompanyWarehouses(db, companyId),
    findCompanyShelves(db, companyId),
    findCompanyPalletSpans(db, companyId),
  ]);
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
    const slotText = cell(cells, 'slot');
    const slot = wholeNumber(slotText);
    if (slotText !== '' && (slot === null || slot < 1)) problem('slot', notAWholeNumber('Slot', slotText));
    const parsed = AddPalletSchema.safeParse({
      name: cell(cells, 'pallet_name'),
      customer_name: cell(cells, 'customer'),
      pallet_number: cell(cells, 'pallet_number'),
      notes: cell(cells, 'notes'),
      weight: cell(cells, 'weight'),
      shelf_spots: cell(cells, 'spaces'),
      slot_index: slot === null || slot < 1 ? undefined : slot - 1,
    });
    if (!parsed.success)
      for (const issue of parsed.error.issues)
        problem(PATH_COLUMN[String(issue.path[0])] ?? 'customer', issue.message);

    const warehouse =
      warehouses.find((w) => w.name === cell(cells, 'warehouse')) ??
      warehouses.find((w) => same(w.name, cell(cells, 'warehouse')));
    let shelf: ImportShelfRow | undefined;
    if (!warehouse) problem('warehouse', MISSING_WAREHOUSE);
    else {
      const rackName = cell(cells, 'rack');
      const ofRack = shelves.filter((s) => s.warehouse_id === warehouse.id && same(s.rack_name, rackName));
      const shelfText = cell(cells, 'shelf');
      const position = wholeNumber(shelfText);
      if (ofRack.length === 0) problem('rack', MISSING_RACK);
      else if (position === null) problem('shelf', notAWholeNumber('Shelf', shelfText));
      else {
        shelf = ofRack.find((s) => Number(s.position) === position);
        if (!shelf) problem('shelf', missingShelf(shelfText, ofRack.length));
      }
    }
    if (!parsed.success || !shelf || !warehouse || problems.length > before) continue;
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
      notes: parsed.data.notes || null,
      weight: parsed.data.weight,
    });
  }
  problems.sort((a, b) => a.row - b.row);
  return plan;
}
