// Not useTestApp: the apps run on a database that fails on purpose (a full disk, a stopped server) and log to a stream the test reads.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { environmentWith, loadConfig } from '../config';
import { type DatabaseHandle, isDatabaseUnavailable, openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { recordEvent } from '../events/event-log.repo';
import { buildStagedVault } from '../factories';
import { multipartBody } from './multipart-body';
import { DATABASE_UNREACHABLE, DISK_FULL, databaseFault } from '../http/errors';
import { type SignedIn, type TestContext, signIn, startTestApp } from './test-app';

const postgresConfigured = loadConfig().testPostgresUrl !== undefined;

async function eventually(check: () => Promise<boolean>, what: string, limitMs = 10_000): Promise<void> {
  const until = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`gave up waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('a full disk (SQLite file database with a page limit)', () => {
  let database: DatabaseHandle;
  let app: FastifyInstance;
  let dir: string;
  const logs: string[] = [];
  let ctx: TestContext;
  let user: SignedIn;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wm-full-'));
    database = openDatabase({ kind: 'sqlite', file: path.join(dir, 'full.db') });
    await migrateToLatest(database.db);
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        logs.push(String(chunk));
        done();
      },
    });
    const config = loadConfig(environmentWith({ LOGIN_RATE_LIMIT: '1000', LOG_LEVEL: 'warn' }));
    app = await buildApp({ config, database, logStream });
    await app.ready();
    ctx = { app, database, engine: 'sqlite', close: async () => undefined };
    user = await signIn(ctx);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const upload = (vaultId: number, bytes: number) =>
    user.request({
      method: 'POST',
      url: '/api/vaults/upload',
      ...multipartBody(
        { vault_id: vaultId },
        {
          attachment: {
            fileName: 'scan.pdf',
            contentType: 'application/pdf',
            content: Buffer.alloc(bytes, 7),
          },
        },
      ),
    });
  const attachmentsOf = (vaultId: number) =>
    database.db.selectFrom('attachments').select('id').where('vault_id', '=', vaultId).execute();

  it('answers 507 in words, logs the real SQLITE_FULL, saves nothing, and the health check reports failing writes', async () => {
    const vault = await buildStagedVault(database.db, { companyId: user.companyId });
    const sqlite = database.sqlite!;
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);

    // the database may not grow by a single page: a genuine SQLITE_FULL for any write that needs room
    const pages = sqlite.pragma('page_count', { simple: true }) as number;
    sqlite.pragma(`max_page_count = ${pages}`);
    const refused = await upload(vault.id, 200_000);
    expect(refused.statusCode).toBe(507);
    expect(refused.json()).toEqual({ errors: [DISK_FULL] });
    expect(await attachmentsOf(vault.id)).toEqual([]);

    const log = logs.join('');
    expect(log).toContain('SQLITE_FULL');
    expect(log).not.toContain('cannot rollback');

    const health = await app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(503);
    expect(health.json()).toMatchObject({ status: 'degraded', writes: 'failing', reason: 'disk full' });
    // reading still works
    expect((await user.request({ method: 'GET', url: `/api/vaults/${vault.id}` })).statusCode).toBe(200);

    // a statement after which SQLite rolls the whole transaction back itself: the error stays SQLITE_FULL rather than
    // becoming the failed ROLLBACK that follows
    let failure: unknown;
    try {
      await database.db.transaction().execute(async (trx) => {
        await recordEvent(trx, {
          companyId: user.companyId,
          userId: user.userId,
          kind: 'vault.noted',
          entityType: 'vault',
          entityId: vault.id,
          payload: { note: 'x'.repeat(200_000) },
        });
      });
    } catch (error) {
      failure = error;
    }
    expect((failure as { code?: string }).code).toBe('SQLITE_FULL');
    expect(databaseFault(failure)?.statusCode).toBe(507);
    expect(sqlite.inTransaction).toBe(false);

    // room again: the same upload goes through
    sqlite.pragma('max_page_count = 1073741823');
    const accepted = await upload(vault.id, 200_000);
    expect(accepted.statusCode).toBe(201);
    expect(await attachmentsOf(vault.id)).toHaveLength(1);
    expect(sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
  });
});

describe.skipIf(!postgresConfigured)('lost PostgreSQL connections', () => {
  let ctx: TestContext;
  let user: SignedIn;
  let port: number;
  beforeAll(async () => {
    ctx = await startTestApp('postgres');
    user = await signIn(ctx);
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    port = (ctx.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await ctx.close();
  });

  /** Ends this app's connections (pooled and LISTEN) from a connection of the test's own, as a restart would. */
  const terminateAppConnections = async () => {
    const admin = new pg.Client({ connectionString: ctx.database.postgresUrl });
    await admin.connect();
    await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity
                       where datname = current_database() and pid <> pg_backend_pid()`);
    await admin.end();
  };
  const listenBackends = async () =>
    (
      await sql<{ pid: number }>`select pid from pg_stat_activity
        where datname = current_database() and query like 'listen %'`.execute(ctx.database.db)
    ).rows.map((r) => r.pid);

  it('a connection dropped while in use fails its query (503) without an unhandled error; the next query gets a fresh connection', async () => {
    let failure: unknown;
    try {
      await ctx.database.db.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx);
        // the server ends this very connection in the middle of the transaction
        await sql`select pg_terminate_backend(pg_backend_pid())`.execute(trx);
      });
    } catch (error) {
      failure = error;
    }
    expect(isDatabaseUnavailable(failure)).toBe(true);
    expect(databaseFault(failure)?.statusCode).toBe(503);
    // an 'error' event nobody listened to would have failed this test run as an unhandled error by now
    await new Promise((r) => setTimeout(r, 100));
    const after = await sql<{ one: number }>`select 1 as one`.execute(ctx.database.db);
    expect(after.rows[0]!.one).toBe(1);
  });

  it('answers 200 or 503, never 500, while its connections are cut, then works again; the LISTEN connection comes back', async () => {
    const vault = await buildStagedVault(ctx.database.db, { companyId: user.companyId });
    const streamEvents: number[] = [];
    const stream = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path: '/api/events', headers: { cookie: user.cookie } }, resolve)
        .on('error', reject);
    });
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      for (const match of chunk.matchAll(/^data: (\{.*\})$/gm)) {
        const event = JSON.parse(match[1]!) as { entityId?: number; kind?: string };
        if (event.kind === 'vault.edited-by-test') streamEvents.push(event.entityId!);
      }
    });
    await eventually(async () => (await listenBackends()).length > 0, 'the feed listens');
    const listenersBefore = await listenBackends();

    const statuses: number[] = [];
    let done = false;
    const readers = Array.from({ length: 4 }, async () => {
      while (!done) {
        const res = await user.request({ method: 'GET', url: `/api/vaults/${vault.id}` });
        statuses.push(res.statusCode);
        if (res.statusCode === 503) expect(res.json()).toEqual({ errors: [DATABASE_UNREACHABLE] });
      }
    });
    await eventually(async () => statuses.length >= 20, 'reads before the cut');
    await terminateAppConnections();
    const cutAt = statuses.length;
    await eventually(async () => statuses.length >= cutAt + 40, 'reads after the cut');
    done = true;
    await Promise.all(readers);
    expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);
    await eventually(
      async () => (await app().inject({ method: 'GET', url: '/api/health' })).statusCode === 200,
      'health 200',
    );

    // a new LISTEN connection, not the one that was cut, and events reach the open stream through it
    await eventually(async () => {
      const now = await listenBackends();
      return now.length > 0 && now.every((pid) => !listenersBefore.includes(pid));
    }, 'a new LISTEN connection');
    await recordEvent(ctx.database.db, {
      companyId: user.companyId,
      userId: user.userId,
      kind: 'vault.edited-by-test',
      entityType: 'vault',
      entityId: vault.id,
    });
    await eventually(async () => streamEvents.includes(vault.id), 'the event on the stream');
    stream.destroy();
  });

  const app = () => ctx.app;
});
