import type { Db } from '../../db/database';
import { isPostgres, sharedWarehouseLock, type Trx } from '../../db/locks';

export interface FieldRow {
  id: number;
  company_id: number;
  warehouse_id: number;
  col: number;
  row: number;
  type: string;
  full: number;
}

const FIELD_COLUMNS = ['id', 'company_id', 'warehouse_id', 'col', 'row', 'type', 'full'] as const;

export async function findField(db: Db, companyId: number, fieldId: number): Promise<FieldRow | undefined> {
  return db
    .selectFrom('fields')
    .select(FIELD_COLUMNS)
    .where('company_id', '=', companyId)
    .where('id', '=', fieldId)
    .executeTakeFirst();
}

/** The field as findField reads it, and on PostgreSQL its warehouse locked shared in the same statement (step 1). */
export async function findFieldAndLockWarehouse(
  trx: Trx,
  companyId: number,
  fieldId: number,
): Promise<FieldRow | undefined> {
  if (!isPostgres(trx)) return findField(trx, companyId, fieldId);
  return trx
    .selectFrom('fields')
    .select(FIELD_COLUMNS)
    .select(sharedWarehouseLock('warehouse_id').as('warehouse_locked'))
    .where('company_id', '=', companyId)
    .where('id', '=', fieldId)
    .executeTakeFirst();
}

/**
 * A field locked for vault work, with its warehouse's slot capacity (which the warehouse lock holds still) and name
 * (for the history and the answer).
 */
export type LockedFieldRow = FieldRow & { field_capacity: number; warehouse_name: string };

/** A LockedFieldRow's columns, of `fields as f` joined with its `warehouses as w`. */
export const LOCKED_FIELD_COLUMNS = [
  'f.id',
  'f.company_id',
  'f.warehouse_id',
  'f.col',
  'f.row',
  'f.type',
  'f.full',
  'w.field_capacity',
  'w.name as warehouse_name',
] as const;

/**
 * Step 2 of the locking rule (docs/decisions/003-locking.md) and the read of what it locked in one statement: the
 * company's fields with these ids, exclusive, in id order (FOR UPDATE OF the fields only; on SQLite, which runs one
 * writer at a time, a plain read). A field removed meanwhile is missing from the answer.
 */
export async function lockAndFindFields(
  trx: Trx,
  companyId: number,
  fieldIds: readonly number[],
): Promise<LockedFieldRow[]> {
  if (fieldIds.length === 0) return [];
  let query = trx
    .selectFrom('fields as f')
    .innerJoin('warehouses as w', 'w.id', 'f.warehouse_id')
    .select(LOCKED_FIELD_COLUMNS)
    .where('f.company_id', '=', companyId)
    .where(
      'f.id',
      'in',
      [...new Set(fieldIds)].sort((a, b) => a - b),
    )
    .orderBy('f.id');
  if (isPostgres(trx)) query = query.forUpdate('f');
  return query.execute();
}

export async function findFieldAt(
  db: Db,
  companyId: number,
  warehouseId: number,
  col: number,
  row: number,
): Promise<FieldRow | undefined> {
  return db
    .selectFrom('fields')
    .select(FIELD_COLUMNS)
    .where('company_id', '=', companyId)
    .where('warehouse_id', '=', warehouseId)
    .where('col', '=', col)
    .where('row', '=', row)
    .executeTakeFirst();
}

/** The company's fields among `fieldIds` (others are left out), by id. */
export async function findFieldsByIds(db: Db, companyId: number, fieldIds: number[]): Promise<FieldRow[]> {
  if (fieldIds.length === 0) return [];
  return db
    .selectFrom('fields')
    .select(FIELD_COLUMNS)
    .where('company_id', '=', companyId)
    .where('id', 'in', fieldIds)
    .orderBy('id')
    .execute();
}

export async function findFieldsOfWarehouse(
  db: Db,
  companyId: number,
  warehouseId: number,
): Promise<FieldRow[]> {
  return db
    .selectFrom('fields')
    .select(FIELD_COLUMNS)
    .where('company_id', '=', companyId)
    .where('warehouse_id', '=', warehouseId)
    .orderBy('id')
    .execute();
}

export async function insertFields(
  db: Db,
  fields: { companyId: number; warehouseId: number; col: number; row: number }[],
): Promise<void> {
  // chunks keep each statement well under SQLite's bound-parameter limit
  for (let i = 0; i < fields.length; i += 500) {
    const chunk = fields.slice(i, i + 500);
    await db
      .insertInto('fields')
      .values(
        chunk.map((f) => ({
          company_id: f.companyId,
          warehouse_id: f.warehouseId,
          col: f.col,
          row: f.row,
          type: 'vault',
          full: 0,
        })),
      )
      .execute();
  }
}

export async function setFieldType(db: Db, companyId: number, fieldId: number, type: string): Promise<void> {
  await db
    .updateTable('fields')
    .set({ type })
    .where('company_id', '=', companyId)
    .where('id', '=', fieldId)
    .execute();
}

export async function setFieldFull(db: Db, companyId: number, fieldId: number, full: boolean): Promise<void> {
  await db
    .updateTable('fields')
    .set({ full: Number(full) })
    .where('company_id', '=', companyId)
    .where('id', '=', fieldId)
    .execute();
}
