// npm run bench -- --live-floor: simulated tablets on a busy floor (issue 11). Each tablet holds a real
// GET /api/events stream, shows Warehouse 1 (its detail, the company list and its racks) and decides what to fetch
// again with the web client's own policy (web/src/app/live-updates.ts), after the same batching. A writer stages
// vaults and puts them back in two other warehouses at a fixed rate. The same writes run first with no tablet.
// --same-warehouse: the tablets show Warehouse 2, where half the writes happen, so they patch their copy from the
// fields each frame brings (decision 023); --refetch-only: the policy before that (no watch, refetch what a change
// touches), for comparison.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { openDatabase } from '../server/db/database';
import { migrateToLatest } from '../server/db/migrate';
import { type RunningServer, signInCookie, startServer } from '../server/test/server-process';
import {
  type CachedQuery,
  type LiveSignal,
  REFRESH_DELAY_MS,
  eventsUrl,
  readChange,
  refreshOfAll,
  updateOf,
} from '../web/src/app/live-updates';
import { rackQueries } from '../web/src/api/racks';
import { warehouseQueries } from '../web/src/api/warehouses';
import { type GeneratedCompany, LARGE_DATASET, generateDataset } from './generate-dataset';
import { writePerformanceSection } from './performance-doc';

type Engine = 'sqlite' | 'postgres';
const arg = (name: string, fallback: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const TABLETS = Number(arg('tablets', '100'));
const WRITES_PER_SECOND = Number(arg('writes', '20'));
const SECONDS = Number(arg('seconds', '20'));
const ENGINES = arg('engines', 'sqlite,postgres').split(',') as Engine[];
// a ring of fields written in turn: each is staged and put back every 2 * RING / W seconds
const RING_PER_WAREHOUSE = 20;
const SAME_WAREHOUSE = process.argv.includes('--same-warehouse');
const REFETCH_ONLY = process.argv.includes('--refetch-only');
const SCREEN = SAME_WAREHOUSE ? '/warehouse/warehouse-2' : '/warehouse/warehouse-1';
const workDir = path.resolve('.tmp', 'bench-live');

const agent = new http.Agent({ keepAlive: true, maxSockets: 1000 });

interface Answer {
  status: number;
  /** bytes on the wire: status line, headers and the (compressed) body */
  bytes: number;
  body: Buffer;
}

const headerBytes = (res: http.IncomingMessage) =>
  20 + res.rawHeaders.reduce((sum, part, i) => sum + part.length + (i % 2 === 0 ? 2 : 2), 0);

function request(
  baseUrl: string,
  method: string,
  url: string,
  cookie: string,
  body?: unknown,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      `${baseUrl}${url}`,
      {
        method,
        agent,
        headers: {
          cookie,
          'accept-encoding': 'gzip, deflate, br',
          ...(payload ? { 'content-type': 'application/json' } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          const encoding = res.headers['content-encoding'];
          const decoded =
            encoding === 'gzip'
              ? zlib.gunzipSync(raw)
              : encoding === 'br'
                ? zlib.brotliDecompressSync(raw)
                : encoding === 'deflate'
                  ? zlib.inflateSync(raw)
                  : raw;
          resolve({ status: res.statusCode ?? 0, bytes: headerBytes(res) + raw.length, body: decoded });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const percentile = (values: number[], p: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

interface TabletQuery extends CachedQuery {
  path: string;
  /** the warehouse's data is what the policy reads (which vaults it shows); the others need no parsing */
  keepData: boolean;
}

// Every tablet patches its own copy, as a browser does; but 100 tablets in this one process holding the same copy
// and getting the same frames would compute the same patch 100 times, and this process would measure itself. The
// result of the web client's updateOf is shared between tablets with the same copy and the same batch of frames.
const patches = new WeakMap<object, Map<string, ReturnType<typeof updateOf>>>();
function patchOnce(query: TabletQuery, batch: string, update: () => ReturnType<typeof updateOf>) {
  if (typeof query.data !== 'object' || query.data === null) return update();
  let byBatch = patches.get(query.data);
  if (!byBatch) patches.set(query.data, (byBatch = new Map()));
  let result = byBatch.get(batch);
  if (!result) byBatch.set(batch, (result = update()));
  return result;
}

/** One tablet: its stream, its cache of three queries, and what it received. */
class Tablet {
  sseBytes = 0;
  refetchBytes = 0;
  refetches = 0;
  refetchErrors = 0;
  patches = 0;
  /** key of the change -> arrival times, in order */
  readonly arrivals = new Map<string, number[]>();
  private request: http.ClientRequest | undefined;
  private pending: LiveSignal[] = [];
  /** the frames' texts of the pending batch: tablets that got the same frames share one patching (see patchOnce) */
  private pendingText: string[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly baseUrl: string,
    private readonly cookie: string,
    readonly queries: TabletQuery[],
    /** the warehouse the tablet shows: its stream watches it, as the web app's does */
    private readonly shown: number,
  ) {}

  open(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.request = http.get(
        `${this.baseUrl}${REFETCH_ONLY ? '/api/events' : eventsUrl([this.shown])}`,
        { headers: { cookie: this.cookie, accept: 'text/event-stream' } },
        (res) => {
          if (res.statusCode !== 200) return reject(new Error(`events: ${res.statusCode}`));
          this.sseBytes += headerBytes(res);
          let buffer = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            this.sseBytes += Buffer.byteLength(chunk);
            buffer += chunk;
            let end: number;
            while ((end = buffer.indexOf('\n\n')) >= 0) {
              const frame = buffer.slice(0, end);
              buffer = buffer.slice(end + 2);
              this.onFrame(frame, resolve);
            }
          });
          res.on('error', () => undefined);
        },
      );
      this.request.on('error', () => undefined);
    });
  }

  private onFrame(frame: string, ready: () => void) {
    const name = /^event: (.*)$/m.exec(frame)?.[1];
    const data = /^data: (.*)$/m.exec(frame)?.[1] ?? '';
    if (name === 'ready') return ready();
    if (name === 'reset') return this.schedule('reset', 'reset');
    if (name !== 'change') return;
    const change = readChange(data);
    if (change) {
      const key = `${change.kind}:${change.entityId}`;
      this.arrivals.set(key, [...(this.arrivals.get(key) ?? []), performance.now()]);
    }
    this.schedule(change ?? 'reset', data);
  }

  // the web client's batching: the first change of a burst waits REFRESH_DELAY_MS, then the batch is applied
  private schedule(signal: LiveSignal, text: string) {
    this.pending.push(signal);
    this.pendingText.push(text);
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const signals = this.pending.includes('reset') ? (['reset'] as const) : this.pending;
      const batch = this.pendingText.join('\n');
      this.pending = [];
      this.pendingText = [];
      for (const query of this.queries) {
        if (REFETCH_ONLY) {
          if (refreshOfAll(signals, query, SCREEN) === 'refetch') void this.refetch(query);
          continue;
        }
        const update = patchOnce(query, batch, () => updateOf(signals, query, SCREEN));
        if (update.refresh === 'refetch') void this.refetch(query);
        else if (update.data !== undefined) {
          this.patches += 1;
          query.data = update.data;
        }
      }
    }, REFRESH_DELAY_MS);
  }

  private async refetch(query: TabletQuery) {
    this.refetches += 1;
    try {
      const answer = await request(this.baseUrl, 'GET', query.path, this.cookie);
      this.refetchBytes += answer.bytes;
      if (answer.status !== 200) this.refetchErrors += 1;
      else if (query.keepData) query.data = JSON.parse(answer.body.toString('utf8')) as unknown;
    } catch {
      this.refetchErrors += 1;
    }
  }

  close() {
    if (this.timer) clearTimeout(this.timer);
    this.request?.destroy();
  }
}

interface WarehouseJson {
  fields: Record<number, { id: number; vaults: Record<number, { id: number; position: number }> }>;
}

interface Write {
  key: string;
  ackAt: number;
  ms: number;
  ok: boolean;
}

/** Stages the topmost vault of each field of the ring and puts it back, in turn, at a fixed rate (open loop). */
async function runWrites(
  servers: RunningServer[],
  cookie: string,
  ring: { fieldId: number; vaultId: number; position: number; staged: boolean; busy: boolean }[],
  seconds: number,
): Promise<Write[]> {
  const writes: Write[] = [];
  const inFlight: Promise<void>[] = [];
  const total = Math.round(WRITES_PER_SECOND * seconds);
  const started = performance.now();
  let next = 0;
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / WRITES_PER_SECOND;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    // the next field of the ring that has no write under way
    let slot = ring[next % ring.length]!;
    for (let k = 0; k < ring.length && slot.busy; k++) slot = ring[++next % ring.length]!;
    next += 1;
    if (slot.busy) continue;
    slot.busy = true;
    const server = servers[i % servers.length]!;
    const [method, url, body, kind] = slot.staged
      ? ([
          'PUT',
          '/api/vaults/move',
          { vaultId: slot.vaultId, fieldId: slot.fieldId, position: slot.position },
          'vault.moved',
        ] as const)
      : (['POST', `/api/stage/vaults/${slot.vaultId}`, undefined, 'vault.staged'] as const);
    const sentAt = performance.now();
    inFlight.push(
      request(server.baseUrl, method, url, cookie, body)
        .then((answer) => {
          const ok = answer.status === 200;
          if (ok) slot.staged = !slot.staged;
          const ackAt = performance.now();
          writes.push({ key: `${kind}:${slot.vaultId}`, ackAt, ms: ackAt - sentAt, ok });
        })
        .catch(() => {
          writes.push({
            key: `${kind}:${slot.vaultId}`,
            ackAt: 0,
            ms: performance.now() - sentAt,
            ok: false,
          });
        })
        .finally(() => {
          slot.busy = false;
        }),
    );
  }
  await Promise.all(inFlight);
  return writes;
}

interface RunResult {
  tablets: number;
  writes: number;
  failedWrites: number;
  writeP50: number;
  writeP99: number;
  delivered?: number;
  delayP50?: number;
  delayP99?: number;
  bytesPerChange?: number;
  sseBytesPerChange?: number;
  refetchesPerTablet?: number;
  patchesPerTablet?: number;
  refetchErrors?: number;
  cpuPercent: number;
}

async function runOnce(
  servers: RunningServer[],
  company: GeneratedCompany,
  writerCookie: string,
  tabletCookies: string[],
  ring: Parameters<typeof runWrites>[2],
): Promise<RunResult> {
  const shown = company.warehouseIds[SAME_WAREHOUSE ? 1 : 0]!;
  const tablets: Tablet[] = [];
  for (const [i, cookie] of tabletCookies.entries()) {
    const server = servers[i % servers.length]!;
    const queries: TabletQuery[] = [
      { queryKey: warehouseQueries.detail(shown).queryKey, path: `/api/warehouse/${shown}`, keepData: true },
      {
        queryKey: warehouseQueries.list(company.companyId).queryKey,
        path: `/api/warehouse/company/${company.companyId}`,
        keepData: false,
      },
      { queryKey: rackQueries.list(shown).queryKey, path: `/api/racks/warehouse/${shown}`, keepData: false },
    ];
    const tablet = new Tablet(server.baseUrl, cookie, queries, shown);
    // the first screen, as a tablet loads it (the warehouse parsed once and shared: the tablets show the same data)
    for (const query of queries) {
      const answer = await request(server.baseUrl, 'GET', query.path, cookie);
      if (answer.status !== 200) throw new Error(`${query.path}: ${answer.status}`);
      if (query.keepData)
        query.data = i === 0 ? JSON.parse(answer.body.toString('utf8')) : tablets[0]!.queries[0]!.data;
    }
    await tablet.open();
    tablets.push(tablet);
  }
  // let the first screens settle
  await new Promise((r) => setTimeout(r, 1000));
  const sseBefore = tablets.map((t) => t.sseBytes);
  const cpuBefore = servers.reduce((sum, s) => sum + s.cpuMs(), 0);
  const wallStart = performance.now();
  const writes = await runWrites(servers, writerCookie, ring, SECONDS);
  // the last events reach the tablets and their refetches end
  await new Promise((r) => setTimeout(r, 2000));
  const wall = performance.now() - wallStart;
  const cpuPercent =
    Math.round(((servers.reduce((sum, s) => sum + s.cpuMs(), 0) - cpuBefore) / wall) * 1000) / 10;
  for (const tablet of tablets) tablet.close();

  const ok = writes.filter((w) => w.ok);
  const result: RunResult = {
    tablets: tablets.length,
    writes: writes.length,
    failedWrites: writes.length - ok.length,
    writeP50:
      Math.round(
        percentile(
          ok.map((w) => w.ms),
          50,
        ) * 10,
      ) / 10,
    writeP99:
      Math.round(
        percentile(
          ok.map((w) => w.ms),
          99,
        ) * 10,
      ) / 10,
    cpuPercent,
  };
  if (tablets.length === 0) return result;
  // the n-th acknowledged write of a key is matched with the n-th arrival of that key
  const acks = new Map<string, number[]>();
  for (const w of [...ok].sort((a, b) => a.ackAt - b.ackAt))
    acks.set(w.key, [...(acks.get(w.key) ?? []), w.ackAt]);
  const delays: number[] = [];
  let delivered = 0;
  for (const tablet of tablets) {
    for (const [key, times] of acks) {
      const arrived = tablet.arrivals.get(key) ?? [];
      times.forEach((ackAt, n) => {
        if (arrived[n] === undefined) return;
        delivered += 1;
        // an event can reach a tablet before the writer has read its answer
        delays.push(Math.max(0, arrived[n] - ackAt));
      });
    }
  }
  const changes = ok.length;
  const sse = tablets.reduce((sum, t, i) => sum + t.sseBytes - sseBefore[i]!, 0) / tablets.length;
  const refetched = tablets.reduce((sum, t) => sum + t.refetchBytes, 0) / tablets.length;
  return {
    ...result,
    delivered: Math.round((delivered / (changes * tablets.length)) * 1000) / 10,
    delayP50: Math.round(percentile(delays, 50)),
    delayP99: Math.round(percentile(delays, 99)),
    bytesPerChange: Math.round((sse + refetched) / changes),
    sseBytesPerChange: Math.round(sse / changes),
    refetchesPerTablet:
      Math.round((tablets.reduce((sum, t) => sum + t.refetches, 0) / tablets.length) * 10) / 10,
    patchesPerTablet: Math.round((tablets.reduce((sum, t) => sum + t.patches, 0) / tablets.length) * 10) / 10,
    refetchErrors: tablets.reduce((sum, t) => sum + t.refetchErrors, 0),
  };
}

async function prepareDatabase(engine: Engine): Promise<{ url: string; cleanup: () => void }> {
  if (engine === 'sqlite') {
    fs.rmSync(workDir, { recursive: true, force: true });
    fs.mkdirSync(workDir, { recursive: true });
    return { url: `sqlite:${path.join(workDir, 'live.db')}`, cleanup: () => undefined };
  }
  const out = execFileSync('bash', ['scripts/postgres-temp.sh', 'start'], { encoding: 'utf8' }).trim();
  const [url, dir] = out.split(' ');
  return { url: url!, cleanup: () => execFileSync('bash', ['scripts/postgres-temp.sh', 'stop', dir!]) };
}

async function runEngine(engine: Engine): Promise<RunResult[]> {
  const { url, cleanup } = await prepareDatabase(engine);
  const servers: RunningServer[] = [];
  try {
    const database = openDatabase(
      url.startsWith('sqlite:') ? { kind: 'sqlite', file: url.slice(7) } : { kind: 'postgres', url },
    );
    await migrateToLatest(database.db);
    const [company] = await generateDataset(database.db, LARGE_DATASET);
    await database.close();
    // PostgreSQL: two server processes on one database, as a deployment behind a balancer runs
    for (let i = 0; i < (engine === 'postgres' ? 2 : 1); i++) servers.push(await startServer(url));
    const writerCookie = await signInCookie(servers[0]!.baseUrl, company!.email, company!.password);
    const perWarehouse: Parameters<typeof runWrites>[2][] = [];
    for (const warehouseId of company!.warehouseIds.slice(1, 3)) {
      const ring: Parameters<typeof runWrites>[2] = [];
      perWarehouse.push(ring);
      const answer = await request(servers[0]!.baseUrl, 'GET', `/api/warehouse/${warehouseId}`, writerCookie);
      const warehouse = JSON.parse(answer.body.toString('utf8')) as WarehouseJson;
      const fields = Object.values(warehouse.fields).filter((f) => Object.keys(f.vaults).length > 0);
      for (const field of fields.slice(0, RING_PER_WAREHOUSE)) {
        const top = Object.values(field.vaults).sort((a, b) => a.position - b.position)[0]!;
        ring.push({ fieldId: field.id, vaultId: top.id, position: top.position, staged: false, busy: false });
      }
    }
    // the two warehouses take turns
    const ring = perWarehouse[0]!.flatMap((slot, i) => [
      slot,
      ...(perWarehouse[1]![i] ? [perWarehouse[1]![i]!] : []),
    ]);
    // every tablet signs in by itself (a sign-in may hold a few streams only)
    const tabletCookies: string[] = [];
    for (let i = 0; i < TABLETS; i++)
      tabletCookies.push(
        await signInCookie(servers[i % servers.length]!.baseUrl, company!.email, company!.password),
      );
    const results: RunResult[] = [];
    console.log(`${engine}: ${SECONDS} s of ${WRITES_PER_SECOND} writes/s with no tablet`);
    results.push(await runOnce(servers, company!, writerCookie, [], ring));
    console.log(`${engine}: the same with ${TABLETS} tablets`);
    results.push(await runOnce(servers, company!, writerCookie, tabletCookies, ring));
    return results;
  } finally {
    for (const server of servers) await server.stop();
    cleanup();
  }
}

function table(engine: Engine, [idle, busy]: RunResult[]): string {
  const tabletCpu = Math.round((busy!.cpuPercent - idle!.cpuPercent) * 10) / 10;
  const lines = [
    `| ${engine === 'sqlite' ? 'SQLite, 1 server process' : 'PostgreSQL, 2 server processes'} | no tablet | ${busy!.tablets} tablets | target |`,
    '|---|---:|---:|---|',
    `| writes acknowledged / failed | ${idle!.writes - idle!.failedWrites} / ${idle!.failedWrites} | ${busy!.writes - busy!.failedWrites} / ${busy!.failedWrites} | |`,
    `| write p50 | ${idle!.writeP50} ms | ${busy!.writeP50} ms | |`,
    `| write p99 | ${idle!.writeP99} ms | ${busy!.writeP99} ms | at most 2x the no-tablet run |`,
    `| events delivered to the tablets | - | ${busy!.delivered} % | 100 % |`,
    `| event-to-tablet delay p50 / p99 (after the writer's answer) | - | ${busy!.delayP50} / ${busy!.delayP99} ms | p99 < 1 s |`,
    `| bytes a tablet received per change (stream + refetches) | - | ${busy!.bytesPerChange} B (stream ${busy!.sseBytesPerChange} B) | < 1 kB |`,
    `| refetches per tablet in the run (failed, all tablets) | - | ${busy!.refetchesPerTablet} (${busy!.refetchErrors}) | |`,
    `| patches from the frames per tablet in the run | - | ${busy!.patchesPerTablet} | |`,
    `| server CPU (node processes, % of one core) | ${idle!.cpuPercent} % | ${busy!.cpuPercent} % (tablets: ${tabletCpu} %) | tablets < 25 % |`,
  ];
  return lines.join('\n');
}

export async function runLiveFloor(): Promise<string> {
  const sections: string[] = [];
  for (const engine of ENGINES) {
    const results = await runEngine(engine);
    const text = table(engine, results);
    console.log(text);
    sections.push(text);
  }
  const policy = REFETCH_ONLY ? ', the policy before decision 023 (refetch what a change touches)' : '';
  const summary = `### Live floor (\`npm run bench -- ${process.argv.slice(2).join(' ')}\`, ${new Date().toISOString().slice(0, 10)}): ${TABLETS} tablets showing Warehouse ${SAME_WAREHOUSE ? 2 : 1}${policy} (its detail, the company list, its racks), ${WRITES_PER_SECOND} writes/s for ${SECONDS} s staging vaults and putting them back in Warehouses 2 and 3, on ${LARGE_DATASET.warehousesPerCompany} warehouses x ${LARGE_DATASET.cols * LARGE_DATASET.rows} fields (~14,400 placed vaults a company).\n\n${sections.join('\n\n')}\n`;
  const section = ['live floor results', SAME_WAREHOUSE && 'same warehouse', REFETCH_ONLY && 'refetch only'];
  writePerformanceSection(section.filter(Boolean).join(', '), summary);
  return summary;
}
