import type { Db } from '../db/database';
import type { Database } from '../db/schema';

/** Tables whose rows belong to one company. */
export type CompanyTable = {
  [T in keyof Database]: 'company_id' extends keyof Database[T] ? T : never;
}[keyof Database];

/** The one row-count helper of the tests: how many rows of `table` a company has. */
export async function countRows(db: Db, table: CompanyTable, companyId: number): Promise<number> {
  const row = await db
    .selectFrom(table as 'warehouses')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', companyId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
