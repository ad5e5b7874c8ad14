// npx tsx bench/load-day.ts: the long busy-day run (50 people of one company for 60 s by default) on SQLite and on a
// throw-away PostgreSQL, each against a real server process on a freshly seeded database. Exits non-zero on any
// server error, unexpected answer, or lost or duplicated vault or pallet.
// Options: --seconds=60 --users=50 --engines=sqlite,postgres
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../server/db/database';
import { migrateToLatest } from '../server/db/migrate';
import { DEMO_LOGIN, seedDemoIfEmpty } from '../server/demo-seed';
import { type LoadDayReport, describeLoadDay, runLoadDay } from '../server/test/load-day';
import { startServer } from '../server/test/server-process';

type Engine = 'sqlite' | 'postgres';
const option = (name: string, fallback: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const SECONDS = Number(option('seconds', '60'));
const USERS = Number(option('users', '50'));
const ENGINES = option('engines', 'sqlite,postgres').split(',') as Engine[];
const workDir = path.resolve('.tmp', 'load-day');

async function prepareDatabase(engine: Engine): Promise<{ url: string; cleanup: () => void }> {
  if (engine === 'sqlite') {
    fs.rmSync(workDir, { recursive: true, force: true });
    fs.mkdirSync(workDir, { recursive: true });
    return {
      url: `sqlite:${path.join(workDir, 'load-day.db')}`,
      cleanup: () => fs.rmSync(workDir, { recursive: true, force: true }),
    };
  }
  const out = execFileSync('bash', ['scripts/postgres-temp.sh', 'start'], { encoding: 'utf8' }).trim();
  const [url, dir] = out.split(' ');
  return { url: url!, cleanup: () => execFileSync('bash', ['scripts/postgres-temp.sh', 'stop', dir!]) };
}

async function runEngine(engine: Engine): Promise<LoadDayReport> {
  const { url, cleanup } = await prepareDatabase(engine);
  try {
    const setup = openDatabase(
      url.startsWith('sqlite:')
        ? { kind: 'sqlite', file: url.slice('sqlite:'.length) }
        : { kind: 'postgres', url },
    );
    await migrateToLatest(setup.db);
    await seedDemoIfEmpty(setup.db);
    await setup.close();
    const server = await startServer(url);
    try {
      return await runLoadDay({
        baseUrl: server.baseUrl,
        email: DEMO_LOGIN.email,
        password: DEMO_LOGIN.password,
        users: USERS,
        durationMs: SECONDS * 1000,
      });
    } finally {
      await server.stop();
    }
  } finally {
    cleanup();
  }
}

let failed = false;
for (const engine of ENGINES) {
  const report = await runEngine(engine);
  console.log(describeLoadDay(`load day on ${engine}`, report));
  const problems = [
    ...report.serverErrors,
    ...report.networkErrors,
    ...report.unexpected,
    ...report.integrity,
  ];
  for (const problem of problems.slice(0, 20)) console.log(`  ! ${problem}`);
  if (problems.length > 0) failed = true;
}
process.exitCode = failed ? 1 : 0;
