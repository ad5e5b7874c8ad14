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

/** Per field of the company that holds vaults: how many, and how many of them are the customer's. */
export async function findFieldCounts(
  db: Db,
  companyId: number,
  customerId: number | undefined,
): Promise<{ field_id: number; n: number; mine: number }[]> {
  const rows = await db
    .selectFrom('vaults')
    .select((eb) => [
      'field_id',
      eb.fn.countAll<number>().as('n'),
      eb.fn
        .sum<number>(
          eb
            .case()
            .when('customer_id', '=', customerId ?? 0)
            .then(1)
            .else(0)
            .end(),
        )
        .as('mine'),
    ])
    .where('company_id', '=', companyId)
    .where('field_id', 'is not', null)
    .groupBy('field_id')
    .execute();
  return rows.map((r) => ({ field_id: Number(r.field_id), n: Number(r.n), mine: Number(r.mine) }));
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

export async function findCustomerId(db: Db, companyId: number, name: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('customers')
    .select('id')
    .where('company_id', '=', companyId)
    .where('name', '=', name)
    .executeTakeFirst();
  return row?.id;
}
