import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { environmentWith } from '../config';

export interface RunningServer {
  baseUrl: string;
  process: ChildProcess;
  stop(): Promise<void>;
  /** resident memory of the server process, in MiB */
  rssMiB(): number;
  /** CPU time (user + system) the server process has used so far, in ms */
  cpuMs(): number;
}

export interface StartOptions {
  /** extra flags for node itself, e.g. `--cpu-prof` */
  nodeArgs?: string[];
  /**
   * Run the TypeScript sources through tsx (as `npm run dev` does) instead of the compiled bundle. The loader
   * costs about 50 MiB and a second of start-up, so measurements use the bundle.
   */
  fromSource?: boolean;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

let bundle: Promise<string> | undefined;

/**
 * Compiles the server into one JavaScript file (dependencies stay in node_modules), once per test process.
 * Several runs may share the working tree, so each writes its own file and renames it into place.
 */
export function serverBundle(): Promise<string> {
  bundle ??= (async () => {
    const { build } = await import('esbuild');
    const outFile = path.resolve('dist', 'server', 'main.mjs');
    const tempFile = `${outFile}.${process.pid}.tmp`;
    await build({
      entryPoints: [path.resolve('server', 'main.ts')],
      outfile: tempFile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      logLevel: 'warning',
    });
    fs.renameSync(tempFile, outFile);
    return outFile;
  })();
  return bundle;
}

/** Starts the real server on a free port, without the web build step of `npm start`. */
export async function startServer(
  databaseUrl: string,
  extraEnv: Record<string, string> = {},
  options: StartOptions = {},
): Promise<RunningServer> {
  const port = await freePort();
  const entry = options.fromSource ? ['--import', 'tsx', 'server/main.ts'] : [await serverBundle()];
  // as `npm start` runs it (scripts/start.mjs): the heap limit that keeps V8 collecting garbage early
  const child = spawn(process.execPath, ['--max-old-space-size=512', ...(options.nodeArgs ?? []), ...entry], {
    env: {
      // as `npm start` runs it
      MALLOC_ARENA_MAX: '2',
      ...environmentWith({
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: databaseUrl,
        SEED_DEMO: 'false',
        LOG_LEVEL: 'warn',
        LOGIN_RATE_LIMIT: '100000',
        ...extraEnv,
      }),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  let ready = false;
  for (let i = 0; i < 300 && !ready; i++) {
    try {
      ready = (await fetch(`${baseUrl}/api/health`)).ok;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    if (!ready) await new Promise((r) => setTimeout(r, 100));
  }
  if (!ready) {
    child.kill('SIGKILL');
    throw new Error(`server on port ${port} did not answer /api/health within 30 s`);
  }
  const procFile = (name: string) => fs.readFileSync(`/proc/${child.pid}/${name}`, 'utf8');
  return {
    baseUrl,
    process: child,
    rssMiB() {
      const kb = Number(/VmRSS:\s+(\d+)/.exec(procFile('status'))?.[1] ?? 0);
      return Math.round(kb / 1024);
    },
    cpuMs() {
      // utime and stime (fields 14 and 15, counted from after the command name, which may hold spaces) in clock
      // ticks of 10 ms: Linux reports them in USER_HZ, which is 100
      const stat = procFile('stat');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) * 10;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export async function signInCookie(baseUrl: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`sign-in failed: ${res.status}`);
  const cookie = res.headers.get('set-cookie') ?? '';
  return cookie.split(';')[0]!;
}
