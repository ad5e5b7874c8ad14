import type { Db } from '../../db/database';
import { nowIso } from '../../db/database';
import { isPostgres, sharedWarehouseLock, type Trx } from '../../db/locks';
import { newLabelCode } from './label-code';
import { type NewVault, VAULT_COLUMNS, type VaultRow, vaultRows } from './vault-rows';

export type { NewVault, VaultRow } from './vault-rows';
export {
  type FieldState,
  type NewVaultByName,
  type Placement,
  type PlacementState,
  readPlacement,
  writeNewVault,
  writePlacement,
  writeRemoval,
} from './vault-statements.repo';

export async function findVault(db: Db, companyId: number, vaultId: number): Promise<VaultRow | undefined> {
  return vaultRows(db).where('v.company_id', '=', companyId).where('v.id', '=', vaultId).executeTakeFirst();
}

/**
 * The vault as findVault reads it, and on PostgreSQL step 1 of the locking rule in the same statement: its warehouse
 * locked shared (none for a staged vault). What the write decides on is read again under the field and vault locks.
 */
export async function findVaultAndLockWarehouse(
  trx: Trx,
  companyId: number,
  vaultId: number,
): Promise<VaultRow | undefined> {
  if (!isPostgres(trx)) return findVault(trx, companyId, vaultId);
  return vaultRows(trx)
    .select(sharedWarehouseLock('f.warehouse_id').as('warehouse_locked'))
    .where('v.company_id', '=', companyId)
    .where('v.id', '=', vaultId)
    .executeTakeFirst();
}

/** A vault's own columns, as locked for a write. */
export type LockedVaultRow = Pick<
  VaultRow,
  | 'id'
  | 'company_id'
  | 'name'
  | 'customer_id'
  | 'order_id'
  | 'field_id'
  | 'position'
  | 'type'
  | 'version'
  | 'released_at'
>;

/**
 * Step 3 of the locking rule (docs/decisions/003-locking.md) and the read of the locked rows in one statement: the
 * company's vaults with these ids, exclusive, in id order (on SQLite a plain read). Only the vaults' own columns, so
 * the rows are the ones the lock waited for.
 */
export async function lockAndFindVaults(
  trx: Trx,
  companyId: number,
  vaultIds: readonly number[],
): Promise<LockedVaultRow[]> {
  if (vaultIds.length === 0) return [];
  let query = trx
    .selectFrom('vaults')
    .select([
      'id',
      'company_id',
      'name',
      'customer_id',
      'order_id',
      'field_id',
      'position',
      'type',
      'version',
      'released_at',
    ])
    .where('company_id', '=', companyId)
    .where(
      'id',
      'in',
      [...new Set(vaultIds)].sort((a, b) => a - b),
    )
    .orderBy('id');
  if (isPostgres(trx)) query = query.forUpdate();
  return query.execute();
}

/** A placed vault without its field and warehouse names, which the caller already has. */
export type WarehouseVaultRow = Omit<VaultRow, 'field_col' | 'field_row' | 'warehouse_id' | 'warehouse_name'>;

/**
 * The vaults placed in one warehouse. They are found through the warehouse's fields (an index lookup per field)
 * rather than by scanning every vault of the company, and the field and warehouse are not joined per vault.
 */
export async function findVaultsOfWarehouse(
  db: Db,
  companyId: number,
  warehouseId: number,
): Promise<WarehouseVaultRow[]> {
  return db
    .selectFrom('vaults as v')
    .innerJoin('customers as c', 'c.id', 'v.customer_id')
    .leftJoin('orders as o', 'o.id', 'v.order_id')
    .select(VAULT_COLUMNS)
    .where('v.company_id', '=', companyId)
    .where('v.field_id', 'in', (eb) =>
      eb
        .selectFrom('fields')
        .select('fields.id')
        .where('fields.warehouse_id', '=', warehouseId)
        .where('fields.company_id', '=', companyId),
    )
    .execute();
}

export async function findVaultsOfFields(db: Db, companyId: number, fieldIds: number[]): Promise<VaultRow[]> {
  if (fieldIds.length === 0) return [];
  return vaultRows(db)
    .where('v.company_id', '=', companyId)
    .where('v.field_id', 'in', fieldIds)
    .orderBy('v.id')
    .execute();
}

export async function findStagedVaults(db: Db, companyId: number): Promise<VaultRow[]> {
  return (
    vaultRows(db)
      .where('v.company_id', '=', companyId)
      .where('v.field_id', 'is', null)
      // released vaults have left the warehouse (issue 16)
      .where('v.released_at', 'is', null)
      .orderBy('v.id')
      .execute()
  );
}

export async function occupiedPositions(
  db: Db,
  companyId: number,
  fieldId: number,
): Promise<{ id: number; position: number }[]> {
  const rows = await db
    .selectFrom('vaults')
    .select(['id', 'position'])
    .where('company_id', '=', companyId)
    .where('field_id', '=', fieldId)
    .orderBy('position')
    .execute();
  return rows.map((r) => ({ id: r.id, position: Number(r.position) }));
}

export async function countVaultsInFields(db: Db, companyId: number, fieldIds: number[]): Promise<number> {
  if (fieldIds.length === 0) return 0;
  const row = await db
    .selectFrom('vaults')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', companyId)
    .where('field_id', 'in', fieldIds)
    .executeTakeFirstOrThrow();
  return row.n;
}

/** The new vault's id and version (the column's default). */
export async function insertVault(db: Db, vault: NewVault): Promise<{ id: number; version: number }> {
  const now = nowIso();
  return db
    .insertInto('vaults')
    .values({
      company_id: vault.companyId,
      name: vault.name,
      customer_id: vault.customerId,
      order_id: vault.orderId,
      field_id: vault.fieldId,
      position: vault.position,
      type: vault.type,
      note: vault.note,
      created_at: now,
      updated_at: now,
      label_code: newLabelCode(),
    })
    .returning(['id', 'version'])
    .executeTakeFirstOrThrow();
}

export interface VaultChanges {
  name: string | null;
  customerId: number;
  orderId: number | null;
  type: string;
  note: string | null;
}

export async function updateVaultDetails(
  db: Db,
  companyId: number,
  vaultId: number,
  changes: VaultChanges,
): Promise<void> {
  await db
    .updateTable('vaults')
    .set((eb) => ({
      name: changes.name,
      customer_id: changes.customerId,
      order_id: changes.orderId,
      type: changes.type,
      note: changes.note,
      version: eb('version', '+', 1),
      updated_at: nowIso(),
    }))
    .where('company_id', '=', companyId)
    .where('id', '=', vaultId)
    .execute();
}

/** Puts a vault into a slot, or onto the stage with a null field and position. */
export async function placeVault(
  db: Db,
  companyId: number,
  vaultId: number,
  place: { fieldId: number | null; position: number | null },
): Promise<void> {
  await db
    .updateTable('vaults')
    .set((eb) => ({
      field_id: place.fieldId,
      position: place.position,
      version: eb('version', '+', 1),
      updated_at: nowIso(),
    }))
    .where('company_id', '=', companyId)
    .where('id', '=', vaultId)
    .execute();
}

export async function deleteVaultRow(db: Db, companyId: number, vaultId: number): Promise<void> {
  await db.deleteFrom('vaults').where('company_id', '=', companyId).where('id', '=', vaultId).execute();
}

/** The revision of the company's stage; it changes whenever a staged vault comes, goes or changes. */
export async function findStageRevision(db: Db, companyId: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('companies as c')
    .leftJoin('stage_revisions as s', 's.company_id', 'c.id')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('s.revision'), eb.lit(0)).as('revision'))
    .where('c.id', '=', companyId)
    .groupBy('c.id')
    .executeTakeFirst();
  // the sum of the slots (migration 0010): every write to the stage moves it on when it commits
  return row === undefined ? undefined : Number(row.revision);
}
