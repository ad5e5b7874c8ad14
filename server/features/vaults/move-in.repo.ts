import type { Db } from '../../db/database';

// A unit's move-in is its row's created_at (the storage accounts read it so). Only the demo company's seeding writes
// it (decision 052): its vaults and pallets are added as any are, then dated to the day they came in.

/** Dates the move-in of the company's vaults or pallets `ids` to `at` (an ISO timestamp). */
export async function setMoveIn(
  db: Db,
  companyId: number,
  table: 'vaults' | 'pallets',
  ids: readonly number[],
  at: string,
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable(table)
    .set({ created_at: at })
    .where('company_id', '=', companyId)
    .where('id', 'in', ids)
    .execute();
}
