/**
 * npm run test:failover (decision 034): a PostgreSQL pair run by pg_auto_failover (three nodes on this machine:
 * monitor, primary, standby), two app processes, 20 writes a second from simulated clients. The primary is lost
 * three times: killed (kill -9 of its postmaster and its keeper, as when the machine dies), killed again after the
 * old primary rejoined (the failover back), and frozen (SIGSTOP of all its processes, as when the machine hangs or
 * its network is cut). Each time it prints the figures and fails (exit code 1) when an acknowledged write is lost,
 * a process died, an answer was neither 201 nor the usual 503, or writes took 15 s or more to come back.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';
import { failoverDrillOptions } from '../config';
import { openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { buildAccount } from '../factories';
import { DATABASE_UNREACHABLE } from '../http/errors';
import { type RunningServer, signInCookie, startServer } from './server-process';

const run = promisify(execFile);
const WRITE_EVERY_MS = 50; // 20 writes a second, shared by the two processes
const CLIENT_TIMEOUT_MS = 8000;
const BEFORE_FAULT_MS = 2000;
const AFTER_RECOVERY_MS = 3000;
const PHASE_LIMIT_MS = 45_000;
const WRITES_BACK_TARGET_S = 15;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
const seconds = (ms: number) => (ms / 1000).toFixed(1);

interface Outcome {
  server: number;
  sentAt: number;
  doneAt: number;
  status: number | 'timeout' | 'network';
  body?: unknown;
}

interface LiveStream {
  /** vault id -> when its vault.added event arrived */
  arrivals: Map<number, number>;
  close(): void;
}

/** A browser's live-update stream, read as the web app reads it. */
async function openLiveStream(baseUrl: string, cookie: string): Promise<LiveStream> {
  const controller = new AbortController();
  const res = await fetch(`${baseUrl}/api/events`, { headers: { cookie }, signal: controller.signal });
  if (res.status !== 200) throw new Error(`the live stream answered ${res.status}`);
  const arrivals = new Map<number, number>();
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = /^data: (.*)$/m.exec(frame)?.[1];
        if (!frame.includes('event: change') || !data) continue;
        const event = JSON.parse(data) as { kind: string; entityId: number };
        if (event.kind === 'vault.added' && !arrivals.has(event.entityId))
          arrivals.set(event.entityId, Date.now());
      }
    }
  })().catch(() => undefined);
  return { arrivals, close: () => controller.abort() };
}

async function ha(...args: string[]): Promise<string> {
  const { stdout } = await run('bash', ['scripts/postgres-ha.sh', ...args], { maxBuffer: 1 << 20 });
  return stdout.trim();
}

async function request(server: RunningServer, index: number, path: string, init: RequestInit) {
  const outcome: Outcome = { server: index, sentAt: Date.now(), doneAt: 0, status: 'network' };
  try {
    const res = await fetch(`${server.baseUrl}${path}`, {
      ...init,
      signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
    });
    outcome.status = res.status;
    outcome.body = await res.json();
  } catch (error) {
    outcome.status = (error as Error).name === 'TimeoutError' ? 'timeout' : 'network';
  }
  outcome.doneAt = Date.now();
  return outcome;
}

interface Phase {
  name: string;
  fault: (dir: string, primary: string) => Promise<void>;
  recover: (dir: string, primary: string) => Promise<void>;
}

const PHASES: Phase[] = [
  {
    name: 'primary killed (kill -9)',
    fault: (dir, node) => ha('kill', dir, node).then(() => undefined),
    recover: (dir, node) => ha('rejoin', dir, node).then(() => undefined),
  },
  {
    name: 'failover back: the new primary killed (kill -9)',
    fault: (dir, node) => ha('kill', dir, node).then(() => undefined),
    recover: (dir, node) => ha('rejoin', dir, node).then(() => undefined),
  },
  {
    name: 'primary frozen (SIGSTOP)',
    fault: (dir, node) => ha('freeze', dir, node).then(() => undefined),
    recover: (dir, node) => ha('thaw', dir, node).then(() => undefined),
  },
];

async function main() {
  const started = Date.now();
  await run('bash', ['scripts/ensure-system-deps.sh']);
  const [url, dir] = (await ha('start')).split('\n').pop()!.split(' ') as [string, string];
  console.log(`pair ready in ${seconds(Date.now() - started)} s: ${url}`);
  const servers: RunningServer[] = [];
  const failures: string[] = [];
  try {
    const setup = openDatabase({ kind: 'postgres', url });
    await migrateToLatest(setup.db);
    const account = await buildAccount(setup.db);
    await setup.close();
    for (let i = 0; i < 2; i++) servers.push(await startServer(url, { LOG_LEVEL: 'error' }));
    const cookie = await signInCookie(servers[0]!.baseUrl, account.email, account.password);
    const headers = { cookie, 'content-type': 'application/json' };

    const only = failoverDrillOptions().phases;
    for (const [index, phase] of PHASES.entries()) {
      if (only && !only.includes(index + 1)) continue;
      const primary = await ha('primary', dir);
      const lines = await runPhase(phase, dir, primary, url, servers, headers, failures);
      console.log(`\n${phase.name} (node ${primary}):\n${lines.map((l) => `  ${l}`).join('\n')}`);
      const rejoinStart = Date.now();
      await phase.recover(dir, primary);
      await ha('wait', dir, '120');
      console.log(
        `  ${primary} back as the synchronous standby after ${seconds(Date.now() - rejoinStart)} s`,
      );
    }
  } finally {
    for (const s of servers) await s.stop();
    await ha('stop', dir).catch(() => undefined);
  }
  console.log(`\nwhole run: ${seconds(Date.now() - started)} s`);
  if (failures.length > 0) {
    console.error(`\nFAILED:\n${failures.map((f) => `  - ${f}`).join('\n')}`);
    process.exit(1);
  }
  console.log('failover test passed');
}

async function runPhase(
  phase: Phase,
  dir: string,
  primaryNode: string,
  url: string,
  servers: RunningServer[],
  headers: Record<string, string>,
  failures: string[],
): Promise<string[]> {
  const created = await request(servers[0]!, 0, '/api/warehouse/add-warehouse', {
    method: 'POST',
    headers,
    body: JSON.stringify({
      name: `Failover ${Date.now()}`,
      rows: 30,
      cols: 30,
      field_capacity: 3,
      length: 100,
      width: 100,
    }),
  });
  if (created.status !== 201) throw new Error(`could not create the phase's warehouse: ${created.status}`);
  const fieldIds = Object.values((created.body as { fields: Record<string, { id: number }> }).fields).map(
    (f) => f.id,
  );
  const streams = await Promise.all(servers.map((s) => openLiveStream(s.baseUrl, headers.cookie!)));
  const writes: Outcome[] = [];
  const acknowledged = new Map<number, string>(); // vault id -> name
  const writers = new Set<string>(); // the nodes health named as written to
  const writersAfter = new Set<string>(); // the same, for health checks sent after the fault
  let stopping = false;
  let faultAt = 0;
  const pending: Promise<unknown>[] = [];
  const loadStart = Date.now();
  const load = (async () => {
    for (let n = 0; !stopping && n < fieldIds.length; n++) {
      const name = `F-${loadStart}-${n}`;
      const server = n % 2;
      pending.push(
        request(servers[server]!, server, '/api/vaults/', {
          method: 'POST',
          headers,
          body: JSON.stringify({
            vault_id: name,
            customer_name: 'FAILOVER',
            order_name: 'F1',
            field_id: fieldIds[n],
            position: 3,
          }),
        }).then((outcome) => {
          writes.push(outcome);
          if (outcome.status === 201) acknowledged.set((outcome.body as { id: number }).id, name);
        }),
      );
      await sleep(loadStart + (n + 1) * WRITE_EVERY_MS - Date.now());
    }
  })();
  const probes = servers.map(async (server, index) => {
    while (!stopping) {
      const outcome = await request(server, index, '/api/health', {});
      const body = outcome.body as { writesTo?: string; replication?: { synchronous: boolean } } | undefined;
      if (outcome.status === 200 && body?.writesTo && faultAt > 0 && outcome.sentAt > faultAt)
        writersAfter.add(body.writesTo);
      if (outcome.status === 200 && body?.writesTo)
        writers.add(`${body.writesTo}${body.replication?.synchronous ? ' (synchronous)' : ''}`);
      await sleep(250);
    }
  });

  await sleep(BEFORE_FAULT_MS);
  // the fault counts from when the script that makes it returns (it acts at its very end; starting it may take a
  // second or two on a busy machine)
  const faultStart = Date.now();
  await phase.fault(dir, primaryNode);
  faultAt = Date.now();
  // the load runs on until both processes write again, and a while longer
  const backAt = (server: number) =>
    Math.min(
      ...writes
        .filter((o) => o.server === server && o.sentAt >= faultAt && o.status === 201)
        .map((o) => o.doneAt),
    );
  while (Date.now() - faultAt < PHASE_LIMIT_MS && !servers.every((_, i) => Number.isFinite(backAt(i)))) {
    await sleep(100);
  }
  await sleep(AFTER_RECOVERY_MS);
  stopping = true;
  await load;
  await Promise.all([...pending, ...probes]);

  const lines: string[] = [];
  if (failoverDrillOptions().timeline) {
    lines.push(`fault at ${new Date(faultAt).toISOString()}, its script took ${faultAt - faultStart} ms`);
    for (const o of [...writes].sort((a, b) => a.sentAt - b.sentAt))
      lines.push(
        `  ${((o.sentAt - faultAt) / 1000).toFixed(2)} -> ${((o.doneAt - faultAt) / 1000).toFixed(2)} p${o.server + 1} ${o.status}`,
      );
  }
  const fail = (message: string) => failures.push(`${phase.name}: ${message}`);

  // every acknowledged write is on the new primary, row by row
  const newPrimary = new pg.Client({ connectionString: await primaryUrl(url, dir) });
  await newPrimary.connect();
  const { rows } = await newPrimary.query<{ id: number; name: string }>(
    'select id, name from vaults where id = any($1::int[])',
    [[...acknowledged.keys()]],
  );
  await newPrimary.end();
  const present = new Map(rows.map((r) => [Number(r.id), r.name]));
  const lost = [...acknowledged].filter(([id, name]) => present.get(id) !== name);
  lines.push(`acknowledged writes lost: ${lost.length} of ${acknowledged.size} (checked row by row)`);
  if (lost.length > 0) fail(`${lost.length} acknowledged writes are missing`);

  const refused = writes.filter((o) => o.status === 503);
  lines.push(`writes refused (503) while there was no primary: ${refused.length} of ${writes.length} sent`);
  const unexpected = writes.filter(
    (o) =>
      o.status !== 201 &&
      !(
        o.status === 503 &&
        JSON.stringify((o.body as { errors?: unknown }).errors) === JSON.stringify([DATABASE_UNREACHABLE])
      ),
  );
  if (unexpected.length > 0) {
    const kinds = [...new Set(unexpected.map((o) => String(o.status)))].join(', ');
    lines.push(`other answers: ${unexpected.length} (${kinds})`);
    fail(`${unexpected.length} answers were neither 201 nor the usual 503 (${kinds})`);
  }

  for (let i = 0; i < servers.length; i++) {
    const back = backAt(i);
    const figure = Number.isFinite(back) ? `${seconds(back - faultAt)} s` : 'never';
    lines.push(`process ${i + 1}: writes succeed again ${figure} after the fault`);
    if (!Number.isFinite(back) || back - faultAt >= WRITES_BACK_TARGET_S * 1000)
      fail(`process ${i + 1} wrote again only after ${figure} (target under ${WRITES_BACK_TARGET_S} s)`);
  }

  // every acknowledged write reaches both streams; the first one written after the fault tells how soon
  const until = Date.now() + 10_000;
  while (
    Date.now() < until &&
    streams.some((s) => [...acknowledged.keys()].some((id) => !s.arrivals.has(id)))
  ) {
    await sleep(100);
  }
  const afterFault = [...acknowledged.keys()].filter((id) =>
    writes.some((o) => o.sentAt >= faultAt && o.status === 201 && (o.body as { id: number }).id === id),
  );
  for (const [i, stream] of streams.entries()) {
    const missing = [...acknowledged.keys()].filter((id) => !stream.arrivals.has(id));
    const firstLive = Math.min(...afterFault.map((id) => stream.arrivals.get(id) ?? Infinity));
    const figure = Number.isFinite(firstLive) ? `${seconds(firstLive - faultAt)} s` : 'never';
    lines.push(
      `stream of process ${i + 1}: live events again ${figure} after the fault; missing ${missing.length}`,
    );
    if (missing.length > 0) fail(`stream ${i + 1} missed ${missing.length} acknowledged writes`);
    if (!Number.isFinite(firstLive)) fail(`stream ${i + 1} got no event after the fault`);
    stream.close();
  }

  const alive = servers.filter((s) => s.process.exitCode === null && s.process.signalCode === null).length;
  lines.push(`app processes alive: ${alive}/${servers.length}`);
  if (alive !== servers.length) fail(`${servers.length - alive} app processes died`);
  lines.push(`health named as written to: ${[...writers].join(', ')}`);
  // the fault must have taken effect: after it, the processes write to another node
  const faulted = primaryHost(url, primaryNode);
  if (![...writersAfter].some((w) => w !== faulted))
    fail(
      `health never named a node other than the faulted ${faulted} after the fault: the fault did not take effect`,
    );
  return lines;
}

/** `host:port` of a node (node1 or node2) as health names it. */
function primaryHost(url: string, node: string): string {
  const hosts = /@([^/]+)\//.exec(url)![1]!.split(',');
  return hosts[node === 'node1' ? 0 : 1]!;
}

/** The URL of the node the monitor names primary now. */
async function primaryUrl(url: string, dir: string): Promise<string> {
  let node = await ha('primary', dir);
  for (let i = 0; i < 100 && !node; i++) {
    await sleep(200);
    node = await ha('primary', dir);
  }
  const ports = /@([^/]+)\//.exec(url)![1]!.split(',');
  const host = ports[node === 'node1' ? 0 : 1]!;
  return url.replace(/@[^/]+\//, `@${host}/`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
