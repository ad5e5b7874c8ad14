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
}

/** Every field of the company with its warehouse's name and slot capacity. */
export async function findCompanyFields(db: Db, companyId: number): Promise<ReceivingFieldRow[]> {
  return db
    .selectFrom('fields as f')
    .innerJoin('warehouses as w', 'w.id', 'f.warehouse_id')
    .select([
      'f.id',
      'f.col',
      'f.row',
      'f.type',
      'f.full',
      'f.warehouse_id',
      'w.name as warehouse_name',
      'w.field_capacity',
    ])
    .where('f.company_id', '=', companyId)
    .execute();
}

/** Where the company's placed vaults stand, and whose they are (by customer id). */
export async function findPlacedSlots(
  db: Db,
  companyId: number,
): Promise<{ field_id: number; position: number; customer_id: number }[]> {
  const rows = await db
    .selectFrom('vaults')
    .select(['field_id', 'position', 'customer_id'])
    .where('company_id', '=', companyId)
    .where('field_id', 'is not', null)
    .execute();
  return rows.map((r) => ({
    field_id: Number(r.field_id),
    position: Number(r.position),
    customer_id: r.customer_id,
  }));
}

export async function findCustomerId(db: Db, companyId: number, name: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('customers')
    .select('id')
    .where('company_id', '=', companyId)
    .where('name', '=', name)
    .executeTakeFirst();
  return row?.id;
}
