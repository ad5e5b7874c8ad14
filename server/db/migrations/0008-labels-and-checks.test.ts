// Not useTestApp: the test migrates a raw database step by step (openUnmigratedDatabase); an app would migrate it at once.
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openUnmigratedDatabase, testEngines } from '../../test/test-app';
import type { DatabaseHandle } from '../database';
import { buildAccount } from '../../factories';
import { migrateToLatest } from '../migrate';

// Vaults that exist before the migration get a label code of their own, on both engines.
describe.each(testEngines())('migration 0008 (vault label codes) on %s', (engine) => {
  let database: DatabaseHandle;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ database, close } = await openUnmigratedDatabase(engine));
  });
  afterAll(async () => {
    await close();
  });

  it('gives every existing vault a distinct random code, unique within its company', async () => {
    await migrateToLatest(database.db, '0005-warehouse-stats-and-revisions');
    const account = await buildAccount(database.db, { password: 'granite-otter-lantern-41' });
    const now = new Date().toISOString();
    const customer = await database.db
      .insertInto('customers')
      .values({ company_id: account.companyId, name: 'OLD CUSTOMER' })
      .returning('id')
      .executeTakeFirstOrThrow();
    // inserted as the schema stood before 0008, without the column
    const before = database.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    await before
      .insertInto('vaults')
      .values(
        Array.from({ length: 600 }, (_, i) => ({
          company_id: account.companyId,
          name: `OLD-${i}`,
          customer_id: customer.id,
          type: 'vault',
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
    await migrateToLatest(database.db);
    const codes = await database.db.selectFrom('vaults').select('label_code').execute();
    expect(codes).toHaveLength(600);
    for (const { label_code } of codes) expect(label_code).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(new Set(codes.map((c) => c.label_code)).size).toBe(600);
    const duplicate = database.db
      .updateTable('vaults')
      .set({ label_code: codes[0]!.label_code })
      .where('label_code', '=', codes[1]!.label_code)
      .execute();
    await expect(duplicate).rejects.toThrow();
  });
});
