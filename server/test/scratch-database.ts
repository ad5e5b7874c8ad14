import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type DatabaseTarget, databaseTargetFromUrl, loadConfig } from '../config';
import type { Engine } from '../db/database';

/**
 * An empty database of `engine` that server processes started by a test can share (an SQLite file in a new temporary
 * folder, or a new PostgreSQL database on the test server), by its DATABASE_URL and as a target to open it in the
 * test itself; `drop` removes it. For tests that run the server as separate processes, which `useTestApp` does not.
 */
export async function scratchDatabase(
  engine: Engine,
  label: string,
): Promise<{ url: string; target: DatabaseTarget; drop: () => Promise<void> }> {
  if (engine === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `wm-${label}-`));
    const url = `sqlite:${path.join(dir, `${label}.db`)}`;
    return {
      url,
      target: databaseTargetFromUrl(url),
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const admin = loadConfig().testPostgresUrl!;
  const name = `wm_${label}_${crypto.randomBytes(5).toString('hex')}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    await client.query(statement);
    await client.end();
  };
  await run(`create database ${name}`);
  const address = new URL(admin);
  address.pathname = `/${name}`;
  const url = address.toString();
  return {
    url,
    target: databaseTargetFromUrl(url),
    drop: () => run(`drop database if exists ${name} with (force)`),
  };
}
