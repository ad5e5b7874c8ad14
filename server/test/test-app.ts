import crypto from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { buildApp } from '../app';
import { environmentWith, loadConfig } from '../config';
import { type DatabaseHandle, type Engine, openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { type BuiltAccount, buildAccount } from '../factories';

/** The engines the API tests run on: SQLite always, PostgreSQL when TEST_POSTGRES_URL names a server. */
export function testEngines(): Engine[] {
  return loadConfig().testPostgresUrl ? ['sqlite', 'postgres'] : ['sqlite'];
}

async function freshPostgres(adminUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `wm_test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

export interface TestContext {
  app: FastifyInstance;
  database: DatabaseHandle;
  engine: Engine;
  close(): Promise<void>;
}

/**
 * The test apps open now, each with the stack problems already reported for it. `stack-check.setup.ts` checks the
 * stacks of every one of them after each API test, whichever helper started the app; `ignoreStacks` leaves one out
 * (for the few tests that break stacks on purpose).
 */
export const openTestApps = new Map<TestContext, { known: Set<string>; check: boolean }>();

/** Leaves this app out of the stack check after each test. */
export function ignoreStacks(ctx: TestContext): void {
  const entry = openTestApps.get(ctx);
  if (entry) entry.check = false;
}

/** The real app on a new, empty, migrated database of the given engine. */
export async function startTestApp(engine: Engine, env: Record<string, string> = {}): Promise<TestContext> {
  // the webhook worker has no timer in tests: they tick it themselves (decision 044)
  const config = loadConfig(environmentWith({ LOGIN_RATE_LIMIT: '1000', WEBHOOK_POLL_SECONDS: '0', ...env }));
  let dropDatabase = async () => {};
  let database: DatabaseHandle;
  if (engine === 'postgres') {
    const pgDb = await freshPostgres(config.testPostgresUrl!);
    dropDatabase = pgDb.drop;
    database = openDatabase({ kind: 'postgres', url: pgDb.url });
  } else {
    database = openDatabase({ kind: 'sqlite', file: ':memory:' });
  }
  await migrateToLatest(database.db);
  const app = await buildApp({ config, database, logger: false });
  await app.ready();
  const ctx: TestContext = {
    app,
    database,
    engine,
    async close() {
      openTestApps.delete(ctx);
      await app.close();
      await database.close();
      await dropDatabase();
    },
  };
  openTestApps.set(ctx, { known: new Set(), check: true });
  return ctx;
}

/** An empty database without an app or any migration, for a test that migrates it step by step. */
export async function openUnmigratedDatabase(
  engine: Engine,
): Promise<{ database: DatabaseHandle; close: () => Promise<void> }> {
  if (engine === 'sqlite') {
    const database = openDatabase({ kind: 'sqlite', file: ':memory:' });
    return { database, close: () => database.close() };
  }
  const pgDb = await freshPostgres(loadConfig().testPostgresUrl!);
  const database = openDatabase({ kind: 'postgres', url: pgDb.url });
  return {
    database,
    async close() {
      await database.close();
      await pgDb.drop();
    },
  };
}

/** A signed-in user of a new company, with a helper that sends requests carrying the session cookie. */
export interface SignedIn extends BuiltAccount {
  cookie: string;
  request(options: InjectOptions): Promise<LightMyRequestResponse>;
}

export async function signIn(ctx: TestContext, account?: BuiltAccount): Promise<SignedIn> {
  const acc = account ?? (await buildAccount(ctx.database.db));
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: acc.email, password: acc.password },
  });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
  const setCookie = res.cookies.find((c) => c.name === 'wm_session');
  if (!setCookie) throw new Error('no session cookie');
  const cookie = `wm_session=${setCookie.value}`;
  return {
    ...acc,
    cookie,
    request: (options) => ctx.app.inject({ ...options, headers: { ...options.headers, cookie } }),
  };
}
