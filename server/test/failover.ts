/**
 * npm run test:failover (decision 034): a PostgreSQL pair run by pg_auto_failover (three nodes on this machine:
 * monitor, primary, standby), two app processes, 20 writes a second from simulated clients. The primary is lost four
 * times: killed (kill -9 of every process of the node, as when the machine dies), killed again after the old primary
 * rejoined (the failover back), frozen (SIGSTOP of every process of the node, backends included, as when the machine
 * hangs or its network is cut), and frozen again after it came back. Each time it checks that the fault took effect
 * (every process of the node stopped or gone, a connection opened before the fault no longer answers, health names
 * the other node afterwards), prints the figures, and fails (exit code 1) when an acknowledged write is lost, a process
 * died, an answer was neither 201 nor the usual 503, writes took 15 s or more to come back, a live stream missed a
 * write, a signed-out session still worked on the other process, or the old primary did not come back as the
 * synchronous standby. Around the faults it checks that exports read the standby only on the process with
 * READ_FROM_STANDBY, and that what a user just wrote reads from the primary.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
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
/** How long a connection opened before the fault gets to answer afterwards: a frozen node never does. */
const WITNESS_WAIT_MS = 2000;
/** How long after the rejoin health may take to name the new primary and its synchronous standby. */
const TOPOLOGY_WAIT_MS = 20_000;

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
  fault: 'kill' | 'freeze';
}

const PHASES: Phase[] = [
  { name: 'primary killed (kill -9)', fault: 'kill' },
  { name: 'failover back: the new primary killed (kill -9)', fault: 'kill' },
  { name: 'primary frozen (SIGSTOP)', fault: 'freeze' },
  { name: 'failover back: the new primary frozen (SIGSTOP)', fault: 'freeze' },
];

/** The way back: a killed node is started again, a frozen one runs on; either rejoins as the standby. */
const RECOVER = { kill: 'rejoin', freeze: 'thaw' } as const;

type Headers = Record<string, string>;

async function main() {
  const started = Date.now();
  await run('bash', ['scripts/ensure-system-deps.sh']);
  const [url, dir] = (await ha('start')).split('\n').pop()!.split(' ') as [string, string];
  console.log(`pair ready in ${seconds(Date.now() - started)} s: ${url}`);
  const servers: RunningServer[] = [];
  const failures: string[] = [];
  const summary: string[] = [];
  try {
    const setup = openDatabase({ kind: 'postgres', url });
    await migrateToLatest(setup.db);
    const account = await buildAccount(setup.db);
    await setup.close();
    // process 2 lets its exports read the standby (READ_FROM_STANDBY); process 1 reads everything from the primary
    servers.push(await startServer(url, { LOG_LEVEL: 'error' }));
    servers.push(await startServer(url, { LOG_LEVEL: 'error', READ_FROM_STANDBY: 'true' }));
    const cookie = await signInCookie(servers[0]!.baseUrl, account.email, account.password);
    const headers = { cookie, 'content-type': 'application/json' };
    const signIn = () => signInCookie(servers[0]!.baseUrl, account.email, account.password);

    console.log('\nreads before the faults:');
    for (const line of await checkStandbyReads(servers, headers, url, dir, failures))
      console.log(`  ${line}`);

    const only = failoverDrillOptions().phases;
    for (const [index, phase] of PHASES.entries()) {
      if (only && !only.includes(index + 1)) continue;
      const primary = await ha('primary', dir);
      const fail = (message: string) => failures.push(`${phase.name}: ${message}`);
      const before = await expectTopology(servers, primaryHost(url, primary), 'before the fault', fail);
      const { lines, figures } = await runPhase(phase, dir, primary, url, servers, headers, signIn, fail);
      console.log(
        `\n${phase.name} (node ${primary}):\n${[before, ...lines].map((l) => `  ${l}`).join('\n')}`,
      );
      const rejoinStart = Date.now();
      await ha(RECOVER[phase.fault], dir, primary);
      await ha('wait', dir, '120');
      const rejoined = seconds(Date.now() - rejoinStart);
      const now = await ha('primary', dir);
      if (now === primary) fail(`${primary} came back as the primary, not as the standby`);
      console.log(`  ${primary} back as the synchronous standby after ${rejoined} s`);
      console.log(`  ${await expectTopology(servers, primaryHost(url, now), 'after the rejoin', fail)}`);
      summary.push(`| ${phase.name} | ${figures} | ${rejoined} s |`);
    }

    console.log('\nreads after the faults:');
    for (const line of await checkStandbyReads(servers, headers, url, dir, failures))
      console.log(`  ${line}`);
  } finally {
    for (const s of servers) await s.stop();
    await ha('stop', dir).catch(() => undefined);
  }
  console.log(
    '\n| Fault | Acknowledged writes lost | Writes refused (503) | Writes succeed again (p1 / p2) |' +
      ' Live events on both streams again (p1 / p2) | App processes alive | Old primary back as standby |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const row of summary) console.log(row);
  console.log(`\nwhole run: ${seconds(Date.now() - started)} s`);
  if (failures.length > 0) {
    console.error(`\nFAILED:\n${failures.map((f) => `  - ${f}`).join('\n')}`);
    process.exit(1);
  }
  console.log('failover test passed');
}

/**
 * Both processes' /api/health name `host` as the node they write to, with a synchronous standby (decision 034). Polls
 * for a while: after a rejoin the standby catches up before it is synchronous.
 */
async function expectTopology(
  servers: RunningServer[],
  host: string,
  when: string,
  fail: (message: string) => void,
): Promise<string> {
  const until = Date.now() + TOPOLOGY_WAIT_MS;
  let seen: string[] = [];
  for (;;) {
    seen = await Promise.all(
      servers.map(async (server, i) => {
        const outcome = await request(server, i, '/api/health', {});
        const body = outcome.body as
          { writesTo?: string; replication?: { synchronous?: boolean } } | undefined;
        return `${outcome.status} ${body?.writesTo ?? '-'}${body?.replication?.synchronous ? ' synchronous' : ''}`;
      }),
    );
    if (seen.every((s) => s === `200 ${host} synchronous`))
      return `health ${when}: both processes write to ${host}, replication synchronous`;
    if (Date.now() > until) break;
    await sleep(250);
  }
  fail(
    `health ${when} did not name ${host} with synchronous replication on both processes: ${seen.join(', ')}`,
  );
  return `health ${when}: ${seen.join(', ')} (expected ${host} synchronous)`;
}

async function addWarehouse(server: RunningServer, headers: Headers, rows: number, cols: number) {
  const created = await request(server, 0, '/api/warehouse/add-warehouse', {
    method: 'POST',
    headers,
    body: JSON.stringify({
      name: `Failover ${Date.now()}`,
      rows,
      cols,
      field_capacity: 3,
      // room for the grid: a measured floor holds 5 ft per row and column
      length: 200,
      width: 200,
    }),
  });
  if (created.status !== 201) throw new Error(`could not create a warehouse: ${created.status}`);
  return Object.values((created.body as { fields: Record<string, { id: number }> }).fields).map((f) => f.id);
}

/**
 * Item 3 of the issue: with replay paused on the standby, a vault written through process 1 is missing from process
 * 2's export (READ_FROM_STANDBY: it reads the standby) but in process 1's (the switch off: the primary), and the
 * vault itself reads back on process 2 at once (what a user just changed reads from the primary). Once replay runs
 * again, process 2's export has it too.
 */
async function checkStandbyReads(
  servers: RunningServer[],
  headers: Headers,
  url: string,
  dir: string,
  failures: string[],
): Promise<string[]> {
  const fail = (message: string) => failures.push(`reads from the standby: ${message}`);
  const lines: string[] = [];
  const primary = await ha('primary', dir);
  const standby = primary === 'node1' ? 'node2' : 'node1';
  const [fieldId] = await addWarehouse(servers[0]!, headers, 1, 1);
  const exported = async (server: number) => {
    const res = await fetch(`${servers[server]!.baseUrl}/api/export/vaults.csv`, { headers });
    if (res.status !== 200) throw new Error(`process ${server + 1}'s export answered ${res.status}`);
    return res.text();
  };
  const standbyClient = new pg.Client({ connectionString: nodeUrl(url, standby) });
  await standbyClient.connect();
  const name = `S-${Date.now()}`;
  try {
    await standbyClient.query('select pg_wal_replay_pause()');
    const written = await request(servers[0]!, 0, '/api/vaults/', {
      method: 'POST',
      headers,
      body: JSON.stringify({
        vault_id: name,
        customer_name: 'STANDBY',
        order_name: 'S1',
        field_id: fieldId,
        position: 3,
      }),
    });
    if (written.status !== 201) throw new Error(`the vault for the read check answered ${written.status}`);
    const id = (written.body as { id: number }).id;
    const own = await request(servers[1]!, 1, `/api/vaults/${id}`, { headers });
    const ownName = (own.body as { name?: string } | undefined)?.name;
    lines.push(`the vault just written, read on process 2: ${own.status} ${ownName ?? ''}`);
    if (own.status !== 200 || ownName !== name) fail(`process 2 did not read back the vault just written`);
    // the standby pool may still be on the primary for a moment after a rejoin: it moves within a heartbeat or two
    let fromStandby = await exported(1);
    for (let i = 0; i < 20 && fromStandby.includes(name); i++) {
      await sleep(250);
      fromStandby = await exported(1);
    }
    const fromPrimary = await exported(0);
    lines.push(
      `replay paused on the standby (${standby}): export of process 1 ${fromPrimary.includes(name) ? 'has' : 'lacks'} ` +
        `the new vault, of process 2 (READ_FROM_STANDBY) ${fromStandby.includes(name) ? 'has' : 'lacks'} it`,
    );
    if (!fromPrimary.includes(name)) fail('process 1 (switch off) exported without the vault just written');
    if (fromStandby.includes(name))
      fail('process 2 (READ_FROM_STANDBY) did not read its export from the standby');
  } finally {
    await standbyClient.query('select pg_wal_replay_resume()').catch(() => undefined);
    await standbyClient.end();
  }
  let caughtUp = false;
  for (let i = 0; i < 40 && !caughtUp; i++) {
    caughtUp = (await exported(1)).includes(name);
    if (!caughtUp) await sleep(250);
  }
  lines.push(`replay resumed: export of process 2 ${caughtUp ? 'has' : 'still lacks'} the vault`);
  if (!caughtUp) fail('process 2 still exported without the vault after replay resumed');
  return lines;
}

/**
 * A connection opened to the primary before the fault: afterwards it must not answer (a killed node's connection
 * breaks, a frozen node's hangs). When it still answers, the fault missed the processes that serve connections.
 */
async function openWitness(url: string, node: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: nodeUrl(url, node) });
  client.on('error', () => undefined);
  await client.connect();
  await client.query('select 1');
  return client;
}

async function askWitness(client: pg.Client): Promise<'answered' | 'broken' | 'no answer'> {
  let timer: NodeJS.Timeout | undefined;
  const answer = await Promise.race([
    client.query('select 1').then(
      () => 'answered' as const,
      () => 'broken' as const,
    ),
    new Promise<'no answer'>((resolve) => {
      timer = setTimeout(() => resolve('no answer'), WITNESS_WAIT_MS);
    }),
  ]);
  clearTimeout(timer);
  (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
  return answer;
}

/** The processes a fault reached, from the script's record, and those still running (with their ps state). */
async function faultReach(dir: string, node: string, fault: Phase['fault']) {
  const reached = fs.readFileSync(`${dir}/${node}.faulted`, 'utf8').trim().split(/\s+/).filter(Boolean);
  // killed: none left but zombies (ended, not yet reaped); frozen: every one stopped (T) or a zombie, none missed
  const running = (await ha('check', dir, node))
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !/^\d+ Z/.test(line) && !(fault === 'freeze' && /^\d+ T/.test(line)));
  return { reached: reached.length, running };
}

async function runPhase(
  phase: Phase,
  dir: string,
  primaryNode: string,
  url: string,
  servers: RunningServer[],
  headers: Headers,
  signIn: () => Promise<string>,
  fail: (message: string) => void,
): Promise<{ lines: string[]; figures: string }> {
  const fieldIds = await addWarehouse(servers[0]!, headers, 30, 30);
  // a second session, known to process 2's session cache before the fault, is signed out after it (decision 024)
  const other = await signIn();
  const knownBefore = await request(servers[1]!, 1, '/api/auth/', { headers: { cookie: other } });
  if (knownBefore.status !== 200) throw new Error(`the second session answered ${knownBefore.status}`);
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

  const witness = await openWitness(url, primaryNode);
  await sleep(BEFORE_FAULT_MS);
  // the fault counts from the first signal the script sends (it prints when): on a busy machine, starting the script
  // and making sure every process of the node has stopped may take seconds
  const faultStart = Date.now();
  const firstSignal = Number((await ha(phase.fault, dir, primaryNode)).split('\n').pop());
  const scriptReturned = Date.now();
  faultAt = Number.isFinite(firstSignal) && firstSignal > 0 ? firstSignal : faultStart;
  const [witnessAnswer, reach] = await Promise.all([
    askWitness(witness),
    faultReach(dir, primaryNode, phase.fault),
  ]);
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
  // writes are back: the second session is signed out on process 1, and process 2 must refuse it from then on
  let signedOut = await request(servers[0]!, 0, '/api/auth/logout', {
    method: 'POST',
    headers: { cookie: other },
  });
  for (let i = 0; i < 20 && signedOut.status !== 200; i++) {
    await sleep(250);
    signedOut = await request(servers[0]!, 0, '/api/auth/logout', {
      method: 'POST',
      headers: { cookie: other },
    });
  }
  await sleep(300);
  const afterSignOut: Array<number | string> = [];
  for (let i = 0; i < 5; i++) {
    afterSignOut.push((await request(servers[1]!, 1, '/api/auth/', { headers: { cookie: other } })).status);
    await sleep(100);
  }
  await sleep(AFTER_RECOVERY_MS);
  stopping = true;
  await load;
  await Promise.all([...pending, ...probes]);

  const lines: string[] = [];
  if (failoverDrillOptions().timeline) {
    lines.push(
      `fault at ${new Date(faultAt).toISOString()}, ${faultAt - faultStart} ms after its script started; ` +
        `the script returned ${scriptReturned - faultAt} ms after the first signal`,
    );
    for (const o of [...writes].sort((a, b) => a.sentAt - b.sentAt))
      lines.push(
        `  ${((o.sentAt - faultAt) / 1000).toFixed(2)} -> ${((o.doneAt - faultAt) / 1000).toFixed(2)} p${o.server + 1} ${o.status}`,
      );
  }
  const lostOfNode = phase.fault === 'kill' ? 'killed' : 'stopped';
  lines.push(
    `fault reached ${reach.reached} processes of ${primaryNode} (keeper, postmaster, backends); ` +
      `${reach.running.length} not ${lostOfNode}; a connection opened before it: ${witnessAnswer}`,
  );
  if (reach.reached < 3 || reach.running.length > 0)
    fail(
      `the fault did not take effect: processes of the node not ${lostOfNode} (pid, state): ${reach.running.join(', ')}`,
    );
  if (witnessAnswer === 'answered')
    fail('a connection opened before the fault still answered after it: the fault did not take effect');

  // every acknowledged write is on the new primary, row by row
  const newPrimary = new pg.Client({ connectionString: nodeUrl(url, await currentPrimary(dir)) });
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

  const backFigures: string[] = [];
  for (let i = 0; i < servers.length; i++) {
    const back = backAt(i);
    const figure = Number.isFinite(back) ? `${seconds(back - faultAt)} s` : 'never';
    lines.push(`process ${i + 1}: writes succeed again ${figure} after the fault`);
    backFigures.push(figure);
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
  const liveFigures: string[] = [];
  for (const [i, stream] of streams.entries()) {
    const missing = [...acknowledged.keys()].filter((id) => !stream.arrivals.has(id));
    const firstLive = Math.min(...afterFault.map((id) => stream.arrivals.get(id) ?? Infinity));
    const figure = Number.isFinite(firstLive) ? `${seconds(firstLive - faultAt)} s` : 'never';
    lines.push(
      `stream of process ${i + 1}: live events again ${figure} after the fault; missing ${missing.length}`,
    );
    liveFigures.push(figure);
    if (missing.length > 0) fail(`stream ${i + 1} missed ${missing.length} acknowledged writes`);
    if (!Number.isFinite(firstLive)) fail(`stream ${i + 1} got no event after the fault`);
    stream.close();
  }

  const alive = servers.filter((s) => s.process.exitCode === null && s.process.signalCode === null).length;
  lines.push(`app processes alive: ${alive}/${servers.length}`);
  if (alive !== servers.length) fail(`${servers.length - alive} app processes died`);
  lines.push(
    `second session signed out on process 1 (${signedOut.status}), then on process 2: ${afterSignOut.join(' ')}`,
  );
  if (signedOut.status !== 200) fail(`the sign-out on process 1 answered ${signedOut.status}`);
  if (afterSignOut.some((status) => status !== 401))
    fail(`process 2 still took a signed-out session after the switch (${afterSignOut.join(' ')})`);
  lines.push(`health named as written to: ${[...writers].join(', ')}`);
  // the fault must have taken effect: after it, the processes write to another node
  const faulted = primaryHost(url, primaryNode);
  if (![...writersAfter].some((w) => w !== faulted))
    fail(
      `health never named a node other than the faulted ${faulted} after the fault: the fault did not take effect`,
    );
  const figures = [
    `${lost.length} of ${acknowledged.size}`,
    `${refused.length} of ${writes.length}`,
    backFigures.join(' / '),
    liveFigures.join(' / '),
    `${alive}/${servers.length}`,
  ].join(' | ');
  return { lines, figures };
}

/** `host:port` of a node (node1 or node2) as health names it: the script gives node1 the first port, node2 the next. */
function primaryHost(url: string, node: string): string {
  const hosts = /@([^/]+)\//.exec(url)![1]!.split(',');
  return hosts[node === 'node1' ? 0 : 1]!;
}

/** The URL of one node. */
function nodeUrl(url: string, node: string): string {
  return url.replace(/@[^/]+\//, `@${primaryHost(url, node)}/`);
}

/** The node the monitor names primary now, once there is one. */
async function currentPrimary(dir: string): Promise<string> {
  let node = await ha('primary', dir);
  for (let i = 0; i < 100 && !node; i++) {
    await sleep(200);
    node = await ha('primary', dir);
  }
  return node;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
