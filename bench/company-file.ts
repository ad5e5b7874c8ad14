// npm run bench -- --company-file [--scale=0.1]: the company file at size (issue 25). Generates a company of 100,000
// vaults, 500,000 history events and 20,000 attachments of 100 KB (about 2 GB; --scale multiplies the counts,
// --attachment-kb= sets the size) on SQLite, then moves it SQLite -> PostgreSQL -> SQLite with the company file,
// each export and import in a process of its own so that its peak memory (RSS) is its own. The three files must be
// the same byte for byte: every row and every attachment byte arrived. Prints time and peak RSS of each step.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createAccount } from '../server/auth/auth.service';
import { type DatabaseHandle, nowIso, openDatabase } from '../server/db/database';
import { migrateToLatest } from '../server/db/migrate';
import { systemActor } from '../server/auth/actor';
import { createWarehouse } from '../server/features/warehouses/warehouses.service';
import { exportCompanyFile, importCompanyFile } from '../server/transfer/company-file';
import { insertMany } from './dataset.repo';

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const COMPANY = 'Company File Bench Movers';

function target(url: string) {
  return url.startsWith('sqlite:')
    ? ({ kind: 'sqlite', file: url.slice('sqlite:'.length) } as const)
    : ({ kind: 'postgres', url } as const);
}

/** One step in a process of its own (the bench runs itself with --step=...): prints its time and peak RSS. */
async function step(kind: string, url: string, file: string) {
  const database = openDatabase(target(url));
  await migrateToLatest(database.db);
  const started = performance.now();
  if (kind === 'export') await exportCompanyFile(database.db, COMPANY, fs.createWriteStream(file));
  else await importCompanyFile(database.db, file);
  const ms = performance.now() - started;
  await database.close();
  console.log(JSON.stringify({ ms, maxRssMb: process.resourceUsage().maxRSS / 1024 }));
}

async function generate(
  database: DatabaseHandle,
  counts: { vaults: number; events: number; attachments: number; kb: number },
) {
  const { db } = database;
  const { company, user } = await createAccount(db, {
    company: COMPANY,
    email: 'bench-owner@example.test',
    password: 'orbit-lantern-pebble-42-bench',
  });
  const side = Math.ceil(Math.sqrt(Math.min(counts.vaults, 10_000)));
  const warehouse = await createWarehouse(db, systemActor(company.id), {
    name: 'Bench Yard',
    rows: side,
    cols: side,
    field_capacity: 3,
    length: 500,
    width: 500,
  });
  const fieldIds = Object.values(warehouse.fields).map((f) => f.id);
  const now = nowIso();
  const customers = await insertMany(
    db,
    'customers',
    Array.from({ length: 1000 }, (_, i) => ({ company_id: company.id, name: `BENCH CUSTOMER ${i + 1}` })),
  );
  const orders = await insertMany(
    db,
    'orders',
    Array.from({ length: 1000 }, (_, i) => ({ company_id: company.id, name: `B-ORD-${i + 1}` })),
  );
  const vaultIds: number[] = [];
  for (let from = 0; from < counts.vaults; from += 5000) {
    const rows = Array.from({ length: Math.min(5000, counts.vaults - from) }, (_, k) => {
      const i = from + k;
      // one vault in slot 1 of each field, the rest on the stage
      const fieldId = i < fieldIds.length ? fieldIds[i]! : null;
      return {
        company_id: company.id,
        name: `BV-${i + 1}`,
        customer_id: customers[i % customers.length]!,
        order_id: orders[i % orders.length]!,
        field_id: fieldId,
        position: fieldId === null ? null : 1,
        type: 'vault',
        note: i % 7 === 0 ? `note ${i}` : null,
        version: 1,
        created_at: now,
        updated_at: now,
        label_code: `BENCH${String(i).padStart(11, '0')}`,
      };
    });
    vaultIds.push(...(await insertMany(db, 'vaults', rows)));
  }
  for (let from = 0; from < counts.attachments; from += 20) {
    const rows = Array.from({ length: Math.min(20, counts.attachments - from) }, (_, k) => {
      const content = crypto.randomBytes(counts.kb * 1024);
      return {
        company_id: company.id,
        vault_id: vaultIds[(from + k) % vaultIds.length]!,
        file_name: `scan-${from + k + 1}.pdf`,
        content_type: 'application/pdf',
        size: content.length,
        content,
        created_at: now,
      };
    });
    await insertMany(db, 'attachments', rows);
  }
  for (let from = 0; from < counts.events; from += 10_000) {
    const rows = Array.from({ length: Math.min(10_000, counts.events - from) }, (_, k) => {
      const i = from + k;
      return {
        company_id: company.id,
        user_id: user.id,
        actor: 'Bench Owner',
        kind: 'vault.moved',
        entity_type: 'vault',
        entity_id: vaultIds[i % vaultIds.length]!,
        warehouse_id: warehouse.id,
        payload: JSON.stringify({ from: 'A1', to: 'B2', n: i }),
        subject: `BV-${(i % vaultIds.length) + 1}`,
        customer: 'BENCH CUSTOMER',
        warehouse_name: 'Bench Yard',
        created_at: now,
      };
    });
    await insertMany(db, 'events', rows);
  }
}

function runStep(kind: 'export' | 'import', url: string, file: string) {
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', 'bench/company-file.ts', `--step=${kind}`, `--url=${url}`, `--file=${file}`],
    { encoding: 'utf8', maxBuffer: 1024 * 1024 * 16 },
  );
  return JSON.parse(out.trim().split('\n').at(-1)!) as { ms: number; maxRssMb: number };
}

const sha256 = async (file: string) => {
  const hash = crypto.createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
};

export async function runCompanyFileBench() {
  const scale = Number(arg('scale') ?? 1);
  const counts = {
    vaults: Math.round(100_000 * scale),
    events: Math.round(500_000 * scale),
    attachments: Math.round(20_000 * scale),
    kb: Number(arg('attachment-kb') ?? 100),
  };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wm-company-file-bench-'));
  let stopPostgres = () => {};
  try {
    let pgAdmin = process.env.BENCH_POSTGRES_URL;
    if (!pgAdmin) {
      const [url, pgDir] = execFileSync('bash', ['scripts/postgres-temp.sh', 'start'], { encoding: 'utf8' })
        .trim()
        .split(/\s+/);
      pgAdmin = url!;
      stopPostgres = () => execFileSync('bash', ['scripts/postgres-temp.sh', 'stop', pgDir!]);
    }
    const pgName = `wm_company_file_bench_${crypto.randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: pgAdmin });
    await admin.connect();
    await admin.query(`create database ${pgName}`);
    const pgUrl = new URL(pgAdmin);
    pgUrl.pathname = `/${pgName}`;

    const source = `sqlite:${path.join(dir, 'source.db')}`;
    const back = `sqlite:${path.join(dir, 'back.db')}`;
    console.log(`generating ${JSON.stringify(counts)} on SQLite...`);
    const generating = performance.now();
    const database = openDatabase(target(source));
    await migrateToLatest(database.db);
    await generate(database, counts);
    await database.close();
    console.log(`generated in ${((performance.now() - generating) / 1000).toFixed(0)} s`);

    const files = ['a.tar', 'b.tar', 'c.tar'].map((f) => path.join(dir, f));
    const results = [
      ['export SQLite', runStep('export', source, files[0]!)],
      ['import PostgreSQL', runStep('import', pgUrl.toString(), files[0]!)],
      ['export PostgreSQL', runStep('export', pgUrl.toString(), files[1]!)],
      ['import SQLite', runStep('import', back, files[1]!)],
      ['export SQLite (moved back)', runStep('export', back, files[2]!)],
    ] as const;
    const hashes = await Promise.all(files.map(sha256));
    const size = fs.statSync(files[0]!).size;
    console.log(`company file: ${(size / 1024 / 1024).toFixed(0)} MB`);
    for (const [name, r] of results)
      console.log(`| ${name} | ${(r.ms / 1000).toFixed(1)} s | ${r.maxRssMb.toFixed(0)} MB |`);
    const equal = hashes.every((h) => h === hashes[0]);
    console.log(equal ? 'the three files are equal byte for byte' : `FILES DIFFER: ${hashes.join(' ')}`);
    await admin.query(`drop database ${pgName}`);
    await admin.end();
    if (!equal) process.exitCode = 1;
  } finally {
    stopPostgres();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const stepKind = arg('step');
if (stepKind) await step(stepKind, arg('url')!, arg('file')!);
