import crypto from 'node:crypto';
import type { Kysely } from 'kysely';

type Db = Kysely<{ vaults: { id: number; label_code: string | null } }>;

// Vault labels (issue 15): the QR link /v/{code} names a vault by a random code, not by its id, so a label says nothing
// to an outsider and survives a company's move to another database. Unique within the company, where links resolve.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('vaults').addColumn('label_code', 'text').execute();
  await db.schema
    .createIndex('vaults_label_code_key')
    .on('vaults')
    .columns(['company_id', 'label_code'])
    .unique()
    .execute();
  const vaults = db as unknown as Db;
  for (;;) {
    const page = await vaults
      .selectFrom('vaults')
      .select('id')
      .where('label_code', 'is', null)
      .limit(500)
      .execute();
    if (page.length === 0) break;
    for (const { id } of page)
      await vaults
        .updateTable('vaults')
        .set({ label_code: crypto.randomBytes(12).toString('base64url') })
        .where('id', '=', id)
        .execute();
  }
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
