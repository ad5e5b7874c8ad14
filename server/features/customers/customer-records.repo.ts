import { type Db, nowIso } from '../../db/database';

/** The company's customers with their units in storage and their last portal sign-in, by name. */
export async function listCustomerRecords(db: Db, companyId: number) {
  return db
    .selectFrom('customers')
    .select((eb) => [
      'customers.id',
      'customers.name',
      'customers.email',
      eb
        .selectFrom('vaults')
        .select((v) => v.fn.countAll<number | string>().as('n'))
        .whereRef('vaults.customer_id', '=', 'customers.id')
        .where('vaults.released_at', 'is', null)
        .as('units'),
      eb
        .selectFrom('portal_links')
        .select((l) => l.fn.max('portal_links.used_at').as('at'))
        .whereRef('portal_links.customer_id', '=', 'customers.id')
        .as('last_portal_sign_in_at'),
    ])
    .where('customers.company_id', '=', companyId)
    .orderBy('customers.name')
    .execute();
}

export async function findCustomerRecord(db: Db, companyId: number, id: number) {
  return db
    .selectFrom('customers')
    .select(['id', 'name', 'email'])
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function findCustomerByName(db: Db, companyId: number, name: string) {
  return db
    .selectFrom('customers')
    .select(['id', 'name', 'email'])
    .where('company_id', '=', companyId)
    .where('name', '=', name)
    .executeTakeFirst();
}

export async function insertCustomerRecord(
  db: Db,
  companyId: number,
  input: { name: string; email: string },
) {
  const row = await db
    .insertInto('customers')
    .values({ company_id: companyId, name: input.name, email: input.email })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function updateCustomerRecord(
  db: Db,
  companyId: number,
  id: number,
  values: { name?: string; email?: string },
) {
  await db
    .updateTable('customers')
    .set(values)
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .execute();
}

/** A changed address ends the customer's portal sessions: the portal belongs to whoever holds the new one. */
export async function endPortalSessionsOf(db: Db, companyId: number, customerId: number) {
  await db
    .deleteFrom('portal_sessions')
    .where('company_id', '=', companyId)
    .where('customer_id', '=', customerId)
    .execute();
  await db
    .updateTable('portal_links')
    .set({ used_at: nowIso() })
    .where('company_id', '=', companyId)
    .where('customer_id', '=', customerId)
    .where('used_at', 'is', null)
    .execute();
}
