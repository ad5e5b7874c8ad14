import type { Db } from '../../db/database';

export interface PrintVaultRow {
  id: number;
  name: string | null;
  customer_name: string;
  type: string;
  position: number | null;
  note: string | null;
  field_id: number | null;
}

export interface PrintFieldRow {
  id: number;
  col: number;
  row: number;
  warehouse_name: string;
}

/**
 * One page of the company's vaults, placed or staged, with its customer name, in id order after `afterId`. Read page
 * by page so no single query holds the process for long. Fields and warehouses come from their own (much shorter)
 * query: joining them to each of ~15,000 vaults cost more than the vaults themselves.
 */
export async function listVaultsForPrintPage(
  db: Db,
  companyId: number,
  afterId: number,
  limit: number,
): Promise<PrintVaultRow[]> {
  return db
    .selectFrom('vaults as v')
    .innerJoin('customers as c', 'c.id', 'v.customer_id')
    .select(['v.id', 'v.name', 'c.name as customer_name', 'v.type', 'v.position', 'v.note', 'v.field_id'])
    .where('v.company_id', '=', companyId)
    .where('v.id', '>', afterId)
    .orderBy('v.id')
    .limit(limit)
    .execute();
}

export async function listFieldsForPrint(db: Db, companyId: number): Promise<PrintFieldRow[]> {
  return db
    .selectFrom('fields as f')
    .innerJoin('warehouses as w', 'w.id', 'f.warehouse_id')
    .select(['f.id', 'f.col', 'f.row', 'w.name as warehouse_name'])
    .where('w.company_id', '=', companyId)
    .execute();
}
