// Not useTestApp: the app is built with a trace-level log stream the test reads, which useTestApp does not give.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { type DatabaseHandle, openDatabase } from '../db/database';
import { buildAccount } from '../factories';
import { migrateToLatest } from '../db/migrate';

describe('web security of every answer', () => {
  let database: DatabaseHandle;
  const logs: string[] = [];
  let app: Awaited<ReturnType<typeof buildApp>>;

  beforeAll(async () => {
    database = openDatabase({ kind: 'sqlite', file: ':memory:' });
    await migrateToLatest(database.db);
    const stream = new Writable({
      write(chunk, _encoding, done) {
        logs.push(String(chunk));
        done();
      },
    });
    app = await buildApp({ config: { ...loadConfig(), logLevel: 'trace' }, database, logStream: stream });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('sends a strict Content-Security-Policy and the other security headers', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain('unsafe-eval');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
  });

  it('never writes a password or a session token into the logs', async () => {
    const account = await buildAccount(database.db, { password: 'very-secret-password-9' });
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: account.email, password: account.password },
    });
    expect(res.statusCode).toBe(200);
    const token = res.cookies.find((c) => c.name === 'wm_session')!.value;
    await app.inject({ method: 'GET', url: '/api/auth/', headers: { cookie: `wm_session=${token}` } });
    await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: account.email, password: 'wrong-secret-password-7' },
    });
    const all = logs.join('');
    expect(all).toContain('/api/auth/login');
    expect(all).not.toContain('very-secret-password-9');
    expect(all).not.toContain('wrong-secret-password-7');
    expect(all).not.toContain(token);
  });

  it("never writes a checklist link's key into the logs", async () => {
    const key = 'Zq7secretLinkKey0123456789';
    await app.inject({ method: 'GET', url: `/api/checklists/warehouse/main-a?key=${key}&x=1` });
    await app.inject({
      method: 'GET',
      url: '/api/checklists/warehouse/main-a',
      headers: { 'x-checklist-key': key },
    });
    const all = logs.join('');
    expect(all).toContain('/api/checklists/warehouse/main-a?key=[redacted]&x=1');
    expect(all).not.toContain(key);
  });

  it('answers a write from another site with 403 and changes nothing', async () => {
    const before = await database.db.selectFrom('sessions').select('id').execute();
    const account = await buildAccount(database.db);
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { host: 'warehouse.example', origin: 'https://attacker.example' },
      payload: { email: account.email, password: account.password },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ errors: ['Cross-site request refused.'] });
    expect(await database.db.selectFrom('sessions').select('id').execute()).toHaveLength(before.length);
    const sameSite = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { host: 'warehouse.example', origin: 'https://warehouse.example' },
      payload: { email: account.email, password: account.password },
    });
    expect(sameSite.statusCode).toBe(200);
  });

  it('answers the health check with the engine', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/health' });
    expect(res.json()).toMatchObject({ status: 'ok', database: 'sqlite' });
  });
});
