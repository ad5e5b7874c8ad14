import { sql } from 'kysely';
import { type Db, isForeignKeyViolation } from '../db/database';
import { isPostgres, type Trx } from '../db/locks';

/**
 * Finds or creates a customer or order by name within the company, in one statement, and holds it until the caller's
 * transaction ends, so another user's clean-up of unused names cannot delete it between finding it and using it.
 *
 * PostgreSQL: an existing name is locked FOR KEY SHARE, which blocks its deletion but not the other writers naming the
 * same customer at the same moment (an upsert's DO UPDATE locked the row exclusively, so twenty people adding vaults
 * of one customer ran one after the other until they committed). Only a new name is inserted; two people adding the
 * same new name meet on the unique key, where the upsert takes over. SQLite runs one writer at a time: a plain upsert.
 */
async function findOrCreateByName(
  db: Db,
  table: 'customers' | 'orders',
  companyId: number,
  name: string,
): Promise<number> {
  if (isPostgres(db)) {
    const { rows } = await sql<{ id: number }>`
      with ${nameCtes(table, companyId, name, 'named')} select ${nameIdOf('named')} as id`.execute(db);
    return rows[0]!.id;
  }
  const row = await db
    .insertInto(table)
    .values({ company_id: companyId, name })
    .onConflict((oc) => oc.columns(['company_id', 'name']).doUpdateSet({ name }))
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * PostgreSQL: the two CTEs of findOrCreateByName's statement, `<as>_found` and `<as>_added`, for a larger statement
 * that names a customer or order (a one-statement vault add, decision 014); `nameIdOf(as)` is the name's id there.
 */
export function nameCtes(table: 'customers' | 'orders', companyId: number, name: string, as: string) {
  const found = sql.ref(`${as}_found`);
  return sql`${found} as (
      select id from ${sql.table(table)} where company_id = ${companyId} and name = ${name} for key share
    ), ${sql.ref(`${as}_added`)} as (
      insert into ${sql.table(table)} (company_id, name)
      select ${companyId}, ${name} where not exists (select 1 from ${found})
      on conflict (company_id, name) do update set name = excluded.name
      returning id
    )`;
}

export function nameIdOf(as: string) {
  return sql<number>`(select id from ${sql.ref(`${as}_found`)} union all select id from ${sql.ref(`${as}_added`)})`;
}

/**
 * PostgreSQL: the CTEs of a one-statement delete of a vault (decision 014) that clean up its customer and order in the
 * terms of `deleteUnusedNames` (no other vault uses the name, nor a pallet the customer, and the customer has no
 * address), once `removed` (the CTE of
 * the delete) has removed it. The statement's snapshot still sees the vault, so it is left out by id.
 */
export function unusedNameCtes(
  p: { companyId: number; vaultId: number; customerId: number; orderId: number },
  removed: string,
) {
  const otherVaults = (column: 'customer_id' | 'order_id', id: number) =>
    sql`not exists (select 1 from vaults where ${sql.ref(column)} = ${id} and id <> ${p.vaultId})`;
  const isRemoved = sql`exists (select 1 from ${sql.table(removed)})`;
  return sql`customer_gone as (
      delete from customers where company_id = ${p.companyId} and id = ${p.customerId} and ${isRemoved}
        and email is null
        and ${otherVaults('customer_id', p.customerId)}
        and not exists (select 1 from pallets where customer_id = ${p.customerId})
    ), order_gone as (
      delete from orders where company_id = ${p.companyId} and id = ${p.orderId} and ${isRemoved}
        and ${otherVaults('order_id', p.orderId)}
    )`;
}

/**
 * Runs a clean-up of unused names inside the caller's transaction. When another transaction has just started using
 * a name (PostgreSQL runs them side by side), the delete hits the foreign key: the name is in use again, so it stays.
 */
async function deleteIfStillUnused(db: Trx, remove: () => Promise<unknown>): Promise<void> {
  await sql`savepoint unused_names`.execute(db);
  try {
    await remove();
  } catch (error) {
    if (!isForeignKeyViolation(error)) throw error;
    await sql`rollback to savepoint unused_names`.execute(db);
  }
  await sql`release savepoint unused_names`.execute(db);
}

export const findOrCreateCustomer = (db: Db, companyId: number, name: string) =>
  findOrCreateByName(db, 'customers', companyId, name);

export const findOrCreateOrder = (db: Db, companyId: number, name: string) =>
  findOrCreateByName(db, 'orders', companyId, name);

/**
 * The clean-up after a vault write in one savepoint: customers, then orders. Only when another writer has just
 * taken one of the names up again (a foreign-key refusal, rare) is it redone one table at a time, so the name
 * that is free still goes.
 */
export async function deleteUnusedNames(
  db: Trx,
  companyId: number,
  customerIds: number[],
  orderIds: number[],
): Promise<void> {
  await sql`savepoint unused_names`.execute(db);
  try {
    if (customerIds.length > 0) await unusedCustomers(db, companyId, customerIds).execute();
    if (orderIds.length > 0) await unusedOrders(db, companyId, orderIds).execute();
  } catch (error) {
    if (!isForeignKeyViolation(error)) throw error;
    await sql`rollback to savepoint unused_names`.execute(db);
    await sql`release savepoint unused_names`.execute(db);
    await deleteUnusedCustomers(db, companyId, customerIds);
    await deleteUnusedOrders(db, companyId, orderIds);
    return;
  }
  await sql`release savepoint unused_names`.execute(db);
}

function unusedCustomers(db: Trx, companyId: number, customerIds?: number[]) {
  const query = db
    .deleteFrom('customers')
    .where('company_id', '=', companyId)
    // a customer with an address is a record the office keeps (issue 29), used by vaults or not
    .where('email', 'is', null)
    .where((eb) =>
      eb.and([
        eb.not(
          eb.exists(
            eb.selectFrom('vaults').select('vaults.id').whereRef('vaults.customer_id', '=', 'customers.id'),
          ),
        ),
        eb.not(
          eb.exists(
            eb
              .selectFrom('pallets')
              .select('pallets.id')
              .whereRef('pallets.customer_id', '=', 'customers.id'),
          ),
        ),
      ]),
    );
  return customerIds ? query.where('id', 'in', customerIds) : query;
}

function unusedOrders(db: Trx, companyId: number, orderIds?: number[]) {
  const query = db
    .deleteFrom('orders')
    .where('company_id', '=', companyId)
    .where((eb) =>
      eb.and([
        eb.not(
          eb.exists(
            eb.selectFrom('vaults').select('vaults.id').whereRef('vaults.order_id', '=', 'orders.id'),
          ),
        ),
        // a pallet's order, and the order of a pallet gone but still to be billed (decision 051), stay too
        eb.not(
          eb.exists(
            eb.selectFrom('pallets').select('pallets.id').whereRef('pallets.order_id', '=', 'orders.id'),
          ),
        ),
        eb.not(
          eb.exists(
            eb.selectFrom('pallet_departures as d').select('d.id').whereRef('d.order_id', '=', 'orders.id'),
          ),
        ),
      ]),
    );
  return orderIds ? query.where('id', 'in', orderIds) : query;
}

/** Removes the given customers when no vault or pallet refers to them any more; call it inside a transaction. */
export async function deleteUnusedCustomers(
  db: Trx,
  companyId: number,
  customerIds?: number[],
): Promise<void> {
  if (customerIds && customerIds.length === 0) return;
  await deleteIfStillUnused(db, () => unusedCustomers(db, companyId, customerIds).execute());
}

/** Removes the given orders when no vault or pallet (nor a pallet's departure) refers to them any more; call it inside a transaction. */
export async function deleteUnusedOrders(db: Trx, companyId: number, orderIds?: number[]): Promise<void> {
  if (orderIds && orderIds.length === 0) return;
  await deleteIfStillUnused(db, () => unusedOrders(db, companyId, orderIds).execute());
}
