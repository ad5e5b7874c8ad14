// npm run bench -- --pull-receive: issue 16's server-side figures on a company with ~20,000 vaults, on SQLite and
// PostgreSQL: the pull plan of an order (the pull list read) and a receiving proposal for 30 vaults. The work is timed
// in the server's own code (the service calls the routes make), without HTTP, and written to its own section of
// docs/performance.md.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../server/db/database';
import { migrateToLatest } from '../server/db/migrate';
import { createPullList, loadPullList } from '../server/features/pull-lists/pull-lists.service';
import { proposeShipment } from '../server/features/receiving/receiving.service';
import { LARGE_DATASET, generateDataset } from './generate-dataset';
import { analyze } from './history.repo';
import { writePerformanceSection } from './performance-doc';

type Engine = 'sqlite' | 'postgres';
const RUNS = 60;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)]!;
const ms = (x: number) => x.toFixed(1);

interface Figures {
  engine: Engine;
  vaults: number;
  plan: number[];
  proposal: number[];
  planVaults: number;
}

async function measure(engine: Engine, url: string): Promise<Figures> {
  const database = openDatabase(
    url.startsWith('sqlite:') ? { kind: 'sqlite', file: url.slice(7) } : { kind: 'postgres', url },
  );
  try {
    await migrateToLatest(database.db);
    // 14 warehouses of 30 x 20 fields, 3 slots, 80 % full: ~20,000 vaults in the company
    const [company] = await generateDataset(database.db, {
      ...LARGE_DATASET,
      companies: 1,
      warehousesPerCompany: 14,
      racksPerWarehouse: 0,
    });
    // the planner's statistics, as a database in service has them: PostgreSQL's autovacuum analyzes a freshly
    // loaded table only after a while, and until then the proposal's plan took ~3 s instead of ~30 ms
    await analyze(database.db, engine);
    const actor = { companyId: company!.companyId, userId: null };
    // the orders with the most vaults: the biggest plans
    const orders = await database.db
      .selectFrom('vaults as v')
      .innerJoin('orders as o', 'o.id', 'v.order_id')
      .select((eb) => ['o.name', eb.fn.countAll<number>().as('n')])
      .where('v.company_id', '=', actor.companyId)
      .groupBy('o.name')
      .orderBy('n', 'desc')
      .limit(20)
      .execute();
    const lists = [];
    for (const order of orders)
      lists.push(await createPullList(database.db, actor, { order_name: order.name }));
    const plan: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const list = lists[i % lists.length]!;
      const start = performance.now();
      await loadPullList(database.db, actor.companyId, list.id);
      plan.push(performance.now() - start);
    }
    const customer = (await database.db
      .selectFrom('customers')
      .select('name')
      .where('company_id', '=', actor.companyId)
      .executeTakeFirstOrThrow())!.name;
    const shipment = {
      customer_name: customer,
      order_name: 'BENCH-IN',
      vaults: Array.from({ length: 30 }, (_, i) => ({
        type: i % 10 === 0 ? ('couchbox' as const) : ('vault' as const),
        name: `IN-${i}`,
      })),
    };
    const proposal: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const start = performance.now();
      await proposeShipment(database.db, actor.companyId, shipment);
      proposal.push(performance.now() - start);
    }
    return {
      engine,
      vaults: company!.vaultCount,
      plan: plan.slice(5),
      proposal: proposal.slice(5),
      planVaults: Math.max(...lists.map((l) => l.vaults.length)),
    };
  } finally {
    await database.close();
  }
}

export async function runPullReceive(engines: Engine[]): Promise<void> {
  const results: Figures[] = [];
  for (const engine of engines) {
    if (engine === 'sqlite') {
      const dir = path.resolve('.tmp', 'bench-pull');
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(dir, { recursive: true });
      results.push(await measure(engine, `sqlite:${path.join(dir, 'bench.db')}`));
    } else {
      const out = execFileSync('bash', ['scripts/postgres-temp.sh', 'start'], { encoding: 'utf8' }).trim();
      const [url, dir] = out.split(' ');
      try {
        results.push(await measure(engine, url!));
      } finally {
        execFileSync('bash', ['scripts/postgres-temp.sh', 'stop', dir!]);
      }
    }
  }
  const lines = [
    '### Pull plan and receiving proposal (issue 16)',
    '',
    '`npm run bench -- --pull-receive`: one company with the vaults below, timed inside the server (the service call',
    `a route makes, without HTTP), ${RUNS - 5} runs after 5 warm-up runs. Targets: pull plan of an order <= 20 ms,`,
    'receiving proposal for 30 vaults <= 50 ms.',
    '',
    `Machine: ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)} when the run ended (figures taken on a busy`,
    'machine are slower by about the load per core; compare them on a quiet one).',
    '',
    '| Engine | Vaults | Pull plan median / p95 (ms) | Proposal for 30 vaults median / p95 (ms) |',
    '| --- | ---: | ---: | ---: |',
    ...results.map(
      (r) =>
        `| ${r.engine} | ${r.vaults} | ${ms(median(r.plan))} / ${ms(p95(r.plan))} | ${ms(median(r.proposal))} / ${ms(p95(r.proposal))} |`,
    ),
    '',
  ];
  console.log(lines.join('\n'));
  writePerformanceSection('pull-receive', `${lines.join('\n')}\n`);
}
