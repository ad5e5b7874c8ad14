import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { Trx } from '../../db/locks';

export interface WarehouseLayoutChanges {
  field_capacity?: number;
  length?: number;
  width?: number;
  grid_x?: number;
  grid_y?: number;
  rows?: number;
  cols?: number;
}

export async function updateWarehouseLayout(
  db: Db,
  companyId: number,
  warehouseId: number,
  changes: WarehouseLayoutChanges,
): Promise<void> {
  await db
    .updateTable('warehouses')
    .set((eb) => ({ ...changes, version: eb('version', '+', 1) }))
    .where('company_id', '=', companyId)
    .where('id', '=', warehouseId)
    .execute();
}

export interface FieldFill {
  field_id: number;
  col: number;
  row: number;
  type: string;
  vault_count: number;
  top_position: number;
}

/** Each field of the warehouse that holds vaults, with how many and its topmost occupied slot. */
export async function findFilledFields(db: Db, companyId: number, warehouseId: number): Promise<FieldFill[]> {
  const rows = await db
    .selectFrom('fields as f')
    .innerJoin('vaults as v', 'v.field_id', 'f.id')
    .select([
      'f.id as field_id',
      'f.col',
      'f.row',
      'f.type',
      sql<number>`count(v.id)`.as('vault_count'),
      sql<number>`min(v.position)`.as('top_position'),
    ])
    .where('f.company_id', '=', companyId)
    .where('f.warehouse_id', '=', warehouseId)
    .groupBy(['f.id', 'f.col', 'f.row', 'f.type'])
    .orderBy('f.col')
    .orderBy('f.row')
    .execute();
  return rows.map((r) => ({
    ...r,
    vault_count: r.vault_count,
    top_position: r.top_position,
  }));
}

// Slots are numbered from the top, so keeping stacks standing on the floor when the capacity changes
// means moving every placed vault by the change. The detour through high numbers keeps the unique
// (field, position) rule and the position >= 1 check true after every row of both statements.
const POSITION_DETOUR = 1_000;

export async function shiftVaultPositions(
  db: Trx,
  companyId: number,
  warehouseId: number,
  delta: number,
): Promise<void> {
  if (delta === 0) return;
  const inWarehouse = db
    .selectFrom('fields')
    .select('id')
    .where('company_id', '=', companyId)
    .where('warehouse_id', '=', warehouseId);
  await db
    .updateTable('vaults')
    .set((eb) => ({ position: eb('position', '+', POSITION_DETOUR) }))
    .where('company_id', '=', companyId)
    .where('field_id', 'in', inWarehouse)
    .execute();
  await db
    .updateTable('vaults')
    .set((eb) => ({ position: eb('position', '+', delta - POSITION_DETOUR) }))
    .where('company_id', '=', companyId)
    .where('field_id', 'in', inWarehouse)
    .execute();
}

export interface CellRange {
  minCol?: number;
  maxCol?: number;
  minRow?: number;
}

export async function countVaultsInCells(
  db: Db,
  companyId: number,
  warehouseId: number,
  range: CellRange,
): Promise<number> {
  let query = db
    .selectFrom('vaults as v')
    .innerJoin('fields as f', 'f.id', 'v.field_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('f.company_id', '=', companyId)
    .where('f.warehouse_id', '=', warehouseId);
  if (range.minCol !== undefined) query = query.where('f.col', '>=', range.minCol);
  if (range.maxCol !== undefined) query = query.where('f.col', '<=', range.maxCol);
  if (range.minRow !== undefined) query = query.where('f.row', '>=', range.minRow);
  const row = await query.executeTakeFirstOrThrow();
  return row.n;
}

export async function deleteFieldsInCells(
  db: Db,
  companyId: number,
  warehouseId: number,
  range: CellRange,
): Promise<void> {
  let query = db
    .deleteFrom('fields')
    .where('company_id', '=', companyId)
    .where('warehouse_id', '=', warehouseId);
  if (range.minCol !== undefined) query = query.where('col', '>=', range.minCol);
  if (range.maxCol !== undefined) query = query.where('col', '<=', range.maxCol);
  if (range.minRow !== undefined) query = query.where('row', '>=', range.minRow);
  await query.execute();
}

/**
 * Moves every column from `fromCol` on by `delta`. Going through negative numbers first keeps the
 * unique (warehouse, col, row) rule true after every row, in whichever order the engine updates them.
 */
export async function shiftColumns(
  db: Trx,
  companyId: number,
  warehouseId: number,
  fromCol: number,
  delta: number,
): Promise<void> {
  if (delta === 0) return;
  await db
    .updateTable('fields')
    .set((eb) => ({ col: eb(eb.neg(eb.ref('col')), '-', delta) }))
    .where('company_id', '=', companyId)
    .where('warehouse_id', '=', warehouseId)
    .where('col', '>=', fromCol)
    .execute();
  await db
    .updateTable('fields')
    .set((eb) => ({ col: eb.neg(eb.ref('col')) }))
    .where('company_id', '=', companyId)
    .where('warehouse_id', '=', warehouseId)
    .where('col', '<', 0)
    .execute();
}

/** Couchbox tops in a row: their hidden bottom half is in the row below. */
export async function findCouchboxTopsInRow(
  db: Db,
  companyId: number,
  warehouseId: number,
  row: number,
): Promise<{ col: number; row: number }[]> {
  return db
    .selectFrom('fields')
    .select(['col', 'row'])
    .where('company_id', '=', companyId)
    .where('warehouse_id', '=', warehouseId)
    .where('row', '=', row)
    .where('type', '=', 'couchbox-T')
    .orderBy('col')
    .execute();
}
