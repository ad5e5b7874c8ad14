// npm run lighthouse: Lighthouse (mobile, its default) on the built app with the demo company: the landing page,
// the signed-in dashboard and a warehouse page, three runs each; prints the medians and records them in
// docs/performance.md. Needs Chromium (CHROME_PATH, default /usr/bin/chromium). --no-build reuses dist/web.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { signInCookie, startServer } from '../server/test/server-process';
import { writePerformanceSection } from './performance-doc';

const RUNS = Number(process.argv.find((a) => a.startsWith('--runs='))?.split('=')[1] ?? 3);
const CHROME_FLAGS = '--headless --no-sandbox --disable-gpu';
const DEMO = { email: 'demo@warehouse.test', password: 'demo-warehouse-2026' };
const workDir = path.resolve('.tmp', 'lighthouse');

interface Score {
  performance: number;
  accessibility: number;
  tbtMs: number;
  lcpMs: number;
  fcpMs: number;
}

interface LighthouseReport {
  categories: Record<string, { score: number | null }>;
  audits: Record<string, { numericValue?: number }>;
}

/** One Lighthouse run; a run that fails (a trace Lighthouse could not record, on a busy machine) is tried again. */
function lighthouse(url: string, run: number, cookie?: string, attempt = 1): Score {
  try {
    return lighthouseOnce(url, run, cookie);
  } catch (error) {
    if (attempt >= 3) throw error;
    console.log(`${url}: run failed, trying again`);
    return lighthouse(url, run, cookie, attempt + 1);
  }
}

// each run's report stays in .tmp/lighthouse (page and run in the name) for a closer look: the largest paint's element,
// the requests and the main thread's tasks
function lighthouseOnce(url: string, run: number, cookie?: string): Score {
  const out = path.join(workDir, `page${new URL(url).pathname.replace(/\W+/g, '-')}-run${run}.json`);
  execFileSync(
    path.resolve('node_modules', '.bin', 'lighthouse'),
    [
      url,
      '--quiet',
      '--output=json',
      `--output-path=${out}`,
      '--only-categories=performance,accessibility',
      `--chrome-flags=${CHROME_FLAGS}`,
      ...(cookie ? [`--extra-headers=${JSON.stringify({ Cookie: cookie })}`] : []),
    ],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? '/usr/bin/chromium' },
    },
  );
  const report = JSON.parse(fs.readFileSync(out, 'utf8')) as LighthouseReport;
  const score = (name: string) => Math.round((report.categories[name]?.score ?? 0) * 100);
  const ms = (audit: string) => Math.round(report.audits[audit]?.numericValue ?? NaN);
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    tbtMs: ms('total-blocking-time'),
    lcpMs: ms('largest-contentful-paint'),
    fcpMs: ms('first-contentful-paint'),
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

if (!process.argv.includes('--no-build'))
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
fs.rmSync(workDir, { recursive: true, force: true });
fs.mkdirSync(workDir, { recursive: true });
const server = await startServer(`sqlite:${path.join(workDir, 'db.sqlite')}`, { SEED_DEMO: 'true' });
const rows: string[] = [];
try {
  const cookie = await signInCookie(server.baseUrl, DEMO.email, DEMO.password);
  const session = (await (await fetch(`${server.baseUrl}/api/auth/`, { headers: { cookie } })).json()) as {
    companyId: number;
  };
  const warehouses = (await (
    await fetch(`${server.baseUrl}/api/warehouse/company/${session.companyId}`, { headers: { cookie } })
  ).json()) as { slug: string; name: string; rows: number; cols: number }[];
  // the largest warehouse of the demo company
  const first = [...warehouses].sort((a, b) => b.rows * b.cols - a.rows * a.cols)[0];
  const pages: [string, string, string | undefined][] = [
    ['landing (signed out)', '/', undefined],
    ['dashboard (signed in)', '/dashboard', cookie],
    [`warehouse page (${first!.name}, signed in)`, `/warehouse/${first!.slug}`, cookie],
  ];
  for (const [name, url, pageCookie] of pages) {
    const scores: Score[] = [];
    for (let i = 0; i < RUNS; i++) {
      scores.push(lighthouse(`${server.baseUrl}${url}`, i + 1, pageCookie));
      console.log(`${name} run ${i + 1}: ${JSON.stringify(scores.at(-1))}`);
    }
    const of = (key: keyof Score) => median(scores.map((s) => s[key]));
    rows.push(
      `| ${name} | ${of('performance')} (${scores.map((s) => s.performance).join(', ')}) | ${of('tbtMs')} ms | ${of('lcpMs')} ms | ${of('fcpMs')} ms | ${of('accessibility')} |`,
    );
  }
} finally {
  await server.stop();
}

const table = [
  `### Lighthouse, mobile (\`npm run lighthouse\`, ${new Date().toISOString().slice(0, 10)}, median of ${RUNS})`,
  '',
  '| Page | Performance (runs) | Total blocking time | Largest contentful paint | First contentful paint | Accessibility |',
  '|---|---:|---:|---:|---:|---:|',
  ...rows,
  '',
].join('\n');
console.log(table);
writePerformanceSection('lighthouse results', table);
