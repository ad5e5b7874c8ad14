import zlib from 'node:zlib';
import { type Browser, type Page, chromium } from '@playwright/test';

export interface BrowserResult {
  name: string;
  /** null when the screen could not be measured (see note) */
  medianMs: number | null;
  /** 'ms' unless said otherwise (JavaScript sizes are in kB) */
  unit?: string;
  samples: number[];
  note?: string;
}

export interface BrowserBenchTarget {
  baseUrl: string;
  email: string;
  password: string;
  /** name of a large warehouse of the signed-in company (its card on the dashboard, its grid at /warehouse/{slug}) */
  warehouseName: string;
  warehouseSlug: string;
  fieldCount: number;
  /** a few letters a search is likely to suggest something for (the first letters of customer names) */
  searchLetters: string[];
}

const SAMPLES = 5;
const STEP_TIMEOUT_MS = 30_000;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};
const round = (ms: number) => Math.round(ms * 10) / 10;

/** Runs one measure SAMPLES times; a screen that is missing or broken is reported as not measured, not as a crash. */
async function measure(name: string, sample: (i: number) => Promise<number>): Promise<BrowserResult> {
  const samples: number[] = [];
  try {
    for (let i = 0; i < SAMPLES; i++) samples.push(round(await sample(i)));
    return { name, medianMs: median(samples), samples };
  } catch (error) {
    const note = (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 160);
    return { name, medianMs: null, samples, note };
  }
}

/**
 * Waits inside the page, on every animation frame, until `when` answers the page's clock (it answers false until
 * then). Checking in the page rather than from the bench process keeps the round trips out of the figure.
 */
async function frameWhen<A>(page: Page, when: (arg: A) => number | false, arg: A): Promise<number> {
  const handle = await page.waitForFunction(when as (arg: unknown) => number | false, arg as unknown, {
    polling: 'raf',
    timeout: STEP_TIMEOUT_MS,
  });
  return (await handle.jsonValue()) as number;
}

const gridRendered = (tiles: number) =>
  document.querySelectorAll('[aria-label="Fields"] button').length >= tiles ? performance.now() : false;

const fieldDetailsShown = (name: string) =>
  document.querySelector(`section[aria-label="Field ${name}"] [aria-label="Vault slots"] li`)
    ? performance.now()
    : false;

const suggestionsShown = () =>
  document.querySelectorAll('[aria-label="Search suggestions"] [role="option"]').length > 0
    ? performance.now()
    : false;

const printRowsShown = () => {
  const table = document.querySelector('table[aria-rowcount]');
  const listed =
    !!table &&
    Number(table.getAttribute('aria-rowcount')) > 1 &&
    table.querySelectorAll('tbody tr:not([aria-hidden])').length > 0;
  return listed ? performance.now() : false;
};

async function signIn(browser: Browser, target: BrowserBenchTarget): Promise<Page> {
  const context = await browser.newContext({
    baseURL: target.baseUrl,
    viewport: { width: 1366, height: 800 },
  });
  const page = await context.newPage();
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  await page.goto('/login');
  await page.getByLabel('Email').fill(target.email);
  await page.getByLabel('Password').fill(target.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/dashboard$/);
  return page;
}

/** gzip (level 9) size in kB of every script a fresh load of the page fetches (a new context has an empty cache). */
async function javascriptKb(
  browser: Browser,
  target: BrowserBenchTarget,
  path: string,
  signedIn: boolean,
): Promise<number> {
  const context = await browser.newContext({ baseURL: target.baseUrl });
  try {
    if (signedIn) {
      const res = await context.request.post('/api/auth/login', {
        data: { email: target.email, password: target.password },
      });
      if (!res.ok()) throw new Error(`sign-in failed: ${res.status()}`);
    }
    const page = await context.newPage();
    const scripts: Promise<Buffer>[] = [];
    page.on('response', (res) => {
      if (res.request().resourceType() === 'script' && res.ok()) scripts.push(res.body());
    });
    await page.goto(path, { waitUntil: 'networkidle' });
    let bytes = 0;
    for (const body of await Promise.all(scripts)) bytes += zlib.gzipSync(body, { level: 9 }).length;
    return bytes / 1024;
  } finally {
    await context.close();
  }
}

/** Screen timings in Chromium: median of five for each, against the large dataset. */
export async function benchBrowser(target: BrowserBenchTarget): Promise<BrowserResult[]> {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--disable-background-networking', '--no-first-run'],
  });
  const results: BrowserResult[] = [];
  const keystrokeToDom: number[] = [];
  try {
    const page = await signIn(browser, target);

    results.push(
      await measure(`warehouse grid, full page load to ${target.fieldCount} fields rendered`, async () => {
        await page.goto(`/warehouse/${target.warehouseSlug}`, { waitUntil: 'commit' });
        // the page's clock starts with the navigation
        return frameWhen(page, gridRendered, target.fieldCount);
      }),
    );

    results.push(
      await measure(
        `warehouse grid, dashboard card click to ${target.fieldCount} fields rendered`,
        async () => {
          await page.goto('/dashboard');
          const card = page.getByRole('link', { name: target.warehouseName, exact: true });
          await card.waitFor();
          const started = await card.evaluate((link: HTMLElement) => {
            const t = performance.now();
            link.click();
            return t;
          });
          return (await frameWhen(page, gridRendered, target.fieldCount)) - started;
        },
      ),
    );

    results.push(
      await measure('field click to its details', async (i) => {
        if (i === 0) {
          await page.goto(`/warehouse/${target.warehouseSlug}`);
          await frameWhen(page, gridRendered, target.fieldCount);
        }
        const name = ['B2', 'C5', 'D8', 'E11', 'F14'][i]!;
        const started = await page
          .getByRole('group', { name: 'Fields' })
          .getByRole('button', { name, exact: true })
          .evaluate((tile: HTMLElement) => {
            const t = performance.now();
            tile.click();
            return t;
          });
        const shown = await frameWhen(page, fieldDetailsShown, name);
        return shown - started;
      }),
    );

    results.push(
      await measure('search keystroke to suggestions on screen (next frame)', async (i) => {
        const box = page.getByRole('combobox', { name: 'Search' });
        await box.fill('');
        await page.keyboard.press('Escape');
        await box.focus();
        // the keystroke's own time stamp, and the moment React has put the suggestions into the document
        await page.evaluate(() => {
          const w = window as unknown as { keyAt: number; listedAt: number };
          w.keyAt = 0;
          w.listedAt = 0;
          document.addEventListener('keydown', (e) => (w.keyAt = e.timeStamp), { once: true, capture: true });
          const observer = new MutationObserver(() => {
            if (document.querySelector('[aria-label="Search suggestions"] [role="option"]')) {
              w.listedAt = performance.now();
              observer.disconnect();
            }
          });
          observer.observe(document.body, { childList: true, subtree: true });
        });
        await page.keyboard.type(target.searchLetters[i % target.searchLetters.length]!);
        const shown = await frameWhen(page, suggestionsShown, undefined);
        const { keyAt, listedAt } = await page.evaluate(() => {
          const w = window as unknown as { keyAt: number; listedAt: number };
          return { keyAt: w.keyAt, listedAt: w.listedAt };
        });
        keystrokeToDom.push(Math.round((listedAt - keyAt) * 10) / 10);
        return shown - keyAt;
      }),
    );
    results.push({
      name: 'search keystroke to suggestions in the document (script work only)',
      medianMs: keystrokeToDom.length === SAMPLES ? median(keystrokeToDom) : null,
      samples: keystrokeToDom,
      note: keystrokeToDom.length === SAMPLES ? undefined : 'the search box was not measured',
    });

    results.push(
      await measure('Print Studio, full page load to all vaults listed', async () => {
        await page.goto('/print-studio', { waitUntil: 'commit' });
        return frameWhen(page, printRowsShown, undefined);
      }),
    );
    const rows = await page
      .evaluate(
        () => Number(document.querySelector('table[aria-rowcount]')?.getAttribute('aria-rowcount') ?? 1) - 1,
      )
      .catch(() => 0);
    const print = results[results.length - 1]!;
    if (print.medianMs !== null) print.name += ` (${rows} rows)`;
    await page.context().close();

    // sizes do not vary from load to load: one sample each
    for (const [name, path, signedIn] of [
      ['landing page JavaScript (gzip -9)', '/', false],
      ['dashboard JavaScript (gzip -9), fresh load signed in', '/dashboard', true],
    ] as const) {
      try {
        const kb = Math.round((await javascriptKb(browser, target, path, signedIn)) * 10) / 10;
        results.push({ name, medianMs: kb, unit: 'kB', samples: [kb] });
      } catch (error) {
        results.push({ name, medianMs: null, samples: [], note: String(error).slice(0, 160) });
      }
    }
  } finally {
    await browser.close();
  }
  return results;
}
