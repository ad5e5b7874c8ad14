import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { Trx } from '../../db/locks';

// Issue 28, decision 039: accounts on hold and their units, always filtered by company.

/**
 * The units still in the warehouse (not released) of the company's accounts on hold, with their account: all of them,
 * the ones named, or those in the fields of one warehouse.
 */
export async function findHeldUnits(
  db: Db | Trx,
  companyId: number,
  vaultIds?: number[],
  warehouseId?: number,
) {
  if (vaultIds?.length === 0) return [];
  let query = db
    .selectFrom('storage_accounts')
    .innerJoin('storage_account_orders as sao', 'sao.account_id', 'storage_accounts.id')
    .innerJoin('vaults', 'vaults.order_id', 'sao.order_id')
    .where('storage_accounts.company_id', '=', companyId)
    .where('vaults.company_id', '=', companyId)
    .where('storage_accounts.on_hold', '=', 1)
    .where('vaults.released_at', 'is', null)
    .select(['vaults.id as vault_id', 'vaults.name', 'storage_accounts.id as account_id'])
    .orderBy('vaults.id');
  if (vaultIds) query = query.where('vaults.id', 'in', vaultIds);
  if (warehouseId !== undefined)
    query = query.where('vaults.field_id', 'in', (eb) =>
      eb
        .selectFrom('fields')
        .select('fields.id')
        .where('fields.company_id', '=', companyId)
        .where('fields.warehouse_id', '=', warehouseId),
    );
  return query.execute();
}

/**
 * The pallets of the company's accounts on hold, with their account: all of them, the ones named, or those on one rack
 * or in one warehouse. A pallet leaves the warehouse by being deleted (its move-out is kept for billing).
 */
export async function findHeldPallets(
  db: Db | Trx,
  companyId: number,
  where: { palletIds?: number[]; rackId?: number; warehouseId?: number } = {},
) {
  if (where.palletIds?.length === 0) return [];
  let query = db
    .selectFrom('storage_accounts')
    .innerJoin('storage_account_orders as sao', 'sao.account_id', 'storage_accounts.id')
    .innerJoin('pallets', 'pallets.order_id', 'sao.order_id')
    .innerJoin('shelves', 'shelves.id', 'pallets.shelf_id')
    .innerJoin('racks', 'racks.id', 'shelves.rack_id')
    .where('storage_accounts.company_id', '=', companyId)
    .where('pallets.company_id', '=', companyId)
    .where('storage_accounts.on_hold', '=', 1)
    .select([
      'pallets.id as pallet_id',
      'pallets.pallet_number',
      'pallets.name',
      'storage_accounts.id as account_id',
    ])
    .orderBy('pallets.id');
  if (where.palletIds) query = query.where('pallets.id', 'in', where.palletIds);
  if (where.rackId !== undefined) query = query.where('racks.id', '=', where.rackId);
  if (where.warehouseId !== undefined) query = query.where('racks.warehouse_id', '=', where.warehouseId);
  return query.execute();
}

/** Puts an account on hold, or lifts it; answers whether the row changed (false: it already was so). */
export async function setOnHold(trx: Trx, companyId: number, accountId: number, onHold: boolean) {
  const result = await trx
    .updateTable('storage_accounts')
    .set({ on_hold: onHold ? 1 : 0, version: sql`version + 1` })
    .where('company_id', '=', companyId)
    .where('id', '=', accountId)
    .where('on_hold', '=', onHold ? 0 : 1)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
