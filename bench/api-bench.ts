import http from 'node:http';
import autocannon from 'autocannon';

export interface RouteResult {
  route: string;
  connections: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /**
   * Server CPU time per request. Unlike latency it hardly depends on what else the shared machine is doing, so it
   * is the figure to compare between two runs.
   */
  cpuMsPerRequest: number;
  /** CPU time of the database server's processes per request (PostgreSQL writes only) */
  dbCpuMsPerRequest?: number;
  /** compressed answer size in bytes (reads only) */
  bytes?: number;
}

/** Reads the server's CPU time, so a result can say what one request cost the server. */
export type CpuClock = () => number;

interface Run {
  result: autocannon.Result;
  /** ms from the start to the last response: autocannon ends its runs on a whole-second tick */
  activeMs: number;
}

function run(options: autocannon.Options): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let lastResponse = started;
    const instance = autocannon(options, (error: unknown, result: autocannon.Result) =>
      error
        ? reject(error instanceof Error ? error : new Error(String(error)))
        : resolve({ result, activeMs: lastResponse - started }),
    );
    instance.on('response', () => (lastResponse = performance.now()));
  });
}

function summarise(
  route: string,
  connections: number,
  { result, activeMs }: Run,
  cpuMs: number,
): RouteResult {
  const requests = result.requests.total;
  return {
    route,
    connections,
    requests,
    rps: Math.round(requests / Math.max(activeMs / 1000, 0.001)),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    cpuMsPerRequest: requests > 0 ? Math.round((cpuMs / requests) * 100) / 100 : 0,
  };
}

/** Bytes on the wire of one gzip answer (undici's fetch would hand back the decompressed body). */
function compressedSize(baseUrl: string, cookie: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(`${baseUrl}${path}`, { headers: { cookie, 'accept-encoding': 'gzip' } }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve(bytes));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** Reads: one route for a fixed time at a fixed number of connections. */
export async function benchRead(
  baseUrl: string,
  cookie: string,
  route: string,
  path: string,
  seconds: number,
  cpu: CpuClock,
  connections = 10,
  headers: Record<string, string> = {},
): Promise<RouteResult> {
  const before = cpu();
  const result = await run({
    url: `${baseUrl}${path}`,
    connections,
    duration: seconds,
    headers: { cookie, 'accept-encoding': 'gzip', ...headers },
  });
  const summary = summarise(route, connections, result, cpu() - before);
  return { ...summary, bytes: await compressedSize(baseUrl, cookie, path) };
}

type Step = (
  field: { id: number; vaultIds: number[] },
  index: number,
) => { method: 'POST' | 'PUT' | 'DELETE'; path: string; body?: unknown };

/**
 * Writes: every connection claims a field of its own and runs `steps` against it in order (slot order matters:
 * a field fills from the bottom slot up), then claims the next field, until every field is done.
 */
export async function benchWrites(
  baseUrl: string | string[],
  cookie: string,
  route: string,
  fields: { id: number; vaultIds: number[] }[],
  stepsPerField: number,
  step: Step,
  cpu: CpuClock,
  dbCpu?: CpuClock,
  connections = 20,
): Promise<RouteResult> {
  const queue = [...fields];
  const requests = Array.from({ length: stepsPerField }, (_, index) => ({
    setupRequest(req: autocannon.Request, context: Record<string, unknown>) {
      if (index === 0) context.field = queue.shift();
      const field = context.field as { id: number; vaultIds: number[] } | undefined;
      if (!field) return req;
      const { method, path, body } = step(field, index);
      const headers: Record<string, string> = { cookie };
      if (body !== undefined) headers['content-type'] = 'application/json';
      return { ...req, method, path, headers, body: body === undefined ? undefined : JSON.stringify(body) };
    },
  }));
  const before = cpu();
  const dbBefore = dbCpu?.() ?? 0;
  const result = await run({
    // several server processes: autocannon spreads its connections over the addresses in turn
    url: baseUrl as string,
    connections,
    amount: fields.length * stepsPerField,
    requests: requests as autocannon.Request[],
  });
  const summary = summarise(route, connections, result, cpu() - before);
  if (!dbCpu) return summary;
  const dbMs = dbCpu() - dbBefore;
  return { ...summary, dbCpuMsPerRequest: Math.round((dbMs / Math.max(summary.requests, 1)) * 100) / 100 };
}

export interface LoadWithProbe {
  route: string;
  connections: number;
  requests: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** highest resident memory of the server, sampled every 100 ms while the load ran */
  peakRssMiB: number;
  /** GET /api/health timed every 100 ms while the load ran */
  healthP50: number;
  healthMax: number;
  healthSamples: number;
}

/**
 * A heavy read at `connections` at once, `rounds` times each, while a load balancer's probe keeps asking /api/health:
 * what the other users of the server feel, and how much memory the burst takes.
 */
export async function benchUnderLoad(
  baseUrl: string,
  cookie: string,
  route: string,
  path: string,
  rounds: number,
  rssMiB: () => number,
  connections = 10,
): Promise<LoadWithProbe> {
  let peakRssMiB = rssMiB();
  const health: number[] = [];
  let running = true;
  const probe = (async () => {
    while (running) {
      const started = performance.now();
      await fetch(`${baseUrl}/api/health`).then((res) => res.arrayBuffer());
      health.push(performance.now() - started);
      peakRssMiB = Math.max(peakRssMiB, rssMiB());
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const { result } = await run({
    url: `${baseUrl}${path}`,
    connections,
    amount: connections * rounds,
    // every answer counts, however slow: a timed-out request would be sent again and pile up
    timeout: 300,
    headers: { cookie, 'accept-encoding': 'gzip' },
  });
  running = false;
  await probe;
  health.sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round(health[Math.min(health.length - 1, Math.floor(q * health.length))] ?? 0);
  return {
    route,
    connections,
    requests: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    peakRssMiB,
    healthP50: at(0.5),
    healthMax: Math.round(health.at(-1) ?? 0),
    healthSamples: health.length,
  };
}
