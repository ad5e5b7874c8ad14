// Not useTestApp: the test migrates a raw database step by step (openUnmigratedDatabase); an app would migrate it at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openUnmigratedDatabase, testEngines } from '../../test/test-app';
import type { DatabaseHandle } from '../database';
import { buildAccount } from '../../factories';
import { migrateToLatest } from '../migrate';

// Checklists that exist before the migration get a key of their own, on both engines.
describe.each(testEngines())('migration 0003 (checklist link keys) on %s', (engine) => {
  let database: DatabaseHandle;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ database, close } = await openUnmigratedDatabase(engine));
  });
  afterAll(async () => {
    await close();
  });

  it('gives every existing checklist a distinct key of 144 bits', async () => {
    await migrateToLatest(database.db, '0002-lookup-indexes');
    const account = await buildAccount(database.db, { password: 'granite-otter-lantern-41' });
    const now = new Date().toISOString();
    const warehouses = await database.db
      .insertInto('warehouses')
      .values(
        ['One', 'Two'].map((name) => ({
          company_id: account.companyId,
          name,
          slug: name.toLowerCase(),
          rows: 1,
          cols: 1,
          field_capacity: 3,
          length: 10,
          width: 10,
          grid_x: 0,
          grid_y: 0,
          created_at: now,
        })),
      )
      .returning('id')
      .execute();
    // the table as 0002 left it: no link_key column yet
    for (const w of warehouses)
      await database.db
        .insertInto('checklists')
        .values({
          company_id: account.companyId,
          warehouse_id: w.id,
          description: '',
          is_active: 1,
          created_at: now,
        } as never)
        .execute();

    await migrateToLatest(database.db);
    const keys = (await database.db.selectFrom('checklists').select('link_key').execute()).map(
      (r) => r.link_key,
    );
    expect(keys).toHaveLength(2);
    for (const key of keys) expect(Buffer.from(key!, 'base64url')).toHaveLength(18);
    expect(new Set(keys).size).toBe(2);
  });
});
