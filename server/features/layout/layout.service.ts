import { fieldSlotCount } from '@domain/rules/capacity';
import { compareFieldNames, fieldName } from '@domain/rules/field-names';
import { placementProblem, rackFootprint, rackTitle } from '@domain/rules/rack-placement';
import { clampFieldGrid, fieldGridFloorProblems, floorMeasured } from '@domain/rules/field-grid-floor';
import { type DimensionKey, type GridChangeDto, removeVaultsFirst } from '@domain/schemas/layout.schema';
import {
  type EditDimensionsInput,
  type GridChangeInput,
  MAX_GRID_COLS,
  MAX_GRID_ROWS,
  type WarehouseSummaryDto,
} from '@domain/schemas/warehouse.schema';
import type { Db } from '../../db/database';
import type { Trx } from '../../db/locks';
import { recordEvent } from '../../events/event-log.repo';
import { badRequest } from '../../http/errors';
import { insertFields } from '../fields/fields.repo';
import { findRacksOfWarehouse } from '../racks/racks.repo';
import type { Actor } from '../../auth/actor';
import type { WarehouseRow } from '../warehouses/warehouses.repo';
import { lockWarehouseLayout } from '../warehouses/warehouse-access';
import { loadWarehouse, loadWarehouseSummary } from '../warehouses/warehouses.service';
import {
  countVaultsInCells,
  type CellRange,
  deleteFieldsInCells,
  findCouchboxTopsInRow,
  findFilledFields,
  shiftColumns,
  shiftVaultPositions,
  updateWarehouseLayout,
  type WarehouseLayoutChanges,
} from './layout.repo';

function lockLayout(trx: Trx, actor: Actor, warehouseId: number): Promise<WarehouseRow> {
  return lockWarehouseLayout(trx, actor.companyId, warehouseId);
}

/** Refuses a capacity that a field's vaults do not fit into; stacks keep standing on the floor otherwise. */
async function checkCapacityChange(
  db: Trx,
  companyId: number,
  warehouseId: number,
  from: number,
  to: number,
): Promise<void> {
  if (to >= from) return;
  for (const field of await findFilledFields(db, companyId, warehouseId)) {
    const name = fieldName(field.col, field.row);
    const slots = fieldSlotCount(field.type, to);
    if (field.vault_count > slots) {
      throw badRequest(
        `Field capacity cannot be lower than the number of vaults in a field: ${name} holds ${field.vault_count}. Stage or move vaults first.`,
      );
    }
    if (field.top_position + (to - from) < 1) {
      throw badRequest(
        `Field ${name} has a vault in a slot that would no longer exist. Stage or move its top vault first.`,
      );
    }
  }
}

/** Refuses a grid and floor that cannot be laid out together; `side` limits it to the side a change makes longer. */
function checkGridOnFloor(
  grid: { rows: number; cols: number },
  floor: { width: number; length: number },
  side?: 'width' | 'length',
) {
  const problems = fieldGridFloorProblems(grid, floor).filter((p) => !side || p.side === side);
  if (problems.length > 0) throw badRequest(...problems.map((p) => p.message));
}

async function checkRacksInside(
  db: Db,
  actor: Actor,
  warehouseId: number,
  floor: { width: number; length: number },
) {
  for (const rack of await findRacksOfWarehouse(db, actor.companyId, warehouseId)) {
    const rect = {
      x: rack.x,
      y: rack.y,
      ...rackFootprint({
        width: rack.width,
        length: rack.length,
        orientation: rack.orientation,
      }),
    };
    if (placementProblem(rect, floor, [])) {
      throw badRequest(`${rackTitle(rack.name)} would stand outside the new walls. Move or delete it first.`);
    }
  }
}

/** PATCH edit-dimensions: field capacity, length and width; answers the warehouse as the list shows it. */
export async function editDimensions(
  db: Db,
  actor: Actor,
  warehouseId: number,
  input: EditDimensionsInput,
): Promise<WarehouseSummaryDto> {
  return db.transaction().execute(async (trx) => {
    const warehouse = await lockLayout(trx, actor, warehouseId);
    const current = {
      field_capacity: warehouse.field_capacity,
      length: warehouse.length,
      width: warehouse.width,
    };
    const next = {
      field_capacity: input.field_capacity ?? current.field_capacity,
      length: input.length ?? current.length,
      width: input.width ?? current.width,
    };
    const changed = (Object.keys(next) as DimensionKey[]).filter((key) => next[key] !== current[key]);
    if (changed.length === 0) return loadWarehouseSummary(trx, actor.companyId, warehouseId);

    const changes: WarehouseLayoutChanges = {};
    if (changed.includes('field_capacity')) {
      await checkCapacityChange(
        trx,
        actor.companyId,
        warehouseId,
        current.field_capacity,
        next.field_capacity,
      );
      await shiftVaultPositions(
        trx,
        actor.companyId,
        warehouseId,
        next.field_capacity - current.field_capacity,
      );
      changes.field_capacity = next.field_capacity;
    }
    if (changed.includes('length') || changed.includes('width')) {
      const floor = { width: next.width, length: next.length };
      checkGridOnFloor(warehouse, floor);
      await checkRacksInside(trx, actor, warehouseId, floor);
      const grid = clampFieldGrid({ x: warehouse.grid_x, y: warehouse.grid_y }, warehouse, floor);
      Object.assign(changes, { length: next.length, width: next.width, grid_x: grid.x, grid_y: grid.y });
    }
    await updateWarehouseLayout(trx, actor.companyId, warehouseId, changes);
    await recordEvent(trx, {
      companyId: actor.companyId,
      userId: actor.userId,
      kind: 'warehouse.dimensions-edited',
      entityType: 'warehouse',
      entityId: warehouseId,
      warehouseId,
      payload: Object.fromEntries(changed.map((key) => [key, next[key]])),
    });
    return loadWarehouseSummary(trx, actor.companyId, warehouseId);
  });
}

/** PUT field-grid: places the VAULTS block, kept inside the walls. */
export async function moveFieldGrid(
  db: Db,
  actor: Actor,
  warehouseId: number,
  point: { x: number; y: number },
): Promise<{ fieldgridLocation: { x: number; y: number } }> {
  return db.transaction().execute(async (trx) => {
    const warehouse = await lockLayout(trx, actor, warehouseId);
    const location = clampFieldGrid(point, warehouse, {
      width: warehouse.width,
      length: warehouse.length,
    });
    await updateWarehouseLayout(trx, actor.companyId, warehouseId, {
      grid_x: location.x,
      grid_y: location.y,
    });
    await recordEvent(trx, {
      companyId: actor.companyId,
      userId: actor.userId,
      kind: 'warehouse.field-grid-moved',
      entityType: 'warehouse',
      entityId: warehouseId,
      warehouseId,
      payload: location,
    });
    return { fieldgridLocation: location };
  });
}

export type GridOperation = 'plus' | 'minus';

function cells(companyId: number, warehouseId: number, cols: [number, number], rows: [number, number]) {
  const list: { companyId: number; warehouseId: number; col: number; row: number }[] = [];
  for (let col = cols[0]; col <= cols[1]; col++) {
    for (let row = rows[0]; row <= rows[1]; row++) list.push({ companyId, warehouseId, col, row });
  }
  return list;
}

async function addCells(trx: Trx, actor: Actor, warehouse: WarehouseRow, input: GridChangeInput) {
  const { id, rows, cols } = warehouse;
  const { count, direction } = input;
  // a measured floor has to hold the grid it grows to (a floor not measured yet holds any)
  const onFloor = (grid: { rows: number; cols: number }, side: 'width' | 'length') => {
    if (floorMeasured(warehouse)) checkGridOnFloor(grid, warehouse, side);
  };
  if (direction === 'bottom') {
    if (rows + count > MAX_GRID_ROWS) throw badRequest(`A warehouse can have at most ${MAX_GRID_ROWS} rows.`);
    onFloor({ rows: rows + count, cols }, 'length');
    await insertFields(trx, cells(actor.companyId, id, [1, cols], [rows + 1, rows + count]));
    return { rows: rows + count, cols };
  }
  if (cols + count > MAX_GRID_COLS)
    throw badRequest(`A warehouse can have at most ${MAX_GRID_COLS} columns.`);
  onFloor({ rows, cols: cols + count }, 'width');
  if (direction === 'left') {
    await shiftColumns(trx, actor.companyId, id, 1, count);
    await insertFields(trx, cells(actor.companyId, id, [1, count], [1, rows]));
  } else {
    await insertFields(trx, cells(actor.companyId, id, [cols + 1, cols + count], [1, rows]));
  }
  return { rows, cols: cols + count };
}

async function removeCells(trx: Trx, warehouse: WarehouseRow, input: GridChangeInput) {
  const { id, company_id: companyId, rows, cols } = warehouse;
  const { count, direction } = input;
  let range: CellRange;
  let next: { rows: number; cols: number };
  if (direction === 'bottom') {
    if (rows - count < 1) throw badRequest('At least one row must remain.');
    range = { minRow: rows - count + 1 };
    next = { rows: rows - count, cols };
  } else {
    if (cols - count < 1) throw badRequest('At least one column must remain.');
    range = direction === 'left' ? { maxCol: count } : { minCol: cols - count + 1 };
    next = { rows, cols: cols - count };
  }
  if ((await countVaultsInCells(trx, companyId, id, range)) > 0)
    throw badRequest(removeVaultsFirst(direction));
  if (direction === 'bottom') {
    // the hidden bottom half of a couchbox in the last remaining row would go; refuse rather than leave half a pair
    const [split] = await findCouchboxTopsInRow(trx, companyId, id, next.rows);
    if (split) {
      const name = fieldName(split.col, split.row);
      throw badRequest(
        `Removing these rows would split the couchbox in ${name}. Turn ${name} back into a vault field first.`,
      );
    }
  }
  await deleteFieldsInCells(trx, companyId, id, range);
  if (direction === 'left') await shiftColumns(trx, companyId, id, count + 1, -count);
  return next;
}

/** POST or DELETE /api/fields/: adds or removes `count` columns (left, right) or rows (bottom), all or nothing. */
export async function changeGrid(
  db: Db,
  actor: Actor,
  operation: GridOperation,
  input: GridChangeInput,
): Promise<GridChangeDto> {
  const asked = input.opperation ?? input.operation;
  if (asked && asked !== operation) {
    throw badRequest(`opperation must be ${operation} for this request: add with POST, remove with DELETE.`);
  }
  return db.transaction().execute(async (trx) => {
    const warehouse = await lockLayout(trx, actor, input.warehouse_id);
    const size =
      operation === 'plus'
        ? await addCells(trx, actor, warehouse, input)
        : await removeCells(trx, warehouse, input);
    const grid = clampFieldGrid({ x: warehouse.grid_x, y: warehouse.grid_y }, size, {
      width: warehouse.width,
      length: warehouse.length,
    });
    await updateWarehouseLayout(trx, actor.companyId, warehouse.id, {
      ...size,
      grid_x: grid.x,
      grid_y: grid.y,
    });
    await recordEvent(trx, {
      companyId: actor.companyId,
      userId: actor.userId,
      kind: 'warehouse.grid-changed',
      entityType: 'warehouse',
      entityId: warehouse.id,
      warehouseId: warehouse.id,
      payload: { direction: input.direction, operation, count: input.count },
    });
    const changed = await loadWarehouse(trx, actor.companyId, warehouse.id);
    return {
      fields: Object.values(changed.fields).sort((a, b) => compareFieldNames(a.name, b.name)),
      warehouseId: changed.id,
      newWarehouseRowsCount: size.rows,
      newWarehouseColsCount: size.cols,
    };
  });
}
