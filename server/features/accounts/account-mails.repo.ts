import type { Db } from '../../db/database';
import type { Trx } from '../../db/locks';

// The reads billing mails need (decision 042): who an account's customer is and where to write, and which SIT
// accounts are still waiting for their conversion.

/** The customer (name and address) of each of `accountIds`, with the company's name and locale. */
export async function findAccountRecipients(db: Db | Trx, companyId: number, accountIds: number[]) {
  if (accountIds.length === 0) return [];
  const rows = [];
  for (let i = 0; i < accountIds.length; i += 500)
    rows.push(
      ...(await db
        .selectFrom('storage_accounts')
        .innerJoin('customers', 'customers.id', 'storage_accounts.customer_id')
        .where('storage_accounts.company_id', '=', companyId)
        .where('storage_accounts.id', 'in', accountIds.slice(i, i + 500))
        .select(['storage_accounts.id', 'customers.name as customer_name', 'customers.email'])
        .execute()),
    );
  return rows;
}

/** The orders (names) of each of `accountIds`. */
export async function findOrderNames(db: Db | Trx, companyId: number, accountIds: number[]) {
  const names = new Map<number, string[]>();
  for (let i = 0; i < accountIds.length; i += 500) {
    const rows = await db
      .selectFrom('storage_account_orders as sao')
      .innerJoin('orders', 'orders.id', 'sao.order_id')
      .where('sao.company_id', '=', companyId)
      .where('sao.account_id', 'in', accountIds.slice(i, i + 500))
      .select(['sao.account_id', 'orders.name'])
      .orderBy('orders.name')
      .execute();
    for (const r of rows) names.set(r.account_id, [...(names.get(r.account_id) ?? []), r.name]);
  }
  return names;
}

/** The company's name and locale, as its mails and its invoices' lines write them. */
export async function findCompanyForMail(db: Db | Trx, companyId: number) {
  return db
    .selectFrom('companies')
    .select(['name', 'locale'])
    .where('id', '=', companyId)
    .executeTakeFirstOrThrow();
}

/** The companies that have a SIT account not converted yet (the daily job's notices and conversions). */
export async function findCompaniesWithOpenSit(db: Db): Promise<number[]> {
  const rows = await db
    .selectFrom('storage_accounts')
    .where('kind', '=', 'sit')
    .where('converted_on', 'is', null)
    .where('sit_start', 'is not', null)
    .select('company_id')
    .distinct()
    .orderBy('company_id')
    .execute();
  return rows.map((r) => r.company_id);
}
