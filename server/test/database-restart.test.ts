import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { openDatabase } from '../db/database';
import { buildAccount } from '../factories';
import { migrateToLatest } from '../db/migrate';
import { DATABASE_UNREACHABLE } from '../http/errors';
import { type RunningServer, signInCookie, startServer } from './server-process';

const run = promisify(execFile);
const postgresConfigured = loadConfig().testPostgresUrl !== undefined;

const WRITE_EVERY_MS = 50; // 20 writes a second, shared by the two processes
const CLIENT_TIMEOUT_MS = 8000;
const SECONDS_DOWN = 2;
const RECOVERY_BOUND_MS = 1500;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

interface Outcome {
  server: number;
  sentAt: number;
  doneAt: number;
  /** the HTTP status, or 'timeout' / 'network' when none came */
  status: number | 'timeout' | 'network';
  body?: unknown;
}

interface LiveStream {
  /** vault id -> when its vault.added event arrived */
  arrivals: Map<number, number>;
  close(): void;
}

/** A browser's live-update stream, read through fetch as the web app reads it. */
async function openLiveStream(baseUrl: string, cookie: string): Promise<LiveStream> {
  const controller = new AbortController();
  const res = await fetch(`${baseUrl}/api/events`, { headers: { cookie }, signal: controller.signal });
  expect(res.status).toBe(200);
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

describe.skipIf(!postgresConfigured)('a PostgreSQL restart under load, two server processes', () => {
  let pgDir: string | undefined;
  const servers: RunningServer[] = [];
  afterAll(async () => {
    for (const s of servers) if (s.process.exitCode === null) await s.stop();
    if (pgDir) await run('bash', ['scripts/postgres-temp.sh', 'stop', pgDir]);
  });

  it('stays up, answers 503 while the database is down, recovers within a second, loses no acknowledged write and no live event', async () => {
    // a PostgreSQL of this test's own, since it is restarted
    const started = await run('bash', ['scripts/postgres-temp.sh', 'start']);
    const [url, dir] = started.stdout.trim().split(' ');
    pgDir = dir;
    const setup = openDatabase({ kind: 'postgres', url: url! });
    await migrateToLatest(setup.db);
    const account = await buildAccount(setup.db);
    await setup.close();

    for (let i = 0; i < 2; i++) servers.push(await startServer(url!, { LOG_LEVEL: 'error' }));
    const cookie = await signInCookie(servers[0]!.baseUrl, account.email, account.password);
    const headers = { cookie, 'content-type': 'application/json' };
    const created = await fetch(`${servers[0]!.baseUrl}/api/warehouse/add-warehouse`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        name: 'Restart',
        rows: 20,
        cols: 20,
        field_capacity: 3,
        length: 100,
        width: 100,
      }),
    });
    expect(created.status).toBe(201);
    const warehouse = (await created.json()) as { id: number; fields: Record<string, { id: number }> };
    const fieldIds = Object.values(warehouse.fields).map((f) => f.id);
    const streams = await Promise.all(servers.map((s) => openLiveStream(s.baseUrl, cookie)));

    const writes: Outcome[] = [];
    const health: Outcome[] = [];
    const acknowledged = new Map<number, string>(); // vault id -> name
    const request = async (server: number, path: string, init: RequestInit, into: Outcome[]) => {
      const sentAt = Date.now();
      const outcome: Outcome = { server, sentAt, doneAt: 0, status: 'network' };
      try {
        const res = await fetch(`${servers[server]!.baseUrl}${path}`, {
          ...init,
          signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
        });
        outcome.status = res.status;
        outcome.body = await res.json();
      } catch (error) {
        outcome.status = (error as Error).name === 'TimeoutError' ? 'timeout' : 'network';
      }
      outcome.doneAt = Date.now();
      into.push(outcome);
      return outcome;
    };

    // the load: one write every 50 ms, alternating between the processes, each into a field of its own
    let stopping = false;
    const pending: Promise<unknown>[] = [];
    const loadStart = Date.now();
    const load = (async () => {
      for (let n = 0; !stopping && n < fieldIds.length; n++) {
        const name = `R-${n}`;
        pending.push(
          request(
            n % 2,
            '/api/vaults/',
            {
              method: 'POST',
              headers,
              body: JSON.stringify({
                vault_id: name,
                customer_name: 'RESTART',
                order_name: 'R1',
                field_id: fieldIds[n],
                position: 3,
              }),
            },
            writes,
          ).then((outcome) => {
            if (outcome.status === 201) acknowledged.set((outcome.body as { id: number }).id, name);
          }),
        );
        await sleep(loadStart + (n + 1) * WRITE_EVERY_MS - Date.now());
      }
    })();
    const probes = servers.map(async (_, server) => {
      while (!stopping) {
        await request(server, '/api/health', {}, health);
        await sleep(100);
      }
    });

    await sleep(2000);
    const downAt = Date.now();
    const restart = run('bash', ['scripts/postgres-temp.sh', 'restart', pgDir!, String(SECONDS_DOWN)]);
    // when PostgreSQL accepts connections again, seen from outside the app
    let wentDown = false;
    let upAt = 0;
    while (!upAt) {
      const probe = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
      probe.on('error', () => undefined);
      try {
        await probe.connect();
        await probe.query('select 1');
        if (wentDown) upAt = Date.now();
      } catch {
        wentDown = true;
      }
      await probe.end().catch(() => undefined);
      if (!upAt) await sleep(20);
    }
    await restart;
    await sleep(3000);
    stopping = true;
    await load;
    await Promise.all([...pending, ...probes]);

    // both processes are still there
    for (const s of servers) expect(s.process.exitCode === null && s.process.signalCode === null).toBe(true);

    // every answer was a 201 or a readable 503: no 500, no hang, no dropped connection
    const all = [...writes, ...health];
    const unexpected = all.filter((o) => o.status !== 503 && o.status !== 201 && o.status !== 200);
    expect(unexpected).toEqual([]);
    for (const o of all.filter((o) => o.status === 503)) {
      expect((o.body as { errors: string[] }).errors).toEqual([DATABASE_UNREACHABLE]);
    }
    const refusedWrites = writes.filter((o) => o.status === 503);
    expect(refusedWrites.length).toBeGreaterThan(0);

    // the health check went 503 while the database was down, and 200 again afterwards, on both processes
    const figures: string[] = [];
    for (let server = 0; server < servers.length; server++) {
      const mine = health.filter((o) => o.server === server).sort((a, b) => a.sentAt - b.sentAt);
      const firstDown = mine.findIndex((o) => o.status === 503);
      expect(firstDown).toBeGreaterThanOrEqual(0);
      expect(mine.slice(firstDown).some((o) => o.status === 200)).toBe(true);

      // recovery: from the moment PostgreSQL accepts connections to this process's first success on a request
      // sent after that; and nothing sent later than the bound fails
      const after = [...writes, ...mine].filter((o) => o.server === server && o.sentAt >= upAt);
      const firstOk = Math.min(
        ...after.filter((o) => o.status === 200 || o.status === 201).map((o) => o.doneAt),
      );
      const recoveryMs = firstOk - upAt;
      const lateFailures = after.filter((o) => o.sentAt > upAt + RECOVERY_BOUND_MS && o.status === 503);
      figures.push(`process ${server + 1}: back ${(recoveryMs / 1000).toFixed(2)} s after the database`);
      expect(recoveryMs).toBeLessThan(RECOVERY_BOUND_MS);
      expect(lateFailures).toEqual([]);
    }

    // every acknowledged write is in the database
    const after = (await (
      await fetch(`${servers[1]!.baseUrl}/api/warehouse/${warehouse.id}`, { headers: { cookie } })
    ).json()) as { fields: Record<string, { vaults: Record<string, { name: string }> }> };
    const present = new Set(
      Object.values(after.fields).flatMap((f) => Object.values(f.vaults).map((v) => v.name)),
    );
    expect([...acknowledged.values()].filter((name) => !present.has(name))).toEqual([]);

    // every acknowledged write reached both browsers' streams, and soon after the database was back
    const until = Date.now() + 5000;
    while (
      Date.now() < until &&
      streams.some((s) => [...acknowledged.keys()].some((id) => !s.arrivals.has(id)))
    ) {
      await sleep(50);
    }
    const firstWriteAfter = writes
      .filter((o) => o.status === 201 && o.sentAt >= upAt)
      .sort((a, b) => a.doneAt - b.doneAt)[0]!;
    const firstVaultAfter = (firstWriteAfter.body as { id: number }).id;
    for (const [i, stream] of streams.entries()) {
      expect([...acknowledged.keys()].filter((id) => !stream.arrivals.has(id))).toEqual([]);
      const liveMs = stream.arrivals.get(firstVaultAfter)! - firstWriteAfter.doneAt;
      figures.push(`stream ${i + 1}: first event after recovery ${liveMs} ms after its write`);
      expect(liveMs).toBeLessThan(1000);
    }
    for (const s of streams) s.close();

    console.log(
      `database restart (down ${SECONDS_DOWN} s, accepting again ${((upAt - downAt) / 1000).toFixed(1)} s after the stop began): ` +
        `${writes.length} writes sent, ${acknowledged.size} acknowledged (all present), ${refusedWrites.length} answered 503 ` +
        `while it was down, health 503 ${health.filter((o) => o.status === 503).length} times; ${figures.join('; ')}`,
    );
  }, 90_000);
});
