// Not useTestApp: the server runs as a separate process on a database the test migrates first.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import type { Engine } from '../db/database';
import { openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { DEMO_LOGIN, seedDemoIfEmpty } from '../demo-seed';
import { describeLoadDay, runLoadDay } from './load-day';
import { type RunningServer, startServer } from './server-process';
import { testEngines } from './test-app';

// the short variants for every run; `npx tsx bench/load-day.ts` runs the long one (60 s) on both engines
const DAY: Record<Engine, { users: number; durationMs: number }> = {
  sqlite: { users: 50, durationMs: 10_000 },
  // PostgreSQL runs writers side by side, where races really happen; a shorter day keeps the suite quick
  postgres: { users: 30, durationMs: 6_000 },
};

async function seededDatabase(engine: Engine): Promise<{ url: string; drop: () => Promise<void> }> {
  let url: string;
  let drop = async () => {};
  if (engine === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wm-load-'));
    url = `sqlite:${path.join(dir, 'load.db')}`;
    drop = async () => fs.rmSync(dir, { recursive: true, force: true });
  } else {
    const admin = loadConfig().testPostgresUrl!;
    const name = `wm_load_${crypto.randomBytes(5).toString('hex')}`;
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    await client.query(`create database ${name}`);
    await client.end();
    const target = new URL(admin);
    target.pathname = `/${name}`;
    url = target.toString();
    drop = async () => {
      const dropper = new pg.Client({ connectionString: admin });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    };
  }
  const setup = openDatabase(
    url.startsWith('sqlite:')
      ? { kind: 'sqlite', file: url.slice('sqlite:'.length) }
      : { kind: 'postgres', url },
  );
  await migrateToLatest(setup.db);
  await seedDemoIfEmpty(setup.db);
  await setup.close();
  return { url, drop };
}

describe.each(testEngines())('a busy day on %s', (engine) => {
  const { users, durationMs } = DAY[engine];
  let server: RunningServer | undefined;
  let drop = async () => {};
  afterAll(async () => {
    await server?.stop();
    await drop();
  });

  it(`${users} people of one company work ${durationMs / 1000} s without a server error, a lost or a duplicated vault`, async () => {
    const database = await seededDatabase(engine);
    drop = database.drop;
    server = await startServer(database.url);

    const report = await runLoadDay({
      baseUrl: server.baseUrl,
      email: DEMO_LOGIN.email,
      password: DEMO_LOGIN.password,
      users,
      durationMs,
    });
    console.info(describeLoadDay(`load day on ${engine}`, report));

    expect(report.serverErrors).toEqual([]);
    expect(report.networkErrors).toEqual([]);
    expect(report.unexpected).toEqual([]);
    expect(report.integrity).toEqual([]);
    expect(report.vaults.final).toBe(report.vaults.initial + report.vaults.added - report.vaults.deleted);
    // the day did real work, not only reads
    expect(report.vaults.added).toBeGreaterThan(0);
    expect(report.operations['move staged vault']).toBeGreaterThan(0);
    expect(report.pallets.added).toBeGreaterThan(0);
  }, 120_000);
});
