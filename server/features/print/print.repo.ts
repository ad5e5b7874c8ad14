import type { Db } from '../../db/database';

export interface PrintVaultRow {
  id: number;
  name: string | null;
  customer_name: string;
  type: string;
  position: number | null;
  note: string | null;
  field_col: number | null;
  field_row: number | null;
  warehouse_name: string | null;
}

/** Every vault of the company, placed or staged, with its customer, field and warehouse, in one query. */
export async function listVaultsForPrint(db: Db, companyId: number): Promise<PrintVaultRow[]> {
  return db
    .selectFrom('vaults as v')
    .innerJoin('customers as c', 'c.id', 'v.customer_id')
    .leftJoin('fields as f', 'f.id', 'v.field_id')
    .leftJoin('warehouses as w', 'w.id', 'f.warehouse_id')
    .select([
      'v.id',
      'v.name',
      'c.name as customer_name',
      'v.type',
      'v.position',
      'v.note',
      'f.col as field_col',
      'f.row as field_row',
      'w.name as warehouse_name',
    ])
    .where('v.company_id', '=', companyId)
    .execute();
}
