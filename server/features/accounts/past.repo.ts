import type { Db } from '../../db/database';

// Only the demo company's seeding writes this (decision 052): its accounts are opened as any are, then dated to the
// day their units came in, so an account's history does not start after its first invoice.

/** Dates the opening of the company's account `accountId`, and its history's "opened" line, to `at`. */
export async function setAccountOpened(
  db: Db,
  companyId: number,
  accountId: number,
  at: string,
): Promise<void> {
  await db
    .updateTable('storage_accounts')
    .set({ created_at: at })
    .where('company_id', '=', companyId)
    .where('id', '=', accountId)
    .execute();
  await db
    .updateTable('storage_account_history')
    .set({ created_at: at })
    .where('company_id', '=', companyId)
    .where('account_id', '=', accountId)
    .where('kind', '=', 'created')
    .execute();
}
