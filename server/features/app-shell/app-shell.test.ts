import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHELL_DATA_ID, type ShellData } from '@domain/schemas/app-shell.schema';
import type { SignedIn } from '../../test/test-app';
import { testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';
import { type BuiltWarehouse, buildWarehouse } from '../../factories';
import { SCREEN_MODULES } from './app-shell';

// A web build of a few files: the entry loads `shared`, which the screens import too (so it is not preloaded again).
const manifest = {
  'index.html': { file: 'assets/index-a1.js', imports: ['_shared-b2.js'] },
  '_shared-b2.js': { file: 'assets/shared-b2.js' },
  '_icons-c3.js': { file: 'assets/icons-c3.js' },
  'src/app/layout/app-layout.tsx': {
    file: 'assets/app-layout-d4.js',
    imports: ['_shared-b2.js', '_icons-c3.js'],
  },
  'src/features/warehouses/pages/dashboard-page.tsx': {
    file: 'assets/dashboard-page-e5.js',
    imports: ['_icons-c3.js', '_shared-b2.js'],
  },
  'src/features/warehouses/pages/warehouse-page.tsx': { file: 'assets/warehouse-page-f6.js' },
};
const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'web-build-'));
fs.mkdirSync(path.join(webDir, 'assets'));
fs.mkdirSync(path.join(webDir, '.vite'));
fs.writeFileSync(path.join(webDir, '.vite', 'manifest.json'), JSON.stringify(manifest));
fs.writeFileSync(
  path.join(webDir, 'index.html'),
  '<!doctype html><html><head><script type="module" crossorigin src="/assets/index-a1.js"></script></head>' +
    '<body><div id="root"></div></body></html>',
);
for (const chunk of Object.values(manifest)) fs.writeFileSync(path.join(webDir, chunk.file), 'export {};\n');
// the service worker of the build (issue 30, decision 050) and its Workbox runtime, at the top of the build
fs.writeFileSync(path.join(webDir, 'sw.js'), 'self.addEventListener("install", () => {});\n');
fs.writeFileSync(path.join(webDir, 'workbox-a1b2c3.js'), 'export {};\n');
afterAll(() => fs.rmSync(webDir, { recursive: true, force: true }));

const DATA_BLOCK = new RegExp(`<script type="application/json" id="${SHELL_DATA_ID}">([^<]*)</script>`);
const preloadsOf = (html: string) =>
  [...html.matchAll(/rel="modulepreload" crossorigin href="([^"]+)"/g)].map((m) => m[1]);

/** The data block of a page's HTML, undefined when there is none. */
function shellData(html: string): ShellData | undefined {
  const found = DATA_BLOCK.exec(html);
  return found ? (JSON.parse(found[1]!) as ShellData) : undefined;
}

// Issue 11, item 7: a signed-in page's HTML carries its first screen's data and preloads the screen's code.
describe.each(testEngines())('the app shell on %s', (engine) => {
  const { ctx, user, other } = useTestApp(engine, { env: { WEB_DIST_DIR: webDir } });
  let north: BuiltWarehouse;
  let hostile: BuiltWarehouse;
  let othersNorth: BuiltWarehouse;

  beforeAll(async () => {
    const db = ctx.database.db;
    north = await buildWarehouse(db, { companyId: user.companyId, name: 'North Hall', rows: 3, cols: 2 });
    hostile = await buildWarehouse(db, {
      companyId: user.companyId,
      name: '</script><script>alert(1)</script>',
    });
    // another company's warehouse of the same name
    othersNorth = await buildWarehouse(db, {
      companyId: other.companyId,
      name: 'North Hall',
      rows: 1,
      cols: 1,
    });
  });

  const page = (url: string, as?: SignedIn) =>
    as ? as.request({ method: 'GET', url }) : ctx.app.inject({ method: 'GET', url });
  const api = async (url: string, as: SignedIn) => (await as.request({ method: 'GET', url })).json<unknown>();

  it('signed out, serves the HTML as built, with no data and no preloads', async () => {
    for (const url of ['/', '/dashboard', '/warehouse/north-hall']) {
      const res = await page(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers.vary).toMatch(/Cookie/);
      expect(res.body).not.toContain(SHELL_DATA_ID);
      expect(preloadsOf(res.body)).toEqual([]);
    }
  });

  it('signed in, the dashboard carries the answers of the session and warehouse list reads, and preloads its code', async () => {
    const res = await page('/dashboard', user);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(res.headers.vary).toMatch(/Cookie/);
    expect(res.headers.etag).toBeUndefined();
    const data = shellData(res.body)!;
    expect(data.session).toEqual(await api('/api/auth/', user));
    expect(data.warehouses).toEqual(await api(`/api/warehouse/company/${user.companyId}`, user));
    expect(data.warehouses.map((w) => w.id).sort()).toEqual([north.id, hostile.id].sort());
    expect(data.warehouse).toBeUndefined();
    // the chrome's and the screen's files, each once, and none the entry loads anyway
    const dashboardFiles = [
      '/assets/app-layout-d4.js',
      '/assets/icons-c3.js',
      '/assets/dashboard-page-e5.js',
    ];
    expect(preloadsOf(res.body)).toEqual(dashboardFiles);
    // signed in, `/` goes on to the dashboard
    const home = await page('/', user);
    expect(shellData(home.body)?.session.id).toBe(user.userId);
    expect(preloadsOf(home.body)).toEqual(dashboardFiles);
  });

  it("a warehouse page carries that warehouse as the API answers it, of the session's company only", async () => {
    const mine = shellData((await page('/warehouse/north-hall', user)).body)!;
    expect(mine.warehouse).toEqual(await api(`/api/warehouse/${north.id}`, user));
    const theirs = await page('/warehouse/North%20Hall', other);
    expect(preloadsOf(theirs.body)).toEqual([
      '/assets/app-layout-d4.js',
      '/assets/icons-c3.js',
      '/assets/warehouse-page-f6.js',
    ]);
    const data = shellData(theirs.body)!;
    expect(data.session.companyId).toBe(other.companyId);
    expect(data.warehouse?.id).toBe(othersNorth.id);
    expect(data.warehouses.map((w) => w.id)).toEqual([othersNorth.id]);
  });

  it('a name that is not a warehouse of the company, or another address, opens without a warehouse', async () => {
    for (const url of ['/warehouse/south-hall', '/warehouse/north-hall/extra?x=<b>']) {
      const res = await page(url, user);
      expect(res.statusCode, url).toBe(200);
      const data = shellData(res.body)!;
      expect(data.session.id, url).toBe(user.userId);
      expect(data.warehouse, url).toBeUndefined();
    }
  });

  it('text from the database cannot end the data block', async () => {
    const res = await page('/dashboard', user);
    expect(res.body.match(/<\/script>/g)).toHaveLength(2);
    expect(res.body).not.toContain('<script>alert');
    expect(shellData(res.body)!.warehouses.map((w) => w.name)).toContain(hostile.name);
  });

  it('serves the built files, and never the manifest', async () => {
    const asset = await page('/assets/app-layout-d4.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // a new build's service worker is found at the next visit: never kept by the browser's HTTP cache
    for (const url of ['/sw.js', '/workbox-a1b2c3.js']) {
      const worker = await page(url);
      expect(worker.statusCode, url).toBe(200);
      expect(worker.headers['content-type'], url).toMatch(/javascript/);
      expect(worker.headers['cache-control'], url).toBe('no-cache');
    }
    const hidden = await page('/.vite/manifest.json');
    expect(hidden.body).not.toContain('app-layout-d4');
  });
});

describe('the screens the shell preloads', () => {
  it('name source modules that exist (the manifest keys of the web build)', () => {
    for (const [, modules] of SCREEN_MODULES) {
      for (const module of modules) expect(fs.existsSync(path.join('web', module)), module).toBe(true);
    }
  });
});
