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

/** Where a vault stands: what its print order depends on. */
export interface PrintKeyRow {
  id: number;
  field_id: number | null;
  position: number | null;
}

/** Where a page of keys ends: the next page starts after it. */
export interface PrintPageEnd {
  fieldId: number | null;
  id: number;
}

/**
 * One page of the company's vault keys: first the staged vaults in id order, then the placed ones by field and id,
 * which is the order of the vaults' (company, field) index, so each page is a short range read of that index.
 */
export async function listPrintKeysPage(
  db: Db,
  companyId: number,
  after: PrintPageEnd | null,
  limit: number,
): Promise<PrintKeyRow[]> {
  const query = db
    .selectFrom('vaults as v')
    .select(['v.id', 'v.field_id', 'v.position'])
    .where('v.company_id', '=', companyId)
    .limit(limit);
  if (after === null || after.fieldId === null) {
    const staged = await query
      .where('v.field_id', 'is', null)
      // released vaults have left the warehouse (issue 16): not in Print Studio
      .where('v.released_at', 'is', null)
      .where('v.id', '>', after?.id ?? 0)
      .orderBy('v.id')
      .execute();
    if (staged.length > 0) return staged;
  }
  const from = after !== null && after.fieldId !== null ? after : { fieldId: 0, id: 0 };
  return query
    .where('v.field_id', 'is not', null)
    .where((eb) => eb(eb.refTuple('v.field_id', 'v.id'), '>', eb.tuple(from.fieldId, from.id)))
    .orderBy('v.field_id')
    .orderBy('v.id')
    .execute();
}

/**
 * The printed columns of these vaults, with their customer names. Fields and warehouses come from their own (much
 * shorter) query: joining them to each vault cost more than the vaults themselves.
 */
export async function listVaultsForPrint(
  db: Db,
  companyId: number,
  vaultIds: readonly number[],
): Promise<PrintVaultRow[]> {
  if (vaultIds.length === 0) return [];
  return db
    .selectFrom('vaults as v')
    .innerJoin('customers as c', 'c.id', 'v.customer_id')
    .select(['v.id', 'v.name', 'c.name as customer_name', 'v.type', 'v.position', 'v.note', 'v.field_id'])
    .where('v.company_id', '=', companyId)
    .where('v.id', 'in', vaultIds)
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
