import { sql } from 'kysely';
import type { Db } from '../../db/database';

export interface ReceivingFieldRow {
  id: number;
  col: number;
  row: number;
  type: string;
  full: number;
  warehouse_id: number;
  warehouse_name: string;
  field_capacity: number;
  /** vaults standing in the field */
  n: number;
}

/** Vaults per field of the company, counted in the vaults' (company, field) index. */
function vaultCounts(db: Db, companyId: number) {
  return db
    .selectFrom('vaults')
    .select((eb) => ['field_id', eb.fn.countAll<number>().as('n')])
    .where('company_id', '=', companyId)
    .where('field_id', 'is not', null)
    .groupBy('field_id');
}

const FIELD_COLUMNS = [
  'f.id',
  'f.col',
  'f.row',
  'f.type',
  'f.full',
  'f.warehouse_id',
  'w.name as warehouse_name',
  'w.field_capacity',
] as const;

/**
 * The fields a receiving proposal can use: not marked full, not a couchbox's bottom half, and fewer vaults than slots
 * (the slot count of `fieldSlotCount`: one more in a couchbox's top half). Full fields are not read out.
 */
export async function findFieldsWithRoom(db: Db, companyId: number): Promise<ReceivingFieldRow[]> {
  const rows = await db
    .selectFrom('fields as f')
    .innerJoin('warehouses as w', 'w.id', 'f.warehouse_id')
    .leftJoin(vaultCounts(db, companyId).as('c'), 'c.field_id', 'f.id')
    .select(FIELD_COLUMNS)
    .select(sql<number>`coalesce(c.n, 0)`.as('n'))
    .where('f.company_id', '=', companyId)
    .where('f.full', '=', 0)
    .where('f.type', '<>', 'couchbox-B')
    .where(
      sql<number>`coalesce(c.n, 0)`,
      '<',
      sql<number>`w.field_capacity + case when f.type in ('couchbox-T', 'couchbox') then 1 else 0 end`,
    )
    .execute();
  return rows.map((r) => ({ ...r, n: Number(r.n) }));
}

/** The fields holding the customer's vaults, with their vault counts and how many of them are the customer's. */
export async function findCustomerFields(
  db: Db,
  companyId: number,
  customerName: string,
): Promise<(ReceivingFieldRow & { mine: number })[]> {
  const mine = db
    .selectFrom('vaults as v')
    .innerJoin('customers as cu', 'cu.id', 'v.customer_id')
    .select((eb) => ['v.field_id', eb.fn.countAll<number>().as('mine')])
    .where('cu.company_id', '=', companyId)
    .where('cu.name', '=', customerName)
    .where('v.field_id', 'is not', null)
    .groupBy('v.field_id');
  const rows = await db
    .selectFrom(mine.as('m'))
    .innerJoin('fields as f', 'f.id', 'm.field_id')
    .innerJoin('warehouses as w', 'w.id', 'f.warehouse_id')
    .select(FIELD_COLUMNS)
    .select([
      'm.mine',
      (eb) =>
        eb
          .selectFrom('vaults as v')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('v.field_id', '=', 'f.id')
          .as('n'),
    ])
    .where('f.company_id', '=', companyId)
    .execute();
  return rows.map((r) => ({ ...r, n: Number(r.n), mine: Number(r.mine) }));
}

/** The taken positions of these fields. */
export async function findOccupied(
  db: Db,
  companyId: number,
  fieldIds: number[],
): Promise<{ field_id: number; position: number }[]> {
  if (fieldIds.length === 0) return [];
  const rows = await db
    .selectFrom('vaults')
    .select(['field_id', 'position'])
    .where('company_id', '=', companyId)
    .where('field_id', 'in', fieldIds)
    .execute();
  return rows.map((r) => ({ field_id: Number(r.field_id), position: Number(r.position) }));
}
