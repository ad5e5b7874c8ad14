import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { environmentWith, listenHost, loadConfig } from '../config';
import { openDatabase } from '../db/database';
import { buildAccount } from '../factories';
import { migrateToLatest } from '../db/migrate';
import { DEMO_LOGIN, seedDemoIfEmpty } from '../demo-seed';
import { signIn, startTestApp, testEngines } from '../test/test-app';
import { useTestApp } from '../test/use-test-app';
import { LOGOUT_FROM_ELSEWHERE } from './auth.routes';
import { createAccount, demoPasswordInUse, resetPassword } from './auth.service';
import { PASSWORD_TOO_SHORT, PASSWORD_TOO_WEAK, passwordProblems } from './password-policy';

const DAY = 24 * 3600_000;
const STRONG = 'granite-otter-lantern-41';

describe.each(testEngines())('sessions, logout and passwords on %s', (engine) => {
  const { ctx } = useTestApp(engine, { users: 0 });

  const me = (cookie: string) => ctx.app.inject({ method: 'GET', url: '/api/auth/', headers: { cookie } });
  const sessionsOf = async (userId: number) =>
    ctx.database.db.selectFrom('sessions').selectAll().where('user_id', '=', userId).execute();

  describe('finding 4: a password reset ends every session; sessions have an absolute lifetime', () => {
    it('a reset signs the user out everywhere (other users stay signed in) and clears the failures', async () => {
      const laptop = await signIn(ctx);
      const phone = await signIn(ctx, laptop);
      const colleague = await signIn(ctx);
      expect((await me(laptop.cookie)).statusCode).toBe(200);
      expect((await me(phone.cookie)).statusCode).toBe(200);

      await resetPassword(ctx.database.db, laptop.email, STRONG);
      expect((await me(laptop.cookie)).statusCode).toBe(401);
      expect((await me(phone.cookie)).statusCode).toBe(401);
      expect(await sessionsOf(laptop.userId)).toEqual([]);
      expect((await me(colleague.cookie)).statusCode).toBe(200);
      const again = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: laptop.email, password: STRONG },
      });
      expect(again.statusCode).toBe(200);
    });

    it('a session older than SESSION_MAX_DAYS (30) ends however busy it was', async () => {
      const user = await signIn(ctx);
      const [session] = await sessionsOf(user.userId);
      // created 31 days ago, still within its sliding expiry because it was used all along
      await ctx.database.db
        .updateTable('sessions')
        .set({
          created_at: new Date(Date.now() - 31 * DAY).toISOString(),
          expires_at: new Date(Date.now() + 10 * DAY).toISOString(),
        })
        .where('id', '=', session!.id)
        .execute();
      expect((await me(user.cookie)).statusCode).toBe(401);
    });

    it('the sliding renewal never goes past the absolute lifetime, and refreshes the cookie', async () => {
      const user = await signIn(ctx);
      const [session] = await sessionsOf(user.userId);
      const created = Date.now() - 29 * DAY;
      await ctx.database.db
        .updateTable('sessions')
        .set({
          created_at: new Date(created).toISOString(),
          expires_at: new Date(Date.now() + 3600_000).toISOString(),
        })
        .where('id', '=', session!.id)
        .execute();
      const res = await me(user.cookie);
      expect(res.statusCode).toBe(200);
      const [renewed] = await sessionsOf(user.userId);
      expect(Date.parse(renewed!.expires_at)).toBeGreaterThan(Date.now() + 3600_000);
      expect(Date.parse(renewed!.expires_at)).toBeLessThanOrEqual(created + 30 * DAY);
      const cookie = res.cookies.find((c) => c.name === 'wm_session');
      expect(cookie?.expires?.getTime()).toBe(
        Date.parse(renewed!.expires_at) - (Date.parse(renewed!.expires_at) % 1000),
      );
    });
  });

  describe('finding 8: logout cannot be triggered by another site', () => {
    const logout = (cookie: string, headers: Record<string, string>, method: 'GET' | 'POST' = 'GET') =>
      ctx.app.inject({
        method,
        url: '/api/auth/logout',
        headers: { cookie, host: 'warehouse.example', ...headers },
      });

    it('refuses a top-level navigation from another site (403) and the user stays signed in', async () => {
      const user = await signIn(ctx);
      const fromElsewhere: Record<string, string>[] = [
        { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' },
        { 'sec-fetch-site': 'same-site' },
        { origin: 'https://evil.example' },
        { referer: 'https://evil.example/page' },
      ];
      for (const headers of fromElsewhere) {
        const res = await logout(user.cookie, headers);
        expect(res.statusCode, JSON.stringify(headers)).toBe(403);
        expect(res.json()).toEqual({ errors: [LOGOUT_FROM_ELSEWHERE] });
        expect(res.cookies.find((c) => c.name === 'wm_session')).toBeUndefined();
      }
      expect((await me(user.cookie)).statusCode).toBe(200);
    });

    it('signs out from the app itself (GET or POST), a typed address, or a client without browser headers', async () => {
      for (const [headers, method] of [
        [{ 'sec-fetch-site': 'same-origin' }, 'GET'],
        [{ 'sec-fetch-site': 'none' }, 'GET'],
        [{ referer: 'http://warehouse.example/dashboard' }, 'GET'],
        [{}, 'GET'],
        [{ 'sec-fetch-site': 'same-origin', origin: 'http://warehouse.example' }, 'POST'],
      ] as const) {
        const user = await signIn(ctx);
        const res = await logout(user.cookie, headers, method);
        expect(res.statusCode, JSON.stringify(headers)).toBe(200);
        expect(res.json()).toEqual({ message: 'User logged out' });
        expect((await me(user.cookie)).statusCode).toBe(401);
      }
    });

    it('refuses a cross-site POST logout too', async () => {
      const user = await signIn(ctx);
      const res = await logout(user.cookie, { origin: 'https://evil.example' }, 'POST');
      expect(res.statusCode).toBe(403);
      expect((await me(user.cookie)).statusCode).toBe(200);
    });
  });

  describe('finding 10: housekeeping runs by itself', () => {
    it('deletes expired and too-old sessions and stale sign-in failures when an app starts, and keeps live ones', async () => {
      const db = ctx.database.db;
      const live = await signIn(ctx);
      const expired = await signIn(ctx);
      const ancient = await signIn(ctx);
      await db
        .updateTable('sessions')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('user_id', '=', expired.userId)
        .execute();
      await db
        .updateTable('sessions')
        .set({ created_at: new Date(Date.now() - 40 * DAY).toISOString() })
        .where('user_id', '=', ancient.userId)
        .execute();
      const made = (minutesAgo: number, email: string) => ({
        email,
        ip: '192.0.2.1',
        created_at: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
      });
      // made-up e-mails, as an attacker sends them
      await db
        .insertInto('login_failures')
        .values([
          made(60, 'made-up-1@example.test'),
          made(20, 'made-up-2@example.test'),
          made(1, 'recent@example.test'),
        ])
        .execute();

      // a second app on the same database, as a restart or another server process
      const other = await buildApp({
        config: loadConfig(environmentWith({})),
        database: ctx.database,
        logger: false,
      });
      await other.ready();
      try {
        const failures = async () =>
          (await db.selectFrom('login_failures').select('email').execute()).map((f) => f.email).sort();
        // the sessions go first, then the failures: wait for both
        await expect
          .poll(async () => ({
            sessions: (await sessionsOf(expired.userId)).length + (await sessionsOf(ancient.userId)).length,
            failures: (await failures()).filter((email) => email.startsWith('made-up-')),
          }))
          .toEqual({ sessions: 0, failures: [] });
        expect(await failures()).toContain('recent@example.test');
        expect(await sessionsOf(live.userId)).toHaveLength(1);
      } finally {
        await other.close();
      }
    });
  });

  describe('finding 11: passwords', () => {
    it('refuses short, common and guessable passwords with a clear message wherever one is set', async () => {
      expect(passwordProblems('12345678')).toEqual([PASSWORD_TOO_SHORT]);
      for (const weak of ['password1234', 'qwertyuiop123', '111111111111', 'Warehouse123']) {
        const problems = passwordProblems(weak);
        expect(problems, weak).toHaveLength(1);
        expect(problems[0]).toContain(PASSWORD_TOO_WEAK);
      }
      // the account's own e-mail is no secret
      expect(passwordProblems('jordan.mercer@example.test', ['jordan.mercer@example.test'])).not.toEqual([]);
      expect(passwordProblems(STRONG)).toEqual([]);
      expect(passwordProblems(DEMO_LOGIN.password)).toEqual([]);

      const account = await buildAccount(ctx.database.db);
      for (const weak of ['12345678', 'password1234']) {
        await expect(
          createAccount(ctx.database.db, {
            company: 'Weak Co',
            email: `weak-${weak}@example.test`,
            password: weak,
          }),
        ).rejects.toMatchObject({ statusCode: 400 });
        await expect(resetPassword(ctx.database.db, account.email, weak)).rejects.toMatchObject({
          statusCode: 400,
        });
      }
      // nothing was created, and the old password still works
      expect(
        await ctx.database.db.selectFrom('users').select('id').where('email', 'like', 'weak-%').execute(),
      ).toEqual([]);
      await signIn(ctx, account);
    });
  });

  describe('the demo account and the listening address', () => {
    it('listens on 127.0.0.1 while the demo password is the published one, unless HOST is set', async () => {
      const fresh = await startTestApp(engine);
      try {
        await seedDemoIfEmpty(fresh.database.db);
        // the demo's history names who did each thing (issue 27): its own member, never "Someone"
        const actors = await fresh.database.db.selectFrom('events').select('actor').distinct().execute();
        expect(actors).toEqual([{ actor: 'demo' }]);
        const config = loadConfig(environmentWith({ HOST: '' }));
        expect(await demoPasswordInUse(fresh.database.db, DEMO_LOGIN)).toBe(true);
        expect(listenHost({ ...config, host: undefined }, true)).toBe('127.0.0.1');
        expect(listenHost({ ...config, host: '0.0.0.0' }, true)).toBe('0.0.0.0');
        await resetPassword(fresh.database.db, DEMO_LOGIN.email, STRONG);
        expect(await demoPasswordInUse(fresh.database.db, DEMO_LOGIN)).toBe(false);
        expect(listenHost({ ...config, host: undefined }, false)).toBe('0.0.0.0');
      } finally {
        await fresh.close();
      }
    });
  });
});

describe('the command line (create-user, reset-password) uses the same password rule', () => {
  const run = promisify(execFile);
  let dir: string;
  let url: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wm-cli-'));
    url = `sqlite:${path.join(dir, 'cli.db')}`;
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const cli = (...args: string[]) =>
    run(process.execPath, ['--import', 'tsx', 'server/cli.ts', ...args], {
      env: environmentWith({ DATABASE_URL: url }),
    }).then(
      (r) => ({ code: 0, out: r.stdout + r.stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
    );

  it('refuses a guessable password, accepts a passphrase, and a reset ends the sessions', async () => {
    const email = 'cli-user@example.test';
    const weak = await cli(
      'create-user',
      '--company',
      'Cli Co',
      '--email',
      email,
      '--password',
      'password1234',
    );
    expect(weak.code).toBe(1);
    expect(weak.out).toContain(PASSWORD_TOO_WEAK);
    const ok = await cli('create-user', '--company', 'Cli Co', '--email', email, '--password', STRONG);
    expect(ok.code, ok.out).toBe(0);

    // a session of that user, then a reset through the command line
    const database = openDatabase({ kind: 'sqlite', file: path.join(dir, 'cli.db') });
    await migrateToLatest(database.db);
    const app = await buildApp({ config: loadConfig(environmentWith({})), database, logger: false });
    try {
      const login = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email, password: STRONG },
      });
      expect(login.statusCode).toBe(200);
      const cookie = `wm_session=${login.cookies.find((c) => c.name === 'wm_session')!.value}`;
      const reset = await cli('reset-password', '--email', email, '--password', 'copper-meadow-violin-87');
      expect(reset.code, reset.out).toBe(0);
      expect(reset.out).toContain('signed out');
      expect((await app.inject({ method: 'GET', url: '/api/auth/', headers: { cookie } })).statusCode).toBe(
        401,
      );
    } finally {
      await app.close();
      await database.close();
    }
  }, 60_000);
});
