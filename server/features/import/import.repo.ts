import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { nowIso } from '../../db/database';
import { isPostgres, type Trx } from '../../db/locks';
import { type NewVault, vaultsWithNames } from '../vaults/vault-rows';
import type { WarehouseRow } from '../warehouses/warehouses.repo';

/** Rows per insert statement: well under SQLite's and PostgreSQL's bound-parameter limits. */
const CHUNK = 500;

function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** A warehouse as an import and an export see it: its name and its dimensions. */
export type ImportWarehouseRow = Pick<
  WarehouseRow,
  'id' | 'name' | 'rows' | 'cols' | 'field_capacity' | 'length' | 'width' | 'grid_x' | 'grid_y'
>;

export async function findCompanyWarehouses(db: Db, companyId: number): Promise<ImportWarehouseRow[]> {
  return db
    .selectFrom('warehouses')
    .select(['id', 'name', 'rows', 'cols', 'field_capacity', 'length', 'width', 'grid_x', 'grid_y'])
    .where('company_id', '=', companyId)
    .orderBy('id')
    .execute();
}

export interface ImportFieldRow {
  id: number;
  warehouse_id: number;
  col: number;
  row: number;
  type: string;
  full: number;
}

export async function findCompanyFields(db: Db, companyId: number): Promise<ImportFieldRow[]> {
  return db
    .selectFrom('fields')
    .select(['id', 'warehouse_id', 'col', 'row', 'type', 'full'])
    .where('company_id', '=', companyId)
    .execute();
}

/** Where the company's placed vaults stand, and every vault number it has (for duplicates). */
export async function findCompanyVaultPlaces(
  db: Db,
  companyId: number,
): Promise<{ field_id: number | null; position: number | null; name: string | null }[]> {
  return db
    .selectFrom('vaults')
    .select(['field_id', 'position', 'name'])
    .where('company_id', '=', companyId)
    .execute();
}

/** Finds or creates each name in one pass per chunk; answers the id of every name. */
export async function findOrCreateNames(
  trx: Trx,
  table: 'customers' | 'orders',
  companyId: number,
  names: readonly string[],
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const chunk of chunks([...new Set(names)])) {
    await trx
      .insertInto(table)
      .values(chunk.map((name) => ({ company_id: companyId, name })))
      .onConflict((oc) => oc.columns(['company_id', 'name']).doNothing())
      .execute();
    const rows = await trx
      .selectFrom(table)
      .select(['id', 'name'])
      .where('company_id', '=', companyId)
      .where('name', 'in', chunk)
      .execute();
    for (const row of rows) ids.set(row.name, row.id);
  }
  return ids;
}

/** A vault of an import: a new vault of the company the import is for. */
export type NewImportedVault = Omit<NewVault, 'companyId'>;

/** Inserts the vaults in chunks; answers their ids in the order given. */
export async function insertVaults(
  trx: Trx,
  companyId: number,
  vaults: readonly NewImportedVault[],
): Promise<number[]> {
  const now = nowIso();
  const ids: number[] = [];
  for (const chunk of chunks(vaults)) {
    const rows = await trx
      .insertInto('vaults')
      .values(
        chunk.map((v) => ({
          company_id: companyId,
          name: v.name,
          customer_id: v.customerId,
          order_id: v.orderId,
          field_id: v.fieldId,
          position: v.position,
          type: v.type,
          note: v.note,
          created_at: now,
          updated_at: now,
        })),
      )
      .returning('id')
      .execute();
    // both engines answer a multi-row insert's ids in the order of its rows
    for (const row of rows) ids.push(row.id);
  }
  return ids;
}

export interface NewImport {
  companyId: number;
  userId: number | null;
  kind: string;
  fileName: string;
  rowCount: number;
  placedCount: number;
  stagedCount: number;
  createdWarehouses: number[];
}

export async function insertImport(trx: Trx, record: NewImport, itemIds: readonly number[]): Promise<number> {
  const row = await trx
    .insertInto('imports')
    .values({
      company_id: record.companyId,
      user_id: record.userId,
      kind: record.kind,
      file_name: record.fileName,
      row_count: record.rowCount,
      placed_count: record.placedCount,
      staged_count: record.stagedCount,
      created_warehouses: JSON.stringify(record.createdWarehouses),
      created_at: nowIso(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const chunk of chunks(itemIds))
    await trx
      .insertInto('import_items')
      .values(chunk.map((itemId) => ({ import_id: row.id, company_id: record.companyId, item_id: itemId })))
      .execute();
  return row.id;
}

export interface ImportRow {
  id: number;
  user_id: number | null;
  username: string | null;
  kind: string;
  file_name: string;
  row_count: number;
  placed_count: number;
  staged_count: number;
  created_warehouses: string;
  created_at: string;
  undone_at: string | null;
}

function importRows(db: Db) {
  return db
    .selectFrom('imports as i')
    .leftJoin('users as u', 'u.id', 'i.user_id')
    .select([
      'i.id',
      'i.user_id',
      'u.username',
      'i.kind',
      'i.file_name',
      'i.row_count',
      'i.placed_count',
      'i.staged_count',
      'i.created_warehouses',
      'i.created_at',
      'i.undone_at',
    ]);
}

export async function findImports(db: Db, companyId: number, limit: number): Promise<ImportRow[]> {
  return importRows(db).where('i.company_id', '=', companyId).orderBy('i.id', 'desc').limit(limit).execute();
}

export async function findImport(
  db: Db,
  companyId: number,
  importId: number,
): Promise<ImportRow | undefined> {
  return importRows(db).where('i.company_id', '=', companyId).where('i.id', '=', importId).executeTakeFirst();
}

/** The import's row, locked against a second undo running beside this one (PostgreSQL; SQLite has one writer). */
export async function lockImport(trx: Trx, companyId: number, importId: number, postgres: boolean) {
  let query = trx
    .selectFrom('imports')
    .select(['id', 'undone_at'])
    .where('company_id', '=', companyId)
    .where('id', '=', importId);
  if (postgres) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function findImportItems(db: Db, companyId: number, importId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('import_items')
    .select('item_id')
    .where('company_id', '=', companyId)
    .where('import_id', '=', importId)
    .execute();
  return rows.map((r) => r.item_id);
}

export interface ImportedVaultState {
  id: number;
  version: number;
  customer_id: number;
  order_id: number | null;
  field_id: number | null;
  warehouse_id: number | null;
}

/** The vaults with these ids as they are now, with the warehouse they stand in. */
export async function findVaultStates(
  db: Db,
  companyId: number,
  vaultIds: readonly number[],
): Promise<ImportedVaultState[]> {
  const out: ImportedVaultState[] = [];
  for (const chunk of chunks(vaultIds))
    out.push(
      ...(await db
        .selectFrom('vaults as v')
        .leftJoin('fields as f', 'f.id', 'v.field_id')
        .select(['v.id', 'v.version', 'v.customer_id', 'v.order_id', 'v.field_id', 'f.warehouse_id'])
        .where('v.company_id', '=', companyId)
        .where('v.id', 'in', chunk)
        .execute()),
    );
  return out;
}

export async function deleteVaults(trx: Trx, companyId: number, vaultIds: readonly number[]): Promise<void> {
  for (const chunk of chunks(vaultIds))
    await trx.deleteFrom('vaults').where('company_id', '=', companyId).where('id', 'in', chunk).execute();
}

export async function markUndone(trx: Trx, companyId: number, importId: number): Promise<void> {
  await trx
    .updateTable('imports')
    .set({ undone_at: nowIso() })
    .where('company_id', '=', companyId)
    .where('id', '=', importId)
    .execute();
}

/** Whether the warehouse holds any vault or rack (an emptied warehouse the import created goes with the undo). */
export async function warehouseInUse(db: Db, companyId: number, warehouseId: number): Promise<boolean> {
  const vault = await db
    .selectFrom('vaults')
    .select('vaults.id')
    .innerJoin('fields', 'fields.id', 'vaults.field_id')
    .where('fields.company_id', '=', companyId)
    .where('fields.warehouse_id', '=', warehouseId)
    .limit(1)
    .executeTakeFirst();
  if (vault) return true;
  const rack = await db
    .selectFrom('racks')
    .select('id')
    .where('company_id', '=', companyId)
    .where('warehouse_id', '=', warehouseId)
    .limit(1)
    .executeTakeFirst();
  return rack !== undefined;
}

export interface ExportVaultRow {
  name: string | null;
  customer_name: string;
  order_name: string | null;
  type: string;
  note: string | null;
  position: number | null;
  col: number | null;
  row: number | null;
  warehouse_name: string | null;
  warehouse_id: number | null;
}

/** Every vault of the company with the names an export writes (released vaults have left: not exported). */
export async function findVaultsForExport(db: Db, companyId: number): Promise<ExportVaultRow[]> {
  return vaultsWithNames(db)
    .select([
      'v.name',
      'c.name as customer_name',
      'o.name as order_name',
      'v.type',
      'v.note',
      'v.position',
      'f.col',
      'f.row',
      'w.name as warehouse_name',
      'w.id as warehouse_id',
    ])
    .where('v.company_id', '=', companyId)
    .where('v.released_at', 'is', null)
    .orderBy('v.id')
    .execute();
}

/**
 * Bulk vault writes (migration 0009): on PostgreSQL the per-row counting trigger is skipped for the rest of this
 * transaction only, and `endBulkVaultWrites` recounts the touched warehouses once. SQLite counts per row as always
 * (its triggers cost little there).
 */
export async function beginBulkVaultWrites(trx: Trx): Promise<void> {
  if (isPostgres(trx)) await sql`select set_config('wm.bulk_vaults', 'on', true)`.execute(trx);
}

const EMPTY = sql`upper(c.name) like '%EMPTY%'`;

/** Recounts the warehouses' vaults as the trigger keeps them, moves their revisions and the stage's on. */
export async function endBulkVaultWrites(
  trx: Trx,
  companyId: number,
  warehouseIds: readonly number[],
  stageChanged: boolean,
): Promise<void> {
  if (!isPostgres(trx)) return;
  await sql`select set_config('wm.bulk_vaults', 'off', true)`.execute(trx);
  const ids = [...new Set(warehouseIds)].sort((a, b) => a - b);
  // The counts live in per-connection slots (migration 0010): this connection's slot takes the difference between
  // the vaults counted now and the sum of all slots, read in one statement so both see the same snapshot.
  for (const warehouseId of ids)
    await sql`
      insert into warehouse_stats as s (warehouse_id, company_id, slot, revision, vault_count, real_count,
        empty_vault_count, empty_couchbox_count)
      select w.id, w.company_id, wm_slot(), 1,
        counted.vaults - summed.vaults,
        counted.real - summed.real,
        counted.empty_vaults - summed.empty_vaults,
        counted.empty_couchboxes - summed.empty_couchboxes
      from warehouses w,
      (
        select
          count(*) as vaults,
          count(*) filter (where not ${EMPTY}) as real,
          count(*) filter (where ${EMPTY} and v.type = 'vault') as empty_vaults,
          count(*) filter (where ${EMPTY} and v.type = 'couchbox') as empty_couchboxes
        from vaults v
        join fields f on f.id = v.field_id
        join customers c on c.id = v.customer_id
        where f.warehouse_id = ${warehouseId}
      ) as counted,
      (
        select
          coalesce(sum(vault_count), 0) as vaults,
          coalesce(sum(real_count), 0) as real,
          coalesce(sum(empty_vault_count), 0) as empty_vaults,
          coalesce(sum(empty_couchbox_count), 0) as empty_couchboxes
        from warehouse_stats where warehouse_id = ${warehouseId}
      ) as summed
      where w.id = ${warehouseId}
      on conflict (warehouse_id, slot) do update set
        revision = s.revision + 1,
        vault_count = s.vault_count + excluded.vault_count,
        real_count = s.real_count + excluded.real_count,
        empty_vault_count = s.empty_vault_count + excluded.empty_vault_count,
        empty_couchbox_count = s.empty_couchbox_count + excluded.empty_couchbox_count`.execute(trx);
  if (stageChanged)
    await sql`
      insert into stage_revisions as s (company_id, slot, revision)
      values (${companyId}, wm_slot(), 1)
      on conflict (company_id, slot) do update set revision = s.revision + 1`.execute(trx);
}

/**
 * Per import (of these, all of one kind), how many of its vaults or pallets changed since (version moved on) or are
 * gone; imports with none are left out. One grouped read, so the import list can say which can still be undone.
 */
export async function countChangedItems(
  db: Db,
  companyId: number,
  kind: 'vaults' | 'pallets',
  importIds: readonly number[],
): Promise<Map<number, number>> {
  if (importIds.length === 0) return new Map();
  const rows = await sql<{ import_id: number; n: number }>`
    select ii.import_id, count(*) as n from import_items ii
    left join ${sql.table(kind)} u on u.id = ii.item_id and u.company_id = ${companyId}
    where ii.company_id = ${companyId} and ii.import_id in (${sql.join(importIds)})
      and (u.id is null or u.version <> 1)
    group by ii.import_id`.execute(db);
  return new Map(rows.rows.map((r) => [Number(r.import_id), Number(r.n)]));
}

/**
 * Per vault import, one vault not of that import that stands above one of its vaults (a smaller position in the same
 * field): deleting the import's vaults would leave it over an empty slot. Imports with none are left out.
 */
export async function findVaultsOnImported(
  db: Db,
  companyId: number,
  importIds: readonly number[],
): Promise<Map<number, { name: string | null; col: number; row: number }>> {
  if (importIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('import_items as ii')
    .innerJoin('vaults as v', 'v.id', 'ii.item_id')
    .innerJoin('vaults as o', (join) =>
      join.onRef('o.field_id', '=', 'v.field_id').onRef('o.position', '<', 'v.position'),
    )
    .innerJoin('fields as f', 'f.id', 'v.field_id')
    .select(['ii.import_id', 'o.name', 'f.col', 'f.row'])
    .where('ii.company_id', '=', companyId)
    .where('v.company_id', '=', companyId)
    .where('ii.import_id', 'in', importIds)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('import_items as j')
            .select('j.item_id')
            .whereRef('j.import_id', '=', 'ii.import_id')
            .whereRef('j.item_id', '=', 'o.id'),
        ),
      ),
    )
    .orderBy('ii.import_id')
    .orderBy('o.position')
    .execute();
  const out = new Map<number, { name: string | null; col: number; row: number }>();
  for (const r of rows)
    if (!out.has(r.import_id)) out.set(r.import_id, { name: r.name, col: r.col, row: r.row });
  return out;
}
