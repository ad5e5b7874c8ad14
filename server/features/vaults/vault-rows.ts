import type { Db } from '../../db/database';

/** A vault row as the API reads it, and its read: shared by the plain and locking repository and the one-statement one. */

export interface VaultRow {
  id: number;
  company_id: number;
  name: string | null;
  customer_id: number;
  customer_name: string;
  order_id: number | null;
  order_name: string | null;
  field_id: number | null;
  position: number | null;
  type: string;
  note: string | null;
  version: number;
  released_at: string | null;
  released_by: string | null;
  field_col: number | null;
  field_row: number | null;
  warehouse_id: number | null;
  warehouse_name: string | null;
}

/** A vault's own columns with its customer and order names (`c` and `o` joined). */
export const VAULT_COLUMNS = [
  'v.id',
  'v.company_id',
  'v.name',
  'v.customer_id',
  'c.name as customer_name',
  'v.order_id',
  'o.name as order_name',
  'v.field_id',
  'v.position',
  'v.type',
  'v.note',
  'v.version',
  'v.released_at',
  'v.released_by',
] as const;

/**
 * Vaults (`v`) joined to what names them and where they stand: customer `c`, order `o`, field `f` and warehouse `w`
 * (the last two empty for a staged vault). Every read that shows vaults by name starts here.
 */
export function vaultsWithNames(db: Db) {
  return db
    .selectFrom('vaults as v')
    .innerJoin('customers as c', 'c.id', 'v.customer_id')
    .leftJoin('orders as o', 'o.id', 'v.order_id')
    .leftJoin('fields as f', 'f.id', 'v.field_id')
    .leftJoin('warehouses as w', 'w.id', 'f.warehouse_id');
}

/** Vaults with the names a VaultDto shows; staged vaults have no field or warehouse. */
export function vaultRows(db: Db) {
  return vaultsWithNames(db).select([
    ...VAULT_COLUMNS,
    'f.col as field_col',
    'f.row as field_row',
    'f.warehouse_id',
    'w.name as warehouse_name',
  ]);
}

export interface NewVault {
  companyId: number;
  name: string | null;
  customerId: number;
  orderId: number | null;
  fieldId: number | null;
  position: number | null;
  type: string;
  note: string | null;
}
