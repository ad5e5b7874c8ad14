import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { environmentWith } from '../config';
import { openDatabase } from '../db/database';
import { buildAccount } from '../factories';
import { migrateToLatest } from '../db/migrate';
import { exportCompany } from './company-transfer';
import { TABLES } from './transfer-format';

const run = promisify(execFile);

/** `npm run cli -- <args>` against a SQLite file, as an operator runs it: exit code and what it printed. */
async function cli(file: string, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'server/cli.ts', ...args], {
      env: environmentWith({ DATABASE_URL: `sqlite:${file}` }),
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

// one run of the real command (starting it costs seconds); the checks themselves are tested in company-transfer.test.ts
describe('import on the command line', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wm-cli-'));
  afterAll(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a planted company id with the numbered problem and exit code 1, and writes nothing', async () => {
    const target = path.join(dir, 'target.db');
    const database = openDatabase({ kind: 'sqlite', file: target });
    await migrateToLatest(database.db);
    const victim = await buildAccount(database.db);
    const attacker = await buildAccount(database.db);
    const planted = await exportCompany(database.db, attacker.companyName);
    planted.company.name = 'Planted';
    planted.tables.users[0] = {
      COMPANY_ID: victim.companyId,
      ...planted.tables.users[0],
      email: 'x@planted.test',
    };
    const file = path.join(dir, 'planted.json');
    fs.writeFileSync(file, JSON.stringify(planted));

    const refused = await cli(target, 'import', '--in', file);
    expect(refused.stderr.trim().split('\n')).toEqual([
      'The file was refused and nothing was written (1 problem):',
      '1. users row 1 (id 1): unknown key "COMPANY_ID" (a users row holds only id, email, username, password_hash, role, active, last_sign_in_at, created_at)',
    ]);
    expect(refused.code).toBe(1);
    const companies = await database.db.selectFrom('companies').select('name').execute();
    expect(companies.map((c) => c.name)).toEqual([victim.companyName, attacker.companyName]);
    await database.close();
  });

  // three runs of the command, seconds each on a busy machine
  it('exports a company file, verifies it whole (exit 0) and a damaged copy row by row (exit 1), without a database', async () => {
    const source = path.join(dir, 'source.db');
    const database = openDatabase({ kind: 'sqlite', file: source });
    await migrateToLatest(database.db);
    const account = await buildAccount(database.db);
    await database.close();
    const file = path.join(dir, 'company.tar');
    const exported = await cli(source, 'export', '--company', account.companyName, '--out', file);
    expect(exported.stdout.trim()).toBe(
      `Exported "${account.companyName}" (1 rows, 0 attachments) to ${file}.`,
    );
    expect(exported.code).toBe(0);
    // a plain tar archive that the system's tar lists, manifest last
    const { stdout: listed } = await run('tar', ['-tf', file]);
    expect(listed.trim().split('\n')).toEqual([
      ...TABLES.map((table) => `tables/${table}.ndjson`),
      'manifest.json',
    ]);

    // verify opens no database: the URL names a folder that does not exist
    const missingDb = path.join(dir, 'no-such-folder', 'none.db');
    const whole = await cli(missingDb, 'verify', '--in', file);
    expect(whole.stdout).toContain(`is a whole company file of "${account.companyName}": 1 rows`);
    expect(whole.code).toBe(0);
    expect(fs.existsSync(path.dirname(missingDb))).toBe(false);

    const data = fs.readFileSync(file);
    const at = data.indexOf('"email":"') + '"email":"'.length;
    data[at] = '"'.charCodeAt(0);
    const damaged = path.join(dir, 'damaged.tar');
    fs.writeFileSync(damaged, data);
    const refused = await cli(missingDb, 'verify', '--in', damaged);
    const lines = refused.stderr.trim().split('\n');
    expect(lines[0]).toBe(`${damaged} is damaged (2 problems):`);
    expect(lines[1]).toBe('tables/users.ndjson line 1: not a JSON object (the line is damaged)');
    expect(lines[2]).toMatch(/^tables\/users\.ndjson: damaged \(its SHA-256 is/);
    expect(refused.code).toBe(1);
  }, 120_000);
});
