import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { isPostgres } from '../../db/locks';
import { newLabelCode } from '../vaults/label-code';

/** The company's vault with this label code. */
export async function findVaultIdByLabelCode(
  db: Db,
  companyId: number,
  code: string,
): Promise<number | undefined> {
  const row = await db
    .selectFrom('vaults')
    .select('id')
    .where('company_id', '=', companyId)
    .where('label_code', '=', code)
    .executeTakeFirst();
  return row?.id;
}

/**
 * The company's vaults numbered like this in any case ('a-12' finds 'A-12': a scanner behind caps lock, a number typed
 * by hand), by migration 0035's index of the lower-cased numbers; at most 50, for the scan to choose among.
 */
export async function findVaultsNumbered(db: Db, companyId: number, name: string) {
  const key = isPostgres(db) ? sql`(lower(name) collate "C")` : sql`lower(name)`;
  return db
    .selectFrom('vaults')
    .select(['id', 'name', 'released_at'])
    .where('company_id', '=', companyId)
    .where(sql<boolean>`${key} = ${name.toLowerCase()}`)
    .orderBy('id')
    .limit(50)
    .execute();
}

export async function countVaultsAbove(
  db: Db,
  companyId: number,
  fieldId: number,
  position: number,
): Promise<number> {
  const row = await db
    .selectFrom('vaults')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', companyId)
    .where('field_id', '=', fieldId)
    .where('position', '<', position)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface ScanFieldRow {
  id: number;
  warehouse_id: number;
  warehouse_name: string;
  warehouse_slug: string;
  field_capacity: number;
  col: number;
  row: number;
  type: string;
  full: number;
}

function fieldsWithWarehouse(db: Db, companyId: number) {
  return db
    .selectFrom('fields as f')
    .innerJoin('warehouses as w', 'w.id', 'f.warehouse_id')
    .select([
      'f.id',
      'f.warehouse_id',
      'w.name as warehouse_name',
      'w.slug as warehouse_slug',
      'w.field_capacity',
      'f.col',
      'f.row',
      'f.type',
      'f.full',
    ])
    .where('f.company_id', '=', companyId);
}

export async function findScanField(
  db: Db,
  companyId: number,
  fieldId: number,
): Promise<ScanFieldRow | undefined> {
  return fieldsWithWarehouse(db, companyId).where('f.id', '=', fieldId).executeTakeFirst();
}

/** The company's fields at this place; within one warehouse when given, else in any of its warehouses. */
export async function findScanFieldsAt(
  db: Db,
  companyId: number,
  place: { col: number; row: number },
  warehouseId?: number,
): Promise<ScanFieldRow[]> {
  let query = fieldsWithWarehouse(db, companyId)
    .where('f.col', '=', place.col)
    .where('f.row', '=', place.row);
  if (warehouseId !== undefined) query = query.where('f.warehouse_id', '=', warehouseId);
  return query.orderBy('f.id').limit(2).execute();
}

/** The company's warehouse named so (any case) or with this slug. */
export async function findWarehouseIdByNameOrSlug(
  db: Db,
  companyId: number,
  text: string,
): Promise<number | undefined> {
  const lower = text.trim().toLowerCase();
  const rows = await db
    .selectFrom('warehouses')
    .select(['id', 'name', 'slug'])
    .where('company_id', '=', companyId)
    .execute();
  return rows.find((w) => w.name.trim().toLowerCase() === lower || w.slug === lower)?.id;
}

/** Gives the listed vaults of the company that have no label code (imported from an older file) one. */
export async function assignMissingLabelCodes(db: Db, companyId: number, vaultIds: number[]): Promise<void> {
  for (let i = 0; i < vaultIds.length; i += 500) {
    const missing = await db
      .selectFrom('vaults')
      .select('id')
      .where('company_id', '=', companyId)
      .where('id', 'in', vaultIds.slice(i, i + 500))
      .where('label_code', 'is', null)
      .execute();
    for (const { id } of missing)
      await db
        .updateTable('vaults')
        .set({ label_code: newLabelCode() })
        .where('id', '=', id)
        .where('label_code', 'is', null)
        .execute();
  }
}

export interface VaultLabelRow {
  id: number;
  name: string | null;
  type: string;
  label_code: string | null;
  customer_name: string;
  order_name: string | null;
}

/** The company's vaults with these ids, with what their labels show (read 500 at a time). */
export async function findVaultLabelRows(
  db: Db,
  companyId: number,
  vaultIds: number[],
): Promise<VaultLabelRow[]> {
  const rows: VaultLabelRow[] = [];
  const unique = [...new Set(vaultIds)];
  for (let i = 0; i < unique.length; i += 500) {
    const page = await db
      .selectFrom('vaults as v')
      .innerJoin('customers as c', 'c.id', 'v.customer_id')
      .leftJoin('orders as o', 'o.id', 'v.order_id')
      .select(['v.id', 'v.name', 'v.type', 'v.label_code', 'c.name as customer_name', 'o.name as order_name'])
      .where('v.company_id', '=', companyId)
      .where('v.id', 'in', unique.slice(i, i + 500))
      .execute();
    rows.push(...page);
  }
  return rows;
}

/** The company's warehouse (name and slug) and its fields. */
export async function findWarehouseFields(db: Db, companyId: number, warehouseId: number) {
  const warehouse = await db
    .selectFrom('warehouses')
    .select(['id', 'name', 'slug'])
    .where('company_id', '=', companyId)
    .where('id', '=', warehouseId)
    .executeTakeFirst();
  if (!warehouse) return undefined;
  const fields = await db
    .selectFrom('fields')
    .select(['id', 'col', 'row', 'type'])
    .where('warehouse_id', '=', warehouseId)
    .execute();
  return { warehouse, fields };
}
