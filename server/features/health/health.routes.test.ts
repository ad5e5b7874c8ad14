import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { environmentWith, loadConfig } from '../../config';
import { POSTGRES_BACKUPS } from '../../backups/sqlite-backups';
import { type DatabaseHandle, openDatabase } from '../../db/database';
import { DATABASE_UNREACHABLE } from '../../http/errors';
import { freePort } from '../../test/server-process';
import { testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';

describe.each(testEngines())('GET /api/health on %s', (engine) => {
  const { ctx } = useTestApp(engine, { users: 0 });

  it('answers 200 while the database answers and nothing failed', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    // the test app's database is in memory on SQLite: neither engine takes automatic backups here
    expect(body).toMatchObject({
      status: 'ok',
      database: engine,
      backups: {
        automatic: false,
        reason: engine === 'postgres' ? POSTGRES_BACKUPS : 'An in-memory database is not backed up.',
      },
    });
    if (engine === 'postgres') {
      // the node written to and the replication state (decision 034): one server here, so no standby
      expect(body.writesTo).toMatch(/^[^:]+:\d+$/);
      expect(body.replication).toEqual({ synchronous: false, standbys: 0 });
    } else {
      expect(Object.keys(body).sort()).toEqual(['backups', 'database', 'status']);
    }
  });
});

describe('a PostgreSQL server that is not there', () => {
  let database: DatabaseHandle;
  let app: Awaited<ReturnType<typeof buildApp>>;
  beforeAll(async () => {
    // a port nobody listens on: every connection attempt is refused, as while the database is down
    database = openDatabase({ kind: 'postgres', url: `postgres://wm@127.0.0.1:${await freePort()}/wm` });
    app = await buildApp({ config: loadConfig(environmentWith({})), database, logger: false });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('makes the health check answer 503 in words', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      status: 'unavailable',
      database: 'postgres',
      errors: [DATABASE_UNREACHABLE],
    });
  });

  it('answers requests 503 with the readable message, not 500', async () => {
    const signIn = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'someone@example.com', password: 'a password of some length' },
    });
    expect(signIn.statusCode).toBe(503);
    expect(signIn.json()).toEqual({ errors: [DATABASE_UNREACHABLE] });
    const withSession = await app.inject({
      method: 'GET',
      url: '/api/warehouses',
      headers: { cookie: 'wm_session=abcdef' },
    });
    expect(withSession.statusCode).toBe(503);
    expect(withSession.json()).toEqual({ errors: [DATABASE_UNREACHABLE] });
  });
});
