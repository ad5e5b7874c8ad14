import type { Db } from '../db/database';

/** A company's label codes by vault id: what the QR code on each vault's label must carry. */
export async function labelCodes(db: Db, companyId: number): Promise<Map<number, string>> {
  const rows = await db
    .selectFrom('vaults')
    .select(['id', 'label_code'])
    .where('company_id', '=', companyId)
    .execute();
  return new Map(rows.map((r) => [r.id, r.label_code!]));
}
