import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LOGIN, seedDemoIfEmpty } from '../db/seed';
import { type TestContext, startTestApp, testEngines } from '../test/test-app';
import { exportCompany, importCompany } from './company-transfer';

describe('company export and import', () => {
  const contexts: TestContext[] = [];
  const open = async (engine: 'sqlite' | 'postgres') => {
    const ctx = await startTestApp(engine);
    contexts.push(ctx);
    return ctx;
  };
  let source: TestContext;

  beforeAll(async () => {
    source = await open('sqlite');
    await seedDemoIfEmpty(source.database.db);
  });
  afterAll(async () => {
    for (const ctx of contexts) await ctx.close();
  });

  it('moves the demo company through every engine and back without changing anything', async () => {
    const original = await exportCompany(source.database.db, DEMO_LOGIN.company);
    expect(original.tables.users).toHaveLength(1);
    expect(JSON.stringify(original)).not.toContain('company_id');

    // SQLite -> (PostgreSQL when available) -> SQLite
    let current = original;
    for (const engine of [...testEngines().filter((e) => e === 'postgres'), 'sqlite' as const]) {
      const target = await open(engine);
      const { rows } = await importCompany(target.database.db, current);
      expect(rows).toBe(Object.values(original.tables).reduce((sum, r) => sum + r.length, 0));
      current = await exportCompany(target.database.db, DEMO_LOGIN.company);
      expect(current).toEqual(original);
    }
  });

  it('the imported users can sign in with their old passwords', async () => {
    const data = await exportCompany(source.database.db, DEMO_LOGIN.company);
    const target = await open('sqlite');
    await importCompany(target.database.db, data);
    const res = await target.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: DEMO_LOGIN.email, password: DEMO_LOGIN.password },
    });
    expect(res.statusCode).toBe(200);
  });

  it('refuses a second import of the same company and changes nothing', async () => {
    const data = await exportCompany(source.database.db, DEMO_LOGIN.company);
    await expect(importCompany(source.database.db, data)).rejects.toThrow(/already exists/);
    const again = await exportCompany(source.database.db, DEMO_LOGIN.company);
    expect(again).toEqual(data);
  });

  it('refuses a file that is not an export', async () => {
    const target = await open('sqlite');
    await expect(importCompany(target.database.db, { hello: 'world' } as never)).rejects.toThrow(
      /not a Warehouse Manager company export/,
    );
  });
});
