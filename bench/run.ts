import { sql } from 'kysely';
// npm run bench: generates the large dataset on SQLite and PostgreSQL, measures the API with autocannon and the
// screens with Playwright, and writes docs/performance.md.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../server/db/database';
import { migrateToLatest } from '../server/db/migrate';
import { nowIso } from '../server/db/database';
import { type LoadWithProbe, type RouteResult, benchRead, benchUnderLoad, benchWrites } from './api-bench';
import { type BrowserResult, benchBrowser } from './browser-bench';
import { insertMany } from './dataset.repo';
import { postgresCpuClock } from './db-cpu';
import { LARGE_DATASET, generateDataset } from './generate-dataset';
import { type RunningServer, signInCookie, startServer } from '../server/test/server-process';

// --live-floor: only the live-floor benchmark (simulated tablets on the event stream), see bench/live-floor.ts
if (process.argv.includes('--live-floor')) {
  const { runLiveFloor } = await import('./live-floor');
  await runLiveFloor();
  process.exit(0);
}

// --import: only the spreadsheet import benchmark (20,000 vaults), see bench/import-bench.ts
if (process.argv.includes('--import')) {
  const { runImportBench } = await import('./import-bench');
  await runImportBench();
  process.exit(0);
}

// --company-file: only the company file at size (export and import SQLite -> PostgreSQL -> SQLite), see
// bench/company-file.ts
if (process.argv.includes('--company-file')) {
  const { runCompanyFileBench } = await import('./company-file');
  await runCompanyFileBench();
  process.exit(0);
}

// --history: only the history benchmark (1,000,000 events, the Activity page's filters), see bench/history.ts
if (process.argv.includes('--history')) {
  const { runHistoryBench } = await import('./history');
  await runHistoryBench();
  process.exit(0);
}

// --labels: only the label PDF benchmark (1,000 vault labels per format), see bench/labels.ts
if (process.argv.includes('--labels')) {
  const { runLabelBench } = await import('./labels');
  await runLabelBench();
  process.exit(0);
}

type Engine = 'sqlite' | 'postgres';

// --pull-receive: only issue 16's pull plan and receiving proposal, see bench/pull-receive.ts
if (process.argv.includes('--pull-receive')) {
  const { runPullReceive } = await import('./pull-receive');
  const only = process.argv.find((a) => a.startsWith('--engines='))?.split('=')[1] ?? 'sqlite,postgres';
  await runPullReceive(only.split(',') as Engine[]);
  process.exit(0);
}

// --billing: only issue 28's billing run (5,000 accounts, 20,000 units), see bench/billing.ts
if (process.argv.includes('--billing')) {
  const { runBillingBench } = await import('./billing');
  const only = process.argv.find((a) => a.startsWith('--engines='))?.split('=')[1] ?? 'sqlite,postgres';
  await runBillingBench(only.split(',') as Engine[]);
  process.exit(0);
}

const READ_SECONDS = Number(process.argv.find((a) => a.startsWith('--seconds='))?.split('=')[1] ?? 5);
const engines = (
  process.argv.find((a) => a.startsWith('--engines='))?.split('=')[1] ?? 'sqlite,postgres'
).split(',') as Engine[];
const withBrowser = !process.argv.includes('--no-browser');
const IDLE_SECONDS = 30;
// the write benchmark first runs its cycle on this many of its 600 fields, unmeasured, this many times
const WARM_UP_FIELDS = 60;
const WARM_UP_ROUNDS = 4;
// --from-source runs the server through tsx, as `npm run dev` does, for a before/after comparison with the bundle
const fromSource = process.argv.includes('--from-source');
// --warehouses=N changes the warehouses per company (14 gives ~20,000 vaults in a company)
const warehouses = process.argv.find((a) => a.startsWith('--warehouses='))?.split('=')[1];
// --only=writes, --only=print or --only=company: just that part (--only=company: the company load, the first screen
// after sign-in), printed and not written to docs/performance.md (for paired before/after runs of one figure)
const only = process.argv.find((a) => a.startsWith('--only='))?.split('=')[1] as
  'writes' | 'print' | 'company' | undefined;
// --servers=N: the writes go to N server processes on the one database, as several servers behind a balancer would
const serverCount = Number(process.argv.find((a) => a.startsWith('--servers='))?.split('=')[1] ?? 1);
const shape = warehouses ? { ...LARGE_DATASET, warehousesPerCompany: Number(warehouses) } : LARGE_DATASET;
const workDir = path.resolve('.tmp', 'bench');
const webDir = path.resolve('.tmp', 'bench-web');

interface EngineResult {
  engine: Engine;
  vaults: number;
  generateMs: number;
  reads: RouteResult[];
  writes: RouteResult[];
  integrity: string[];
  memory: { startMiB: number; afterReadsMiB: number; afterWritesMiB: number; restingMiB: number };
  /** issue 11: ten Print Studios at once, with /api/health probed meanwhile */
  printLoad: LoadWithProbe;
  startMs: number;
  browser?: BrowserResult[];
}

async function prepareDatabase(
  engine: Engine,
): Promise<{ url: string; cleanup: () => void; dbCpu?: () => number }> {
  if (engine === 'sqlite') {
    fs.rmSync(workDir, { recursive: true, force: true });
    fs.mkdirSync(workDir, { recursive: true });
    return { url: `sqlite:${path.join(workDir, 'bench.db')}`, cleanup: () => undefined };
  }
  const out = execFileSync('bash', ['scripts/postgres-temp.sh', 'start'], { encoding: 'utf8' }).trim();
  const [url, dir] = out.split(' ');
  return {
    url: url!,
    cleanup: () => execFileSync('bash', ['scripts/postgres-temp.sh', 'stop', dir!]),
    dbCpu: postgresCpuClock(path.join(dir!, 'data')),
  };
}

async function getJson<T>(server: RunningServer, cookie: string, url: string): Promise<T> {
  const res = await fetch(`${server.baseUrl}${url}`, { headers: { cookie } });
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  return (await res.json()) as T;
}

interface Warehouse {
  fields: Record<number, { id: number; vaults: Record<number, { id: number; position: number }> }>;
}

async function runEngine(engine: Engine): Promise<EngineResult> {
  const { url, cleanup, dbCpu } = await prepareDatabase(engine);
  try {
    const database = openDatabase(
      url.startsWith('sqlite:') ? { kind: 'sqlite', file: url.slice(7) } : { kind: 'postgres', url },
    );
    await migrateToLatest(database.db);
    const started = Date.now();
    const companies = await generateDataset(database.db, shape);
    const company = companies[0]!;
    // an empty warehouse for the write benchmark: 600 fields of 3 slots
    const [writeWarehouseId] = await insertMany(database.db, 'warehouses', [
      {
        company_id: company.companyId,
        name: 'Write Bench',
        slug: 'write-bench',
        rows: 20,
        cols: 30,
        field_capacity: 3,
        length: 200,
        width: 200,
        grid_x: 0,
        grid_y: 0,
        created_at: nowIso(),
      },
    ]);
    const cells = Array.from({ length: 600 }, (_, i) => ({ col: Math.floor(i / 20) + 1, row: (i % 20) + 1 }));
    const writeFieldIds = await insertMany(
      database.db,
      'fields',
      cells.map(({ col, row }) => ({
        company_id: company.companyId,
        warehouse_id: writeWarehouseId!,
        col,
        row,
        type: 'vault',
        full: 0,
      })),
    );
    const generateMs = Date.now() - started;
    // a database in service has been vacuumed and analyzed since its rows came: the figures are of that state, not
    // of PostgreSQL's autovacuum catching up with the bulk load while the routes are measured
    if (!url.startsWith('sqlite:')) await sql`vacuum analyze`.execute(database.db);
    await database.close();

    const startedAt = Date.now();
    const server = await startServer(url, withBrowser ? { WEB_DIST_DIR: webDir } : {}, { fromSource });
    const startMs = Date.now() - startedAt;
    const others: RunningServer[] = [];
    try {
      for (let i = 1; i < serverCount; i++) others.push(await startServer(url, {}, { fromSource }));
      const writeUrls = [server.baseUrl, ...others.map((s) => s.baseUrl)];
      const writeCpu = () => [server, ...others].reduce((sum, s) => sum + s.cpuMs(), 0);
      const cookie = await signInCookie(server.baseUrl, company.email, company.password);
      const warehouseId = company.warehouseIds[0]!;
      const warehouse = await getJson<Warehouse>(server, cookie, `/api/warehouse/${warehouseId}`);
      const fieldId = Object.values(warehouse.fields)[0]!.id;
      const startMiB = server.rssMiB();
      // first, on a fresh process: what ten Print Studios opening at once cost, and what the others feel meanwhile
      const noLoad = { requests: 0, p50: 0, p99: 0, non2xx: 0, errors: 0, peakRssMiB: 0 };
      const printLoad =
        only === 'writes' || only === 'company'
          ? { route: '', connections: 0, ...noLoad, healthP50: 0, healthMax: 0, healthSamples: 0 }
          : await benchUnderLoad(
              server.baseUrl,
              cookie,
              'all vaults (Print Studio)',
              '/api/vaults/all',
              3,
              server.rssMiB,
              10,
            );
      const reads: RouteResult[] = [];
      if (only === 'company') {
        const p = `/api/warehouse/company/${company.companyId}`;
        reads.push(await benchRead(server.baseUrl, cookie, 'company load', p, READ_SECONDS, server.cpuMs, 1));
        reads.push(
          await benchRead(server.baseUrl, cookie, 'company load', p, READ_SECONDS, server.cpuMs, 10),
        );
      }
      if (!only) {
        for (const [route, p] of [
          ['company load at start', `/api/warehouse/company/${company.companyId}`],
          ['one warehouse with fields and vaults', `/api/warehouse/${warehouseId}`],
          ['one field', `/api/warehouse/${warehouseId}/${fieldId}`],
          ['racks of a warehouse', `/api/racks/warehouse/${warehouseId}`],
          ['staged vaults', '/api/stage/vaults'],
          ['all vaults (Print Studio)', '/api/vaults/all'],
        ] as const) {
          // latency as one user sees it, then throughput under ten at once
          reads.push(await benchRead(server.baseUrl, cookie, route, p, READ_SECONDS, server.cpuMs, 1));
          reads.push(await benchRead(server.baseUrl, cookie, route, p, READ_SECONDS, server.cpuMs, 10));
        }
        // a browser that already holds the answer revalidates it (issue 11): 304 when nothing changed
        for (const [route, p] of [
          ['company load, revalidated (304)', `/api/warehouse/company/${company.companyId}`],
          ['one warehouse, revalidated (304)', `/api/warehouse/${warehouseId}`],
        ] as const) {
          const etag = (await fetch(`${server.baseUrl}${p}`, { headers: { cookie } })).headers.get('etag');
          const headers: Record<string, string> = etag ? { 'if-none-match': etag } : {};
          reads.push(
            await benchRead(server.baseUrl, cookie, route, p, READ_SECONDS, server.cpuMs, 1, headers),
          );
          reads.push(
            await benchRead(server.baseUrl, cookie, route, p, READ_SECONDS, server.cpuMs, 10, headers),
          );
        }
      }
      const afterReadsMiB = server.rssMiB();

      const writes: RouteResult[] = [];
      const integrity: string[] = [];
      /** Adds, stages, moves back and deletes three vaults in each field: the four write routes, one after the other. */
      const writeCycle = async (fields: { id: number; vaultIds: number[] }[]) => {
        const writes: RouteResult[] = [];
        const integrity: string[] = [];
        writes.push(
          await benchWrites(
            writeUrls,
            cookie,
            'add vault',
            fields,
            3,
            (field, i) => ({
              method: 'POST',
              path: '/api/vaults/',
              body: {
                vault_id: `W${field.id}-${i}`,
                customer_name: 'BENCH CUSTOMER',
                order_name: 'B-1',
                type: 'vault',
                field_id: field.id,
                position: 3 - i,
              },
            }),
            writeCpu,
            dbCpu,
          ),
        );
        const afterAdd = await getJson<Warehouse>(server, cookie, `/api/warehouse/${writeWarehouseId}`);
        const placed = Object.values(afterAdd.fields).flatMap((f) => Object.values(f.vaults));
        integrity.push(
          `add: ${placed.length} vaults placed for ${writes[0]!.requests - writes[0]!.non2xx} acknowledged adds`,
        );
        for (const field of fields) {
          field.vaultIds = Object.values(afterAdd.fields[field.id]!.vaults)
            .sort((a, b) => a.position - b.position)
            .map((v) => v.id);
        }
        writes.push(
          await benchWrites(
            writeUrls,
            cookie,
            'stage vault',
            fields,
            3,
            (field, i) => ({ method: 'POST', path: `/api/stage/vaults/${field.vaultIds[i]}` }),
            writeCpu,
            dbCpu,
          ),
        );
        const staged = Object.keys(
          await getJson<Record<string, unknown>>(server, cookie, '/api/stage/vaults'),
        ).length;
        integrity.push(`stage: ${staged} vaults on the stage (300 before plus ${placed.length} staged)`);
        // move the staged bench vaults back, each into the field it came from, bottom slot first
        for (const field of fields) field.vaultIds.reverse();
        writes.push(
          await benchWrites(
            writeUrls,
            cookie,
            'move vault',
            fields,
            3,
            (field, i) => ({
              method: 'PUT',
              path: '/api/vaults/move',
              body: { vaultId: field.vaultIds[i], fieldId: field.id, position: 3 - i },
            }),
            writeCpu,
            dbCpu,
          ),
        );
        const afterMove = await getJson<Warehouse>(server, cookie, `/api/warehouse/${writeWarehouseId}`);
        const positions = Object.values(afterMove.fields).flatMap((f) =>
          Object.values(f.vaults).map((v) => `${f.id}:${v.position}`),
        );
        integrity.push(
          `move: ${positions.length} vaults back in place, ${positions.length - new Set(positions).size} duplicated slots`,
        );
        for (const field of fields) field.vaultIds.reverse();
        writes.push(
          await benchWrites(
            writeUrls,
            cookie,
            'delete vault',
            fields,
            3,
            (field, i) => ({ method: 'DELETE', path: `/api/vaults/${field.vaultIds[i]}` }),
            writeCpu,
            dbCpu,
          ),
        );
        const afterDelete = await getJson<Warehouse>(server, cookie, `/api/warehouse/${writeWarehouseId}`);
        integrity.push(
          `delete: ${Object.values(afterDelete.fields).flatMap((f) => Object.values(f.vaults)).length} vaults left (expected 0)`,
        );
        return { writes, integrity };
      };
      if (only !== 'print' && only !== 'company') {
        const fields = writeFieldIds.map((id) => ({ id, vaultIds: [] as number[] }));
        // a first cycle on a few fields, not measured: the server's code is compiled and its statements planned
        // before the measured one (else the first route measured pays for it)
        const warmUp = fields.splice(0, WARM_UP_FIELDS);
        for (let round = 0; round < WARM_UP_ROUNDS; round++) await writeCycle(warmUp);
        const measured = await writeCycle(fields);
        writes.push(...measured.writes);
        integrity.push(...measured.integrity);
      }

      const afterWritesMiB = server.rssMiB();
      // V8 hands the heap a burst of requests grew back to the system once the process has been idle a few seconds
      if (!only) await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
      const restingMiB = server.rssMiB();

      const browser =
        withBrowser && engine === 'sqlite'
          ? await benchBrowser({
              baseUrl: server.baseUrl,
              email: company.email,
              password: company.password,
              warehouseName: 'Warehouse 1',
              warehouseSlug: 'warehouse-1',
              fieldCount: shape.cols * shape.rows,
              searchLetters: ['S', 'J', 'G', 'M', 'D'],
            })
          : undefined;
      return {
        engine,
        vaults: companies.reduce((s, c) => s + c.vaultCount, 0),
        generateMs,
        reads,
        writes,
        integrity,
        memory: { startMiB, afterReadsMiB, afterWritesMiB, restingMiB },
        printLoad,
        startMs,
        browser,
      };
    } finally {
      await Promise.all([server, ...others].map((s) => s.stop()));
    }
  } finally {
    cleanup();
  }
}

function table(rows: RouteResult[], withBytes: boolean): string {
  const lines = [
    `| Route | Connections | Requests | Req/s | p50 ms | p99 ms | Server CPU ms/request |${withBytes ? ' gzip bytes |' : ' Database CPU ms/request |'} non-2xx | errors |`,
    `|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|`,
  ];
  for (const r of rows) {
    const extra = withBytes ? ` ${r.bytes ?? ''} |` : ` ${r.dbCpuMsPerRequest ?? '-'} |`;
    lines.push(
      `| ${r.route} | ${r.connections} | ${r.requests} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.cpuMsPerRequest} |${extra} ${r.non2xx} | ${r.errors} |`,
    );
  }
  return lines.join('\n');
}

function browserTable(rows: BrowserResult[]): string {
  const lines = ['| Measure | Median | Samples |', '|---|---:|---|'];
  for (const b of rows) {
    const median = b.medianMs === null ? `not measured: ${b.note ?? ''}` : `${b.medianMs} ${b.unit ?? 'ms'}`;
    lines.push(`| ${b.name} | ${median} | ${b.samples.join(', ')} |`);
  }
  return lines.join('\n');
}

if (withBrowser) {
  // the screens are measured on a production build of the current sources
  execFileSync('npx', ['vite', 'build', '--outDir', webDir, '--emptyOutDir', '--logLevel', 'warn'], {
    stdio: 'inherit',
  });
}

const results: EngineResult[] = [];
for (const engine of engines) {
  console.log(`\n=== ${engine} ===`);
  const result = await runEngine(engine);
  results.push(result);
  console.log(table(result.reads, true));
  console.log(table(result.writes, false));
  for (const line of result.integrity) console.log(`- ${line}`);
  console.log(`server: ready in ${result.startMs} ms; memory ${JSON.stringify(result.memory)} MiB`);
  console.log(`print load: ${JSON.stringify(result.printLoad)}`);
  if (result.browser) console.log(browserTable(result.browser));
}

const sections = results.map(
  (r) => `### ${r.engine === 'sqlite' ? 'SQLite' : 'PostgreSQL'}

Dataset: ${r.vaults} placed vaults in 2 companies (generated in ${r.generateMs} ms). Server (${fromSource ? 'run from source through tsx' : 'compiled bundle'}) ready in ${r.startMs} ms; resident memory ${r.memory.startMiB} MiB after start, ${r.memory.afterReadsMiB} MiB right after the reads, ${r.memory.afterWritesMiB} MiB right after the writes, ${r.memory.restingMiB} MiB after ${IDLE_SECONDS} s at rest with the dataset loaded.

Print Studio at ten connections, three answers each, on the fresh server, /api/health probed every 100 ms meanwhile: ${r.printLoad.requests} answers, p50 ${r.printLoad.p50} ms, p99 ${r.printLoad.p99} ms, non-2xx ${r.printLoad.non2xx}, errors ${r.printLoad.errors}; peak resident memory ${r.printLoad.peakRssMiB} MiB; /api/health p50 ${r.printLoad.healthP50} ms, max ${r.printLoad.healthMax} ms (${r.printLoad.healthSamples} probes).

Reads (${READ_SECONDS} s each at 1 connection, then at 10; a revalidated read sends the ETag of the answer in If-None-Match, so its 304s count as non-2xx):

${table(r.reads, true)}

Writes (20 connections${serverCount > 1 ? ` spread over ${serverCount} server processes` : ''}; every field of an empty 30 x 20 warehouse filled slot by slot, then staged, moved back and deleted):

${table(r.writes, false)}

Integrity: ${r.integrity.join('; ')}.
${r.browser ? `\nScreens (Chromium, median of 5):\n\n${browserTable(r.browser)}\n` : ''}`,
);
if (only) process.exit(0);
const file = path.resolve('docs', 'performance.md');
const previous = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
const marker = '<!-- bench results -->';
const head = previous.includes(marker) ? previous.slice(0, previous.indexOf(marker)) : '# Performance\n\n';
const args = process.argv.slice(2).join(' ');
const command = args ? `npm run bench -- ${args}` : 'npm run bench';
fs.writeFileSync(
  file,
  `${head}${marker}\n## Latest \`${command}\` (${new Date().toISOString().slice(0, 10)}, this 2-core machine)\n\n${sections.join('\n')}`,
);
console.log(`\nWrote ${path.relative(process.cwd(), file)}`);
