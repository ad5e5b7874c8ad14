import { type Selectable, sql } from 'kysely';
import type { PullListDto, PullListSummaryDto, ReleasedVaultDto } from '@domain/schemas/pull-list.schema';
import type { Db } from '../../db/database';
import { nowIso } from '../../db/database';
import type { Trx } from '../../db/locks';
import type { PullListItemsTable } from '../../db/schema';
import type { VaultRow } from '../vaults/vault-rows';

export async function findNameId(
  db: Db,
  table: 'customers' | 'orders',
  companyId: number,
  name: string,
): Promise<number | undefined> {
  const row = await db
    .selectFrom(table)
    .select('id')
    .where('company_id', '=', companyId)
    .where('name', '=', name)
    .executeTakeFirst();
  return row?.id;
}

/** The company's vaults of an order or a customer that have not left the warehouse. */
export async function findVaultIdsOf(
  db: Db,
  companyId: number,
  of: { orderId: number } | { customerId: number },
): Promise<number[]> {
  let query = db
    .selectFrom('vaults')
    .select('id')
    .where('company_id', '=', companyId)
    .where('released_at', 'is', null);
  query =
    'orderId' in of
      ? query.where('order_id', '=', of.orderId)
      : query.where('customer_id', '=', of.customerId);
  return (await query.orderBy('id').execute()).map((r) => r.id);
}

export async function insertPullList(
  db: Db,
  list: {
    companyId: number;
    title: string;
    customerId: number | null;
    orderId: number | null;
    createdBy: string;
  },
): Promise<number> {
  const row = await db
    .insertInto('pull_lists')
    .values({
      company_id: list.companyId,
      title: list.title,
      customer_id: list.customerId,
      order_id: list.orderId,
      created_by: list.createdBy,
      created_at: nowIso(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface NewItem {
  vaultId: number;
  role: 'pull' | 'in-the-way';
  state: string;
  fromFieldId?: number | null;
  fromPosition?: number | null;
  doneBy?: string | null;
}

export async function insertItems(
  db: Db,
  companyId: number,
  listId: number,
  items: NewItem[],
): Promise<void> {
  if (items.length === 0) return;
  const at = nowIso();
  // in slices, so a big customer stays within the engines' limits on bound values
  for (let i = 0; i < items.length; i += 500) {
    await db
      .insertInto('pull_list_items')
      .values(
        items.slice(i, i + 500).map((item) => ({
          company_id: companyId,
          pull_list_id: listId,
          vault_id: item.vaultId,
          role: item.role,
          state: item.state,
          from_field_id: item.fromFieldId ?? null,
          from_position: item.fromPosition ?? null,
          done_by: item.doneBy ?? null,
          done_at: item.doneBy ? at : null,
        })),
      )
      .execute();
  }
}

/** A list as read: the DTO without what the service composes from its items. */
export type PullListRow = Omit<PullListDto, 'vaults' | 'plan' | 'handlings' | 'in_the_way' | 'set_aside'>;

export async function findPullList(
  db: Db,
  companyId: number,
  listId: number,
): Promise<PullListRow | undefined> {
  return db
    .selectFrom('pull_lists as l')
    .leftJoin('customers as c', 'c.id', 'l.customer_id')
    .leftJoin('orders as o', 'o.id', 'l.order_id')
    .select([
      'l.id',
      'l.title',
      'c.name as customer_name',
      'o.name as order_name',
      'l.created_at',
      'l.created_by',
      'l.released_at',
      'l.released_by',
      'l.version',
    ])
    .where('l.company_id', '=', companyId)
    .where('l.id', '=', listId)
    .executeTakeFirst();
}

export async function findPullLists(db: Db, companyId: number): Promise<PullListSummaryDto[]> {
  const rows = await db
    .selectFrom('pull_lists as l')
    .leftJoin('pull_list_items as i', (join) =>
      join.onRef('i.pull_list_id', '=', 'l.id').on('i.role', '=', 'pull'),
    )
    .leftJoin('vaults as v', 'v.id', 'i.vault_id')
    .select((eb) => [
      'l.id',
      'l.title',
      'l.created_at',
      'l.created_by',
      'l.released_at',
      eb.fn.count<number>('i.id').as('vault_count'),
      eb.fn.count<number>('v.field_id').as('left_in_fields'),
    ])
    .where('l.company_id', '=', companyId)
    .groupBy(['l.id', 'l.title', 'l.created_at', 'l.created_by', 'l.released_at'])
    .orderBy('l.id', 'desc')
    .limit(500)
    .execute();
  return rows.map((r) => ({
    ...r,
    vault_count: Number(r.vault_count),
    left_in_fields: Number(r.left_in_fields),
  }));
}

/** An item of a list: its own columns and its vault with where it is now. */
export type ItemRow = Pick<
  Selectable<PullListItemsTable>,
  'vault_id' | 'role' | 'state' | 'from_field_id' | 'from_position' | 'done_by'
> &
  Omit<VaultRow, 'id' | 'company_id' | 'customer_id' | 'order_id' | 'note' | 'version'>;

/** The list's vaults with where they are now. */
export async function findItems(db: Db, companyId: number, listId: number): Promise<ItemRow[]> {
  return db
    .selectFrom('pull_list_items as i')
    .innerJoin('vaults as v', 'v.id', 'i.vault_id')
    .innerJoin('customers as c', 'c.id', 'v.customer_id')
    .leftJoin('orders as o', 'o.id', 'v.order_id')
    .leftJoin('fields as f', 'f.id', 'v.field_id')
    .leftJoin('warehouses as w', 'w.id', 'f.warehouse_id')
    .select([
      'i.vault_id',
      'i.role',
      'i.state',
      'i.from_field_id',
      'i.from_position',
      'i.done_by',
      'v.name',
      'c.name as customer_name',
      'o.name as order_name',
      'v.type',
      'v.field_id',
      'v.position',
      'v.released_at',
      'v.released_by',
      'f.col as field_col',
      'f.row as field_row',
      'f.warehouse_id',
      'w.name as warehouse_name',
    ])
    .where('i.company_id', '=', companyId)
    .where('i.pull_list_id', '=', listId)
    .orderBy('i.id')
    .execute();
}

export interface FieldVaultRow {
  id: number;
  field_id: number;
  position: number;
  name: string | null;
  customer_name: string;
  field_col: number;
  field_row: number;
  warehouse_id: number;
  warehouse_name: string;
}

/** Every vault of these fields, with the field's place: what the planner needs to see the stacks. */
export async function findVaultsInFields(
  db: Db,
  companyId: number,
  fieldIds: number[],
): Promise<FieldVaultRow[]> {
  if (fieldIds.length === 0) return [];
  const rows = await db
    .selectFrom('vaults as v')
    .innerJoin('customers as c', 'c.id', 'v.customer_id')
    .innerJoin('fields as f', 'f.id', 'v.field_id')
    .innerJoin('warehouses as w', 'w.id', 'f.warehouse_id')
    .select([
      'v.id',
      'v.field_id',
      'v.position',
      'v.name',
      'c.name as customer_name',
      'f.col as field_col',
      'f.row as field_row',
      'f.warehouse_id',
      'w.name as warehouse_name',
    ])
    .where('v.company_id', '=', companyId)
    .where('v.field_id', 'in', fieldIds)
    .execute();
  return rows.map((r) => ({ ...r, field_id: Number(r.field_id), position: Number(r.position) }));
}

export interface FieldPlaceRow {
  id: number;
  col: number;
  row: number;
  warehouse_id: number;
  warehouse_name: string;
}

export async function findFieldPlaces(
  db: Db,
  companyId: number,
  fieldIds: number[],
): Promise<FieldPlaceRow[]> {
  if (fieldIds.length === 0) return [];
  return db
    .selectFrom('fields as f')
    .innerJoin('warehouses as w', 'w.id', 'f.warehouse_id')
    .select(['f.id', 'f.col', 'f.row', 'f.warehouse_id', 'w.name as warehouse_name'])
    .where('f.company_id', '=', companyId)
    .where('f.id', 'in', fieldIds)
    .execute();
}

/**
 * Claims one step of a list: moves the item from one state to the next, only if it is still in the first. On
 * PostgreSQL a second claim of the same item waits for the first transaction and then finds nothing to change.
 */
export async function claimItem(
  trx: Trx,
  companyId: number,
  listId: number,
  vaultId: number,
  change: { role: string; from: string; to: string; doneBy: string },
): Promise<boolean> {
  const result = await trx
    .updateTable('pull_list_items')
    .set({ state: change.to, done_by: change.doneBy, done_at: nowIso() })
    .where('company_id', '=', companyId)
    .where('pull_list_id', '=', listId)
    .where('vault_id', '=', vaultId)
    .where('role', '=', change.role)
    .where('state', '=', change.from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function findItem(
  db: Db,
  companyId: number,
  listId: number,
  vaultId: number,
): Promise<{ role: string; state: string; from_field_id: number | null } | undefined> {
  return db
    .selectFrom('pull_list_items')
    .select(['role', 'state', 'from_field_id'])
    .where('company_id', '=', companyId)
    .where('pull_list_id', '=', listId)
    .where('vault_id', '=', vaultId)
    .executeTakeFirst();
}

export async function setAsideAgain(
  trx: Trx,
  companyId: number,
  listId: number,
  vaultId: number,
  from: { fieldId: number; position: number; doneBy: string },
): Promise<boolean> {
  const result = await trx
    .updateTable('pull_list_items')
    .set({
      state: 'set-aside',
      from_field_id: from.fieldId,
      from_position: from.position,
      done_by: from.doneBy,
      done_at: nowIso(),
    })
    .where('company_id', '=', companyId)
    .where('pull_list_id', '=', listId)
    .where('vault_id', '=', vaultId)
    .where('role', '=', 'in-the-way')
    .where('state', '=', 'put-back')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function bumpPullList(trx: Trx, companyId: number, listId: number): Promise<void> {
  await trx
    .updateTable('pull_lists')
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('company_id', '=', companyId)
    .where('id', '=', listId)
    .execute();
}

/** Marks the list released, only once: false when it already was. */
export async function markPullListReleased(
  trx: Trx,
  companyId: number,
  listId: number,
  by: string,
  at: string,
): Promise<boolean> {
  const result = await trx
    .updateTable('pull_lists')
    .set((eb) => ({ released_at: at, released_by: by, version: eb('version', '+', 1) }))
    .where('company_id', '=', companyId)
    .where('id', '=', listId)
    .where('released_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Removes an unreleased list with its items (cascade); answers whether there was one to remove. */
export async function deletePullList(trx: Trx, companyId: number, listId: number): Promise<boolean> {
  const result = await trx
    .deleteFrom('pull_lists')
    .where('company_id', '=', companyId)
    .where('id', '=', listId)
    .where('released_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Releases staged vaults (no field) that are not released yet; answers how many. */
export async function releaseVaults(
  trx: Trx,
  companyId: number,
  vaultIds: number[],
  by: string,
  at: string,
): Promise<number> {
  if (vaultIds.length === 0) return 0;
  let released = 0;
  for (let i = 0; i < vaultIds.length; i += 500) {
    const result = await trx
      .updateTable('vaults')
      .set((eb) => ({ released_at: at, released_by: by, version: eb('version', '+', 1), updated_at: at }))
      .where('company_id', '=', companyId)
      .where('id', 'in', vaultIds.slice(i, i + 500))
      .where('field_id', 'is', null)
      .where('released_at', 'is', null)
      .executeTakeFirst();
    released += Number(result.numUpdatedRows);
  }
  return released;
}

/** The field a vault of the company stands in; null when staged or unknown. */
export async function findFieldOfVault(db: Db, companyId: number, vaultId: number): Promise<number | null> {
  const row = await db
    .selectFrom('vaults')
    .select('field_id')
    .where('company_id', '=', companyId)
    .where('id', '=', vaultId)
    .executeTakeFirst();
  return row?.field_id ?? null;
}

/** `%term%` for LIKE, with the term's own wildcards and escape character taken literally. */
function containsPattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The company's released vaults whose number, customer or order contains the term (any case), newest first. */
export async function findReleasedVaults(
  db: Db,
  companyId: number,
  term: string,
  limit: number,
): Promise<ReleasedVaultDto[]> {
  const pattern = containsPattern(term);
  const contains = (column: string) => sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
  return db
    .selectFrom('vaults as v')
    .innerJoin('customers as c', 'c.id', 'v.customer_id')
    .leftJoin('orders as o', 'o.id', 'v.order_id')
    .select([
      'v.id',
      'v.name',
      'c.name as customer_name',
      'o.name as order_name',
      'v.released_at',
      'v.released_by',
    ])
    .where('v.company_id', '=', companyId)
    .where('v.released_at', 'is not', null)
    .where((eb) => eb.or([contains('v.name'), contains('c.name'), contains('o.name')]))
    .orderBy('v.released_at', 'desc')
    .orderBy('v.id', 'desc')
    .limit(limit)
    .$narrowType<{ released_at: string }>()
    .execute();
}
