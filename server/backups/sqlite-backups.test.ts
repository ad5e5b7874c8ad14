// Not useTestApp: the app runs on a SQLite file on disk (backups copy it, restores replace it), not useTestApp's in-memory database.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BackupsDto } from '@domain/schemas/backup.schema';
import { buildApp } from '../app';
import { listBackups } from './backup-files';
import { restoreDatabase } from './restore';
import { environmentWith, loadConfig } from '../config';
import { type DatabaseHandle, openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { DEMO_LOGIN, seedDemoIfEmpty } from '../demo-seed';
import { buildAccount } from '../factories';
import { sqliteFileRows } from '../test/sqlite-file-rows.repo';
import { type SignedIn, type TestContext, signIn } from '../test/test-app';

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run cli -- restore --from FILE` as a real process, on the given database file. */
function runRestore(databaseFile: string, from: string): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli.ts', 'restore', '--from', from], {
      env: environmentWith({ DATABASE_URL: `sqlite:${databaseFile}` }),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** a test that starts the command line (tsx compiles it first): seconds each, more on a busy machine */
const CLI_TEST_MS = 180_000;

const sha256 = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

async function until<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  what: string,
  limitMs = 20_000,
): Promise<T> {
  const end = Date.now() + limitMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A request of a signed-in user to the given app (sessions live in the database, so any app on it knows them). */
const as = (user: SignedIn, app: FastifyInstance, options: InjectOptions) =>
  app.inject({ ...options, headers: { ...options.headers, cookie: user.cookie } });

describe('automatic SQLite backups', () => {
  let dir: string;
  let file: string;
  let folder: string;
  let database: DatabaseHandle;
  let app: FastifyInstance;
  let operator: SignedIn;
  let tenant: SignedIn;

  const startApp = async (schedule: string) => {
    app = await buildApp({
      config: loadConfig(environmentWith({ BACKUP_SCHEDULE: schedule, LOGIN_RATE_LIMIT: '1000' })),
      database,
      logger: false,
    });
    await app.ready();
  };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wm-backups-'));
    file = path.join(dir, 'warehouse.db');
    folder = path.join(dir, 'backups');
    database = openDatabase({ kind: 'sqlite', file });
    await migrateToLatest(database.db);
    // the demo company (warehouses, vaults, racks, pallets, history) is the installation's first: its operator
    await seedDemoIfEmpty(database.db);
    // nightly: nothing is backed up during the first test
    await startApp('30 2 * * *');
    const ctx: TestContext = { app, database, engine: 'sqlite', close: async () => undefined };
    const demo = await database.db
      .selectFrom('users')
      .innerJoin('companies', 'companies.id', 'users.company_id')
      .select(['users.id as userId', 'companies.id as companyId', 'companies.name as companyName'])
      .where('users.email', '=', DEMO_LOGIN.email)
      .executeTakeFirstOrThrow();
    operator = await signIn(ctx, { ...demo, email: DEMO_LOGIN.email, password: DEMO_LOGIN.password });
    tenant = await signIn(ctx);
  });

  afterAll(async () => {
    await app.close();
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reports that no backup exists yet, in the health check and to the operator; other companies are told nothing', async () => {
    const health = await app.inject({ method: 'GET', url: '/api/health' });
    expect(health.json()).toEqual({
      status: 'ok',
      database: 'sqlite',
      backups: { automatic: true, lastGood: null, overdue: true },
    });
    const res = await as(operator, app, { method: 'GET', url: '/api/backups' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      automatic: true,
      folder,
      schedule: '30 2 * * *',
      running: false,
      lastGood: null,
      kept: [],
      overdue: true,
      keepDaily: 7,
      keepWeekly: 4,
    });
    expect(new Date((res.json() as { nextRun: string }).nextRun).getHours()).toBe(2);
    for (const method of ['GET', 'POST'] as const) {
      const refused = await as(tenant, app, { method, url: '/api/backups' });
      expect(refused.statusCode).toBe(404);
    }
    expect(fs.existsSync(folder)).toBe(false);
  });

  it(
    'takes checked backups on the schedule, prunes them, and the CLI restores the database they copied, row by row',
    async () => {
      await app.close();
      const original = sqliteFileRows(file);
      const before = Date.now();
      await startApp('* * * * * *');
      const first = await until(() => {
        const good = readLastGood(folder);
        return good && Date.parse(good.takenAt) > before ? good : undefined;
      }, 'a scheduled backup');
      expect(first.bytes).toBeGreaterThan(0);

      const health = (await app.inject({ method: 'GET', url: '/api/health' })).json();
      expect(health.backups).toMatchObject({ automatic: true, overdue: false });
      expect(Date.parse(health.backups.lastGood.takenAt)).toBeGreaterThanOrEqual(Date.parse(first.takenAt));

      await until(() => {
        const good = readLastGood(folder);
        return good && good.file !== first.file ? good : undefined;
      }, 'a second scheduled backup');
      await app.close();
      // nothing wrote since `original` was read, so every backup taken holds it
      expect(sqliteFileRows(file)).toEqual(original);
      const listed = listBackups(folder);
      // retention: the newest backup of each day is kept, the first of today is gone
      expect(listed.map((b) => b.file)).not.toContain(first.file);
      expect(new Set(listed.map((b) => b.takenAt.toDateString())).size).toBe(listed.length);
      expect(fs.readdirSync(folder).filter((name) => name.endsWith('.partial'))).toEqual([]);
      const backup = path.join(folder, readLastGood(folder)!.file);

      // while a server holds the database, restore refuses and changes nothing
      await startApp('off');
      await buildAccount(database.db, { company: 'Written after the backup' });
      const refused = await runRestore(file, backup);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('is in use: stop the server');
      const written = await database.db
        .selectFrom('companies')
        .select('id')
        .where('name', '=', 'Written after the backup')
        .execute();
      expect(written).toHaveLength(1);

      await app.close();
      await database.close();
      const restored = await runRestore(file, backup);
      expect(restored.stderr).toBe('');
      expect(restored.code).toBe(0);
      expect(restored.stdout).toContain('The replaced database is kept at');
      expect(sqliteFileRows(file)).toEqual(original);
      const aside = fs.readdirSync(dir).find((name) => name.startsWith('warehouse.replaced-'));
      expect(aside).toBeDefined();
      const replaced = sqliteFileRows(path.join(dir, aside!));
      expect(replaced.companies).toHaveLength(original.companies!.length + 1);

      database = openDatabase({ kind: 'sqlite', file });
      await startApp('30 2 * * *');
    },
    CLI_TEST_MS,
  );

  it("begins a backup at the operator's request and reports it when done", async () => {
    const before = readLastGood(folder)!;
    const res = await as(operator, app, { method: 'POST', url: '/api/backups' });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({ automatic: true, running: true });
    const again = await as(operator, app, { method: 'POST', url: '/api/backups' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ errors: ['A backup is being taken right now. Wait for it to finish.'] });
    const done = await until(async () => {
      const status = (await as(operator, app, { method: 'GET', url: '/api/backups' })).json() as BackupsDto;
      return status.automatic && !status.running ? status : undefined;
    }, 'the backup to finish');
    if (!done.automatic) throw new Error('backups are off');
    expect(done.lastGood!.file).not.toBe(before.file);
    expect(done.lastFailure).toBeNull();
    expect(done.kept[0]).toEqual(done.lastGood);
    expect(done.overdue).toBe(false);
  });
});

describe('restore refuses a backup that is not sound, and changes nothing', () => {
  let dir: string;
  let file: string;
  let good: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wm-restore-'));
    file = path.join(dir, 'warehouse.db');
    const database = openDatabase({ kind: 'sqlite', file });
    await migrateToLatest(database.db);
    await seedDemoIfEmpty(database.db);
    good = path.join(dir, 'good.db');
    await database.sqlite!.backup(good);
    await database.close();
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** the database file is as it was, and nothing was left beside it */
  const unchanged = (before: string) => {
    expect(sha256(file)).toBe(before);
    const beside = fs
      .readdirSync(dir)
      .filter((name) => name.startsWith('warehouse.') && name !== 'warehouse.db');
    expect(beside).toEqual([]);
  };

  const refusedWith = async (backup: string, message: string) => {
    const before = sha256(file);
    const run = await runRestore(file, backup);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(message);
    expect(run.stderr).toContain('Nothing was changed.');
    unchanged(before);
  };

  const refusedInProcess = (backup: string, message: string) => {
    const before = sha256(file);
    expect(() => restoreDatabase(file, backup)).toThrow(message);
    unchanged(before);
  };

  it(
    'refuses a backup with a damaged page',
    async () => {
      const damaged = path.join(dir, 'damaged.db');
      const bytes = fs.readFileSync(good);
      const pageSize = bytes.readUInt16BE(16);
      // the b-tree page header of the second page: its type byte and cell counts
      bytes.fill(0xa5, pageSize, pageSize + 12);
      fs.writeFileSync(damaged, bytes);
      await refusedWith(damaged, `${damaged} is damaged`);
    },
    CLI_TEST_MS,
  );

  it('refuses a file that is not a SQLite database', async () => {
    const text = path.join(dir, 'notes.db');
    fs.writeFileSync(text, 'these are not the pages of a database\n'.repeat(200));
    refusedInProcess(text, `${text} is not a SQLite database. Nothing was changed.`);
  });

  it('refuses a SQLite database of another program', async () => {
    const other = path.join(dir, 'other.db');
    const db = openDatabase({ kind: 'sqlite', file: other });
    db.sqlite!.exec('create table notes (id integer primary key, body text)');
    await db.close();
    refusedInProcess(other, 'is a SQLite database, but not one of Warehouse Manager.');
  });

  it('refuses a backup that does not exist', async () => {
    refusedInProcess(path.join(dir, 'missing.db'), 'does not exist. Nothing was changed.');
  });
});

function readLastGood(folder: string): { file: string; takenAt: string; bytes: number } | undefined {
  try {
    const record = JSON.parse(fs.readFileSync(path.join(folder, 'backup-status.json'), 'utf8'));
    return record.lastGood ?? undefined;
  } catch {
    return undefined;
  }
}
