import { describe, expect, it } from 'vitest';
import { POSTGRES_BACKUPS } from '../../backups/sqlite-backups';
import { testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';

// the test app's first company is the installation's operator; its database is in memory on SQLite, so neither
// engine takes automatic backups here (server/backups/sqlite-backups.test.ts runs them on a database file)
describe.each(testEngines())('/api/backups without automatic backups, on %s', (engine) => {
  const { user: operator, other } = useTestApp(engine);
  const reason = engine === 'postgres' ? POSTGRES_BACKUPS : 'An in-memory database is not backed up.';

  it("tells the operator's Manager why there are none", async () => {
    const res = await operator.request({ method: 'GET', url: '/api/backups' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ automatic: false, reason });
  });

  it('refuses Back up now in words, 409', async () => {
    const res = await operator.request({ method: 'POST', url: '/api/backups' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ errors: [reason] });
  });

  it("answers another company's Manager as if there were nothing", async () => {
    for (const method of ['GET', 'POST'] as const) {
      const res = await other.request({ method, url: '/api/backups' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ errors: ['Not found'] });
    }
  });
});
