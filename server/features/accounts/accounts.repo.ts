import { type Selectable, sql } from 'kysely';
import type { Db } from '../../db/database';
import type { StorageAccountsTable } from '../../db/schema';
import type { Trx } from '../../db/locks';
import { EMPTY_PREFIX } from '@domain/rules/placeholders';

// Issue 28: all SQL of storage accounts. An account's units are the vaults of its orders; move-in and move-out are
// read from the vaults' history (created_at when received, released_at when released).

const notPlaceholder = `${EMPTY_PREFIX}%`;

/** Orders with a vault or a pallet still stored and no account: the "not billed" list. */
export async function findNotBilledOrders(db: Db, companyId: number) {
  const [vaults, pallets] = await Promise.all([
    db
      .selectFrom('vaults')
      .innerJoin('orders', 'orders.id', 'vaults.order_id')
      .innerJoin('customers', 'customers.id', 'vaults.customer_id')
      .leftJoin('storage_account_orders as sao', (join) =>
        join.onRef('sao.order_id', '=', 'vaults.order_id').on('sao.company_id', '=', companyId),
      )
      .where('vaults.company_id', '=', companyId)
      .where('vaults.released_at', 'is', null)
      .where('sao.id', 'is', null)
      .where('customers.name', 'not like', notPlaceholder)
      .groupBy(['orders.id', 'orders.name'])
      .select((eb) => [
        'orders.id as order_id',
        'orders.name as order_name',
        eb.fn.min('vaults.customer_id').as('customer_id'),
        eb.fn.min('customers.name').as('customer_name'),
        eb.fn.countAll<number>().as('units'),
        eb.fn.min('vaults.created_at').as('move_in'),
      ])
      .execute(),
    db
      .selectFrom('pallets')
      .innerJoin('orders', 'orders.id', 'pallets.order_id')
      .innerJoin('customers', 'customers.id', 'pallets.customer_id')
      .leftJoin('storage_account_orders as sao', (join) =>
        join.onRef('sao.order_id', '=', 'pallets.order_id').on('sao.company_id', '=', companyId),
      )
      .where('pallets.company_id', '=', companyId)
      .where('sao.id', 'is', null)
      .groupBy(['orders.id', 'orders.name'])
      .select((eb) => [
        'orders.id as order_id',
        'orders.name as order_name',
        eb.fn.min('pallets.customer_id').as('customer_id'),
        eb.fn.min('customers.name').as('customer_name'),
        eb.fn.countAll<number>().as('units'),
        eb.fn.min('pallets.created_at').as('move_in'),
      ])
      .execute(),
  ]);
  // an order of vaults and pallets is one line: its units added up, its first move-in
  const byOrder = new Map<number, (typeof vaults)[number]>();
  for (const row of [...vaults, ...pallets]) {
    const seen = byOrder.get(row.order_id);
    if (!seen) byOrder.set(row.order_id, { ...row });
    else {
      seen.units = Number(seen.units) + Number(row.units);
      if (String(row.move_in) < String(seen.move_in)) seen.move_in = row.move_in;
    }
  }
  return [...byOrder.values()].sort((a, b) =>
    a.order_name < b.order_name ? -1 : a.order_name > b.order_name ? 1 : 0,
  );
}

/** The customers of the vaults and pallets of `orderIds` (of this company), and which of the orders already have an account. */
export async function findOrdersForAccounts(db: Db | Trx, companyId: number, orderIds: number[]) {
  // one row for each customer of an order's units, vaults and pallets alike; an order without units is one row
  // without a customer (one query: the caller's transaction has one connection)
  const units = db
    .selectFrom('vaults')
    .where('company_id', '=', companyId)
    .where('order_id', 'in', orderIds)
    .select(['order_id', 'customer_id'])
    .union(
      db
        .selectFrom('pallets')
        .where('company_id', '=', companyId)
        .where('order_id', 'in', orderIds)
        .select(['order_id', 'customer_id']),
    );
  return db
    .selectFrom('orders')
    .leftJoin(units.as('u'), 'u.order_id', 'orders.id')
    .leftJoin('customers', 'customers.id', 'u.customer_id')
    .leftJoin('storage_account_orders as sao', 'sao.order_id', 'orders.id')
    .where('orders.company_id', '=', companyId)
    .where('orders.id', 'in', orderIds)
    .select([
      'orders.id as order_id',
      'orders.name as order_name',
      'customers.id as customer_id',
      'customers.name as customer_name',
      'sao.account_id as account_id',
    ])
    .distinct()
    .execute();
}

/** The day the first unit of `orderIds` moved in (a vault or pallet, stored or gone), or null when none has. */
export async function findFirstMoveIn(
  db: Db | Trx,
  companyId: number,
  orderIds: number[],
): Promise<string | null> {
  if (orderIds.length === 0) return null;
  // one query: the caller's transaction has one connection
  const rows = await db
    .selectFrom('vaults')
    .where('company_id', '=', companyId)
    .where('order_id', 'in', orderIds)
    .select((eb) => eb.fn.min('created_at').as('move_in'))
    .unionAll(
      db
        .selectFrom('pallets')
        .where('company_id', '=', companyId)
        .where('order_id', 'in', orderIds)
        .select((eb) => eb.fn.min('created_at').as('move_in')),
    )
    .unionAll(
      db
        .selectFrom('pallet_departures')
        .where('company_id', '=', companyId)
        .where('order_id', 'in', orderIds)
        .select((eb) => eb.fn.min('moved_in_at').as('move_in')),
    )
    .execute();
  const days = rows.filter((r) => r.move_in !== null).map((r) => String(r.move_in).slice(0, 10));
  return days.length === 0 ? null : days.sort()[0]!;
}

/** Which of these order names already have a storage account (the import's account columns). */
export async function findBilledOrderNames(db: Db | Trx, companyId: number, names: string[]) {
  const billed = new Set<string>();
  for (let i = 0; i < names.length; i += 500) {
    const rows = await db
      .selectFrom('orders')
      .innerJoin('storage_account_orders as sao', 'sao.order_id', 'orders.id')
      .where('orders.company_id', '=', companyId)
      .where('orders.name', 'in', names.slice(i, i + 500))
      .select('orders.name')
      .execute();
    for (const r of rows) billed.add(r.name);
  }
  return billed;
}

/** The accounts that bill any of these orders. */
export async function findAccountsOfOrders(trx: Trx, companyId: number, orderIds: number[]) {
  const ids = new Set<number>();
  for (let i = 0; i < orderIds.length; i += 500)
    for (const r of await trx
      .selectFrom('storage_account_orders')
      .where('company_id', '=', companyId)
      .where('order_id', 'in', orderIds.slice(i, i + 500))
      .select('account_id')
      .execute())
      ids.add(r.account_id);
  return [...ids];
}

/** Of these accounts, the ones left without an order, and whether each has invoices or payments. */
export async function findAccountsWithoutOrders(trx: Trx, companyId: number, accountIds: number[]) {
  if (accountIds.length === 0) return [];
  return trx
    .selectFrom('storage_accounts as a')
    .innerJoin('customers', 'customers.id', 'a.customer_id')
    .where('a.company_id', '=', companyId)
    .where('a.id', 'in', accountIds)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb.selectFrom('storage_account_orders as o').select('o.id').whereRef('o.account_id', '=', 'a.id'),
        ),
      ),
    )
    .select((eb) => [
      'a.id',
      'customers.name as customer_name',
      eb
        .or([
          eb.exists(eb.selectFrom('invoices as i').select('i.id').whereRef('i.account_id', '=', 'a.id')),
          eb.exists(eb.selectFrom('payments as p').select('p.id').whereRef('p.account_id', '=', 'a.id')),
        ])
        .as('has_ledger'),
    ])
    .execute();
}

export async function deleteAccounts(trx: Trx, companyId: number, accountIds: number[]) {
  if (accountIds.length > 0)
    await trx
      .deleteFrom('storage_accounts')
      .where('company_id', '=', companyId)
      .where('id', 'in', accountIds)
      .execute();
}

export async function insertAccount(
  trx: Trx,
  values: Omit<Selectable<StorageAccountsTable>, 'id' | 'converted_on' | 'on_hold' | 'version'>,
) {
  const { id } = await trx
    .insertInto('storage_accounts')
    .values(values)
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function insertAccountOrders(
  trx: Trx,
  companyId: number,
  accountId: number,
  orderIds: number[],
) {
  if (orderIds.length === 0) return;
  await trx
    .insertInto('storage_account_orders')
    .values(orderIds.map((order_id) => ({ company_id: companyId, account_id: accountId, order_id })))
    .execute();
}

export async function insertHistory(
  db: Db | Trx,
  rows: {
    company_id: number;
    account_id: number;
    kind: string;
    detail: string;
    created_by: string | null;
    created_at: string;
  }[],
) {
  for (let i = 0; i < rows.length; i += 500)
    await db
      .insertInto('storage_account_history')
      .values(rows.slice(i, i + 500))
      .execute();
}

export const accountColumns = [
  'storage_accounts.id',
  'storage_accounts.customer_id',
  'customers.name as customer_name',
  'storage_accounts.kind',
  'storage_accounts.sit_authorization',
  'storage_accounts.sit_payer',
  'storage_accounts.agency_name',
  'storage_accounts.agency_reference',
  'storage_accounts.sit_start',
  'storage_accounts.sit_days_allowed',
  'storage_accounts.converted_on',
  'storage_accounts.billing_cycle',
  'storage_accounts.bill_to_name',
  'storage_accounts.bill_to_address',
  'storage_accounts.declared_value',
  'storage_accounts.note',
  'storage_accounts.on_hold',
  'storage_accounts.version',
] as const;

export async function findAccounts(db: Db | Trx, companyId: number, accountId?: number) {
  let query = db
    .selectFrom('storage_accounts')
    .innerJoin('customers', 'customers.id', 'storage_accounts.customer_id')
    .where('storage_accounts.company_id', '=', companyId)
    .select(accountColumns)
    .orderBy('customers.name')
    .orderBy('storage_accounts.id');
  if (accountId !== undefined) query = query.where('storage_accounts.id', '=', accountId);
  return query.execute();
}
export type AccountRow = Awaited<ReturnType<typeof findAccounts>>[number];

/** The orders of the company's accounts (or of one). */
export async function findAccountOrders(db: Db | Trx, companyId: number, accountId?: number) {
  let query = db
    .selectFrom('storage_account_orders as sao')
    .innerJoin('orders', 'orders.id', 'sao.order_id')
    .where('sao.company_id', '=', companyId)
    .select(['sao.account_id', 'orders.id', 'orders.name'])
    .orderBy('orders.name');
  if (accountId !== undefined) query = query.where('sao.account_id', '=', accountId);
  return query.execute();
}

/** A unit of an account: a vault, or a pallet (on its shelf or gone), with move-in and move-out. */
export interface AccountUnitRow {
  account_id: number;
  /** the vault's or the pallet's id (the two are numbered apart: `unit` says which) */
  id: number;
  unit: 'vault' | 'pallet';
  name: string | null;
  type: string;
  warehouse_id: number | null;
  created_at: string;
  released_at: string | null;
}

/**
 * Every unit of the company's accounts (or of one): the vaults and pallets of their orders, with move-in and
 * move-out from their history: a vault's creation and release, a pallet's creation and its departure (a pallet leaves
 * by being deleted, which writes the departure, decision 051).
 */
export async function findAccountUnits(
  db: Db | Trx,
  companyId: number,
  accountId?: number,
): Promise<AccountUnitRow[]> {
  let vaults = db
    .selectFrom('storage_account_orders as sao')
    .innerJoin('vaults', (join) => join.onRef('vaults.order_id', '=', 'sao.order_id'))
    .leftJoin('fields', 'fields.id', 'vaults.field_id')
    .where('sao.company_id', '=', companyId)
    .where('vaults.company_id', '=', companyId)
    .select([
      'sao.account_id',
      'vaults.id',
      'vaults.name',
      'vaults.type',
      'fields.warehouse_id',
      'vaults.created_at',
      'vaults.released_at',
    ])
    .orderBy('vaults.id');
  let pallets = db
    .selectFrom('storage_account_orders as sao')
    .innerJoin('pallets as p', (join) => join.onRef('p.order_id', '=', 'sao.order_id'))
    .innerJoin('shelves as s', 's.id', 'p.shelf_id')
    .innerJoin('racks as r', 'r.id', 's.rack_id')
    .where('sao.company_id', '=', companyId)
    .where('p.company_id', '=', companyId)
    .select([
      'sao.account_id',
      'p.id',
      (eb) => eb.fn.coalesce('p.pallet_number', 'p.name').as('name'),
      'r.warehouse_id',
      'p.created_at',
    ])
    .orderBy('p.id');
  let departed = db
    .selectFrom('storage_account_orders as sao')
    .innerJoin('pallet_departures as d', (join) => join.onRef('d.order_id', '=', 'sao.order_id'))
    .where('sao.company_id', '=', companyId)
    .where('d.company_id', '=', companyId)
    .select(['sao.account_id', 'd.pallet_id', 'd.label', 'd.warehouse_id', 'd.moved_in_at', 'd.moved_out_at'])
    .orderBy('d.id');
  if (accountId !== undefined) {
    vaults = vaults.where('sao.account_id', '=', accountId);
    pallets = pallets.where('sao.account_id', '=', accountId);
    departed = departed.where('sao.account_id', '=', accountId);
  }
  const [vaultRows, palletRows, departedRows] = await Promise.all([
    vaults.execute(),
    pallets.execute(),
    departed.execute(),
  ]);
  return [
    ...vaultRows.map((v) => ({ ...v, unit: 'vault' as const })),
    ...palletRows.map((p) => ({
      account_id: p.account_id,
      id: p.id,
      unit: 'pallet' as const,
      name: p.name,
      type: 'pallet',
      warehouse_id: p.warehouse_id,
      created_at: p.created_at,
      released_at: null,
    })),
    ...departedRows.map((d) => ({
      account_id: d.account_id,
      id: d.pallet_id,
      unit: 'pallet' as const,
      name: d.label,
      type: 'pallet',
      warehouse_id: d.warehouse_id,
      created_at: d.moved_in_at,
      released_at: d.moved_out_at,
    })),
  ];
}

/** Each account's balance: issued (not void) invoices and credit notes, less payments. */
export async function findBalances(db: Db | Trx, companyId: number, accountId?: number) {
  let invoices = db
    .selectFrom('invoices')
    .where('company_id', '=', companyId)
    .where('status', 'not in', ['draft', 'void'])
    .groupBy('account_id')
    .select((eb) => ['account_id', eb.fn.sum<number>('total').as('amount')]);
  let payments = db
    .selectFrom('payments')
    .where('company_id', '=', companyId)
    .groupBy('account_id')
    .select((eb) => ['account_id', eb.fn.sum<number>('amount').as('amount')]);
  if (accountId !== undefined) {
    invoices = invoices.where('account_id', '=', accountId);
    payments = payments.where('account_id', '=', accountId);
  }
  const [owed, paid] = await Promise.all([invoices.execute(), payments.execute()]);
  const balances = new Map<number, number>();
  for (const row of owed) balances.set(row.account_id, Number(row.amount));
  for (const row of paid)
    balances.set(row.account_id, (balances.get(row.account_id) ?? 0) - Number(row.amount));
  return balances;
}

export async function findHistory(db: Db, companyId: number, accountId: number) {
  return db
    .selectFrom('storage_account_history')
    .where('company_id', '=', companyId)
    .where('account_id', '=', accountId)
    .select(['id', 'kind', 'detail', 'created_by', 'created_at'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** SIT accounts whose conversion day has come (`today` or earlier) and that are not converted yet. */
export async function findDueConversions(db: Db | Trx, companyId: number) {
  return db
    .selectFrom('storage_accounts')
    .where('company_id', '=', companyId)
    .where('kind', '=', 'sit')
    .where('converted_on', 'is', null)
    .where('sit_start', 'is not', null)
    .select(['id', 'sit_start', 'sit_days_allowed'])
    .execute();
}

/** Makes the SIT accounts among `accountIds` Permanent from `day`; answers the ids it changed (not those already converted). */
export async function markConverted(
  trx: Trx,
  companyId: number,
  accountIds: number[],
  day: string,
): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < accountIds.length; i += 500) {
    const rows = await trx
      .updateTable('storage_accounts')
      .set({ kind: 'permanent', converted_on: day, version: sql`version + 1` })
      .where('company_id', '=', companyId)
      .where('id', 'in', accountIds.slice(i, i + 500))
      .where('kind', '=', 'sit')
      .returning('id')
      .execute();
    ids.push(...rows.map((r) => r.id));
  }
  return ids;
}

export async function updateAccount(
  trx: Trx,
  companyId: number,
  accountId: number,
  version: number,
  changes: Record<string, string | number | null>,
) {
  const result = await trx
    .updateTable('storage_accounts')
    .set({ ...changes, version: sql`version + 1` })
    .where('company_id', '=', companyId)
    .where('id', '=', accountId)
    .where('version', '=', version)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
