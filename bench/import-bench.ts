// npm run bench -- --import: a spreadsheet import of 20,000 vaults (issue 17) into an empty company on a real server
// process, on SQLite and PostgreSQL: the dry run and the commit of the same file, as CSV and as XLSX, with the server's
// peak resident memory sampled meanwhile. Writes its own section of docs/performance.md.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { toCsv } from '@domain/rules/csv';
import { fieldName } from '@domain/rules/field-names';
import { importTemplate } from '@domain/rules/import-columns';
import { openDatabase } from '../server/db/database';
import { buildAccount } from '../server/factories';
import { migrateToLatest } from '../server/db/migrate';
import { signInCookie, startServer } from '../server/test/server-process';
import { writePerformanceSection } from './performance-doc';

type Engine = 'sqlite' | 'postgres';
const ROWS = Number(process.argv.find((a) => a.startsWith('--rows='))?.split('=')[1] ?? 20_000);
const engines = (
  process.argv.find((a) => a.startsWith('--engines='))?.split('=')[1] ?? 'sqlite,postgres'
).split(',') as Engine[];
const workDir = path.resolve('.tmp', 'bench-import');

/** ROWS vaults over warehouses of 30 x 60 fields with 3 slots each, every field filled from its bottom slot. */
function rows(): (string | number)[][] {
  const out: (string | number)[][] = [];
  for (let i = 0; i < ROWS; i++) {
    const slot = i % 3;
    const field = Math.floor(i / 3);
    const warehouse = Math.floor(field / 1800);
    const inWarehouse = field % 1800;
    out.push([
      `Import Hall ${warehouse + 1}`,
      fieldName(Math.floor(inWarehouse / 60) + 1, (inWarehouse % 60) + 1),
      3 - slot,
      `IMP-${i + 1}`,
      `CUSTOMER ${i % 4000}`,
      `ORDER ${i % 6000}`,
      'vault',
      i % 5 === 0 ? `note for vault ${i + 1}` : '',
    ]);
  }
  return out;
}

async function files(): Promise<Record<'csv' | 'xlsx', Buffer>> {
  const { header } = importTemplate('vaults');
  const data = rows();
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Vaults');
  sheet.addRow(header);
  for (const row of data) sheet.addRow(row);
  return {
    csv: Buffer.from(toCsv(header, data)),
    xlsx: Buffer.from(await workbook.xlsx.writeBuffer()),
  };
}

interface Measured {
  engine: Engine;
  format: string;
  bytes: number;
  dryRunMs: number;
  commitMs: number;
  undoMs: number;
  peakRssMiB: number;
}

async function measure(engine: Engine, format: 'csv' | 'xlsx', content: Buffer): Promise<Measured> {
  let url: string;
  let cleanup = () => {};
  if (engine === 'sqlite') {
    fs.rmSync(workDir, { recursive: true, force: true });
    fs.mkdirSync(workDir, { recursive: true });
    url = `sqlite:${path.join(workDir, 'import.db')}`;
  } else {
    const [pgUrl, dir] = execFileSync('bash', ['scripts/postgres-temp.sh', 'start'], { encoding: 'utf8' })
      .trim()
      .split(' ');
    url = pgUrl!;
    cleanup = () => execFileSync('bash', ['scripts/postgres-temp.sh', 'stop', dir!]);
  }
  try {
    const database = openDatabase(
      url.startsWith('sqlite:') ? { kind: 'sqlite', file: url.slice(7) } : { kind: 'postgres', url },
    );
    await migrateToLatest(database.db);
    const account = await buildAccount(database.db);
    await database.close();
    const server = await startServer(url);
    try {
      const cookie = await signInCookie(server.baseUrl, account.email, account.password);
      let peak = server.rssMiB();
      const sampler = setInterval(() => (peak = Math.max(peak, server.rssMiB())), 50);
      const post = async (route: string) => {
        const form = new FormData();
        form.set('create_warehouses', 'true');
        form.set('file', new Blob([new Uint8Array(content)]), `vaults.${format}`);
        const started = performance.now();
        const res = await fetch(`${server.baseUrl}${route}`, {
          method: 'POST',
          headers: { cookie, origin: server.baseUrl },
          body: form,
        });
        const body = (await res.json()) as { id?: number; problems?: unknown[] };
        if (!res.ok) throw new Error(`${route}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
        if (body.problems && body.problems.length > 0) throw new Error(`${route}: problems in the file`);
        return { ms: performance.now() - started, body };
      };
      const dry = await post('/api/import/vaults/dry-run');
      const commit = await post('/api/import/vaults');
      const undoStarted = performance.now();
      const undo = await fetch(`${server.baseUrl}/api/imports/${commit.body.id}/undo`, {
        method: 'POST',
        headers: { cookie, origin: server.baseUrl },
      });
      if (!undo.ok) throw new Error(`undo: ${undo.status} ${await undo.text()}`);
      const undoMs = performance.now() - undoStarted;
      clearInterval(sampler);
      return {
        engine,
        format,
        bytes: content.length,
        dryRunMs: dry.ms,
        commitMs: commit.ms,
        undoMs,
        peakRssMiB: peak,
      };
    } finally {
      await server.stop();
    }
  } finally {
    cleanup();
  }
}

export async function runImportBench(): Promise<void> {
  const byFormat = await files();
  const loadBefore = os.loadavg()[0]!;
  const results: Measured[] = [];
  for (const engine of engines)
    for (const format of ['csv', 'xlsx'] as const) {
      const result = await measure(engine, format, byFormat[format]);
      console.log(JSON.stringify(result));
      results.push(result);
    }
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const lines = results.map(
    (r) =>
      `| ${r.engine} | ${r.format.toUpperCase()} (${(r.bytes / 1024 / 1024).toFixed(1)} MB) | ${s(r.dryRunMs)} | ${s(r.commitMs)} | ${s(r.undoMs)} | ${Math.round(r.peakRssMiB)} MiB |`,
  );
  writePerformanceSection(
    'import results',
    [
      `## Spreadsheet import of ${ROWS.toLocaleString('en')} vaults (issue 17; \`npm run bench -- --import\`, ${new Date().toISOString().slice(0, 10)})`,
      '',
      'Into an empty company, creating the warehouses from the file; each time is one request over HTTP to a real',
      'server process, measured by the client. Target: dry run and commit each at most 10 s.',
      `Machine load (1-minute average, 2 cores) before: ${loadBefore.toFixed(1)}, after: ${os.loadavg()[0]!.toFixed(1)}.`,
      '',
      '| Engine | File | Dry run | Commit | Undo | Server peak RSS |',
      '| --- | --- | --- | --- | --- | --- |',
      ...lines,
      '',
    ].join('\n'),
  );
}
