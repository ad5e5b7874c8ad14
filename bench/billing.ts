// npm run bench -- --billing: issue 28's billing run for 5,000 storage accounts holding 20,000 units, on SQLite and
// PostgreSQL, timed inside the server (the service calls the routes make, without HTTP): the dry run, the run that
// issues every invoice, and the same run again (which finds them all issued). Written to docs/performance.md.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { nowIso, openDatabase } from '../server/db/database';
import { migrateToLatest } from '../server/db/migrate';
import { buildAccount } from '../server/factories';
import { dryRun, issueRun } from '../server/features/billing/billing-run.service';
import { insertMany } from './dataset.repo';
import { analyze } from './history.repo';
import { writePerformanceSection } from './performance-doc';

type Engine = 'sqlite' | 'postgres';
const ACCOUNTS = 5_000;
const UNITS_PER_ACCOUNT = 4;
const PERIOD = '2026-10';
const TYPES = ['vault', 'vault', 'liftvan', 't2'] as const;

interface Figures {
  engine: Engine;
  /** CPU seconds of the run that issues every invoice: this process, and on PostgreSQL its server processes */
  issueCpu: number;
  accounts: number;
  units: number;
  invoices: number;
  lines: number;
  dry: number;
  issue: number;
  again: number;
}

/**
 * CPU seconds used so far by this process and, given PostgreSQL's data folder, by its server: the postmaster with the
 * children it has reaped, plus its live children (the pool's backends). On a machine shared with other work the wall
 * time of a run grows with the load; the CPU it takes does not, so a change is compared on this figure.
 */
function cpuSeconds(pgData?: string): number {
  const own = process.cpuUsage();
  let total = (own.user + own.system) / 1e6;
  if (!pgData) return total;
  const ticks = 100; // USER_HZ on Linux
  const statOf = (pid: string) => {
    try {
      const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      // the fields after the command name, which is in parentheses and may hold spaces
      return text.slice(text.lastIndexOf(')') + 2).split(' ');
    } catch {
      return null;
    }
  };
  const postmaster = fs.readFileSync(path.join(pgData, 'postmaster.pid'), 'utf8').split('\n')[0]!.trim();
  const main = statOf(postmaster);
  // fields 14-17 of /proc/<pid>/stat: utime, stime, cutime, cstime (here from index 11, after pid and name)
  if (main) total += (Number(main[11]) + Number(main[12]) + Number(main[13]) + Number(main[14])) / ticks;
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    const stat = statOf(pid);
    if (stat && stat[1] === postmaster) total += (Number(stat[11]) + Number(stat[12])) / ticks;
  }
  return total;
}

const day = (offset: number) => new Date(Date.UTC(2026, 0, 1) + offset * 86_400_000).toISOString();

async function measure(engine: Engine, url: string, pgData?: string): Promise<Figures> {
  const database = openDatabase(
    url.startsWith('sqlite:') ? { kind: 'sqlite', file: url.slice(7) } : { kind: 'postgres', url },
  );
  const db = database.db;
  try {
    await migrateToLatest(db);
    const owner = await buildAccount(db, { company: `Billing Bench ${engine}` });
    const companyId = owner.companyId;
    const now = nowIso();
    const customerIds = await insertMany(
      db,
      'customers',
      Array.from({ length: ACCOUNTS }, (_, i) => ({ company_id: companyId, name: `BENCH CUSTOMER ${i}` })),
    );
    const orderIds = await insertMany(
      db,
      'orders',
      Array.from({ length: ACCOUNTS }, (_, i) => ({ company_id: companyId, name: `BENCH-ORDER-${i}` })),
    );
    // staged units moved in over ten months; one account in ten had a unit released during the billed month
    await insertMany(
      db,
      'vaults',
      Array.from({ length: ACCOUNTS * UNITS_PER_ACCOUNT }, (_, n) => {
        const a = Math.floor(n / UNITS_PER_ACCOUNT);
        const k = n % UNITS_PER_ACCOUNT;
        const created = day((a * 7 + k) % 300);
        return {
          company_id: companyId,
          name: `BV-${n}`,
          customer_id: customerIds[a]!,
          order_id: orderIds[a]!,
          field_id: null,
          position: null,
          type: TYPES[k]!,
          note: null,
          created_at: created,
          updated_at: created,
          released_at: a % 10 === 0 && k === 0 ? day(280 + (a % 20)) : null,
          released_by: null,
          label_code: null,
        };
      }),
    );
    const accountIds = await insertMany(
      db,
      'storage_accounts',
      customerIds.map((customerId, a) => ({
        company_id: companyId,
        customer_id: customerId,
        kind: a % 5 === 0 ? 'sit' : 'permanent',
        sit_authorization: a % 5 === 0 ? `AUTH-${a}` : null,
        sit_payer: a % 5 === 0 ? 'agency' : null,
        agency_name: a % 5 === 0 ? 'Bench Van Lines' : null,
        agency_reference: null,
        sit_start: a % 5 === 0 ? day(200 + (a % 90)).slice(0, 10) : null,
        sit_days_allowed: a % 5 === 0 ? 90 : null,
        billing_cycle: a % 4 === 0 ? 'thirty-days' : 'calendar',
        bill_to_name: `BENCH CUSTOMER ${a}`,
        bill_to_address: null,
        declared_value: a % 3 === 0 ? 1_500_000 : 0,
        note: null,
        created_by: null,
        created_at: now,
      })),
    );
    await insertMany(
      db,
      'storage_account_orders',
      accountIds.map((accountId, a) => ({
        company_id: companyId,
        account_id: accountId,
        order_id: orderIds[a]!,
      })),
    );
    const rate = (kind: string, unit_type: string | null, amount: number, effective_from: string) => ({
      company_id: companyId,
      kind,
      unit_type,
      warehouse_id: null,
      account_id: null,
      amount,
      effective_from,
      created_by: null,
      created_at: now,
    });
    await insertMany(db, 'billing_rates', [
      rate('storage', 'vault', 9_500, '2025-01-01'),
      rate('storage', 'vault', 9_900, '2026-10-15'),
      rate('storage', 'liftvan', 14_000, '2025-01-01'),
      rate('storage', 't2', 6_000, '2025-01-01'),
      rate('handling-in', 'vault', 2_500, '2025-01-01'),
      rate('handling-out', 'vault', 2_500, '2025-01-01'),
      rate('valuation', null, 60, '2025-01-01'),
      // a negotiated rate on every tenth account
      ...accountIds
        .filter((_, a) => a % 10 === 3)
        .map((accountId) => ({ ...rate('storage', 'vault', 8_000, '2025-06-01'), account_id: accountId })),
    ]);
    await analyze(db, engine);
    const actor = { companyId, userId: owner.userId };

    let start = performance.now();
    const preview = await dryRun(db, companyId, PERIOD);
    const dry = performance.now() - start;
    start = performance.now();
    const cpuBefore = cpuSeconds(pgData);
    const issued = await issueRun(db, actor, PERIOD);
    const issue = performance.now() - start;
    const issueCpu = cpuSeconds(pgData) - cpuBefore;
    start = performance.now();
    const repeated = await issueRun(db, actor, PERIOD);
    const again = performance.now() - start;
    if (repeated.issued.length !== 0) throw new Error('the second run issued invoices again');
    const numbers = issued.issued.map((i) => i.number).sort((x, y) => x - y);
    if (numbers.some((n, i) => n !== i + 1)) throw new Error('the invoice numbers have a gap');
    return {
      engine,
      accounts: accountIds.length,
      units: ACCOUNTS * UNITS_PER_ACCOUNT,
      invoices: issued.issued.length,
      lines: preview.invoices.reduce((s, i) => s + i.lines.length + i.agency_lines.length, 0),
      dry,
      issue,
      issueCpu,
      again,
    };
  } finally {
    await database.close();
  }
}

export async function runBillingBench(engines: Engine[]): Promise<void> {
  const results: Figures[] = [];
  for (const engine of engines) {
    if (engine === 'sqlite') {
      const dir = path.resolve('.tmp', 'bench-billing');
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(dir, { recursive: true });
      results.push(await measure(engine, `sqlite:${path.join(dir, 'bench.db')}`));
    } else {
      const out = execFileSync('bash', ['scripts/postgres-temp.sh', 'start'], { encoding: 'utf8' }).trim();
      const [url, dir] = out.split(' ');
      try {
        results.push(await measure(engine, url!, path.join(dir!, 'data')));
      } finally {
        execFileSync('bash', ['scripts/postgres-temp.sh', 'stop', dir!]);
      }
    }
  }
  const s = (x: number) => (x / 1000).toFixed(2);
  const lines = [
    '### Billing run (issue 28)',
    '',
    `\`npm run bench -- --billing\`: one company with ${ACCOUNTS.toLocaleString('en-US')} storage accounts holding`,
    `${(ACCOUNTS * UNITS_PER_ACCOUNT).toLocaleString('en-US')} units (vaults, liftvans, T2s; a fifth SIT paid by an agency, a quarter on the`,
    '30-day cycle, a third with a declared value, a rate change in the month, negotiated rates, releases in the month),',
    `billed for ${PERIOD}, timed inside the server (the service calls the routes make, without HTTP). Target: the run`,
    'under 10 s.',
    '',
    `Machine: ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)} when the run ended (figures taken on a busy`,
    'machine are slower by about the load per core; compare them on a quiet one).',
    '',
    'The CPU column is what the issuing run took of the processors (this process and, on PostgreSQL, its server',
    "processes): unlike the wall time it does not grow with other work's load, so changes are compared on it.",
    '',
    '| Engine | Accounts | Units | Invoices | Lines | Dry run (s) | Run issuing every invoice (s) | Its CPU (s) | Same run again (s) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...results.map(
      (r) =>
        `| ${r.engine} | ${r.accounts} | ${r.units} | ${r.invoices} | ${r.lines} | ${s(r.dry)} | ${s(r.issue)} | ${r.issueCpu.toFixed(2)} | ${s(r.again)} |`,
    ),
    '',
  ];
  console.log(lines.join('\n'));
  writePerformanceSection('billing', `${lines.join('\n')}\n`);
}
