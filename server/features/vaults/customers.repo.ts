import type { Db } from '../../db/database';

/**
 * Finds or creates a customer or order by name within the company. The insert skips a name that
 * exists (or that a concurrent writer just created), so two people naming the same customer meet
 * on one row instead of failing.
 */
async function findOrCreateByName(db: Db, table: 'customers' | 'orders', companyId: number, name: string): Promise<number> {
  const existing = await db
    .selectFrom(table)
    .select('id')
    .where('company_id', '=', companyId)
    .where('name', '=', name)
    .executeTakeFirst();
  if (existing) return existing.id;
  await db
    .insertInto(table)
    .values({ company_id: companyId, name })
    .onConflict((oc) => oc.columns(['company_id', 'name']).doNothing())
    .execute();
  const row = await db
    .selectFrom(table)
    .select('id')
    .where('company_id', '=', companyId)
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.id;
}

export const findOrCreateCustomer = (db: Db, companyId: number, name: string) =>
  findOrCreateByName(db, 'customers', companyId, name);

export const findOrCreateOrder = (db: Db, companyId: number, name: string) => findOrCreateByName(db, 'orders', companyId, name);

/** Removes the given customers when no vault or pallet refers to them any more. */
export async function deleteUnusedCustomers(db: Db, companyId: number, customerIds?: number[]): Promise<void> {
  if (customerIds && customerIds.length === 0) return;
  let query = db
    .deleteFrom('customers')
    .where('company_id', '=', companyId)
    .where((eb) =>
      eb.and([
        eb.not(eb.exists(eb.selectFrom('vaults').select('vaults.id').whereRef('vaults.customer_id', '=', 'customers.id'))),
        eb.not(eb.exists(eb.selectFrom('pallets').select('pallets.id').whereRef('pallets.customer_id', '=', 'customers.id'))),
      ]),
    );
  if (customerIds) query = query.where('id', 'in', customerIds);
  await query.execute();
}

/** Removes the given orders when no vault refers to them any more. */
export async function deleteUnusedOrders(db: Db, companyId: number, orderIds?: number[]): Promise<void> {
  if (orderIds && orderIds.length === 0) return;
  let query = db
    .deleteFrom('orders')
    .where('company_id', '=', companyId)
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom('vaults').select('vaults.id').whereRef('vaults.order_id', '=', 'orders.id'))),
    );
  if (orderIds) query = query.where('id', 'in', orderIds);
  await query.execute();
}
