import type { Browser, BrowserContext, Page } from '@playwright/test';
import { buildChecklist, buildVault, buildWarehouse } from './factories';
import { callApi, e2eDatabase, expect, signInThroughForm, test } from './fixtures';

// A live change refreshes only what it touches: a change in one warehouse makes a browser on another warehouse fetch
// nothing of either warehouse, a change in the warehouse a browser shows is patched in from the event (no fetch of
// the warehouse), and signed-out floor staff answering a checklist make a warehouse page fetch nothing.

/** Records the frames the page's live stream delivers (change, ready, reset), in order. */
async function recordLiveFrames(page: Page) {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { liveFrames: string[] }).liveFrames = seen;
    const Original = window.EventSource;
    window.EventSource = class extends Original {
      constructor(url: string | URL, init?: EventSourceInit) {
        super(url, init);
        for (const name of ['ready', 'reset']) this.addEventListener(name, () => seen.push(name));
        this.addEventListener('open', () => seen.push(`open ${String(url)}`));
        this.addEventListener('change', (event) => seen.push((event as MessageEvent<string>).data));
      }
    };
  });
}
const liveFrames = (page: Page) =>
  page.evaluate(() => (window as unknown as { liveFrames: string[] }).liveFrames);
const changeKinds = async (page: Page) =>
  (await liveFrames(page))
    .filter((f) => f.startsWith('{'))
    .map((f) => (JSON.parse(f) as { kind: string }).kind);

/** Every API request the page makes from now on, but its live stream. */
function recordApiRequests(page: Page) {
  const urls: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith('/api/') && path !== '/api/events') urls.push(`${request.method()} ${path}`);
  });
  return urls;
}

/** A field's tile in the floor plan; its title tells how many vaults the field holds. */
const tile = (page: Page, warehouse: string, field: string) =>
  page
    .getByRole('grid', { name: `Fields of ${warehouse}` })
    .getByRole('button', { name: field, exact: true });

const contexts: BrowserContext[] = [];
test.afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});

async function openWarehouse(
  browser: Browser,
  account: { email: string; password: string },
  warehouse: { id: number; slug: string; name: string },
) {
  const context = await browser.newContext();
  contexts.push(context);
  const page = await context.newPage();
  await recordLiveFrames(page);
  await signInThroughForm(page, account);
  await page.goto(`/warehouse/${warehouse.slug}`);
  await expect(page.getByRole('heading', { name: warehouse.name })).toBeVisible();
  await expect.poll(async () => (await liveFrames(page)).includes('ready')).toBe(true);
  // the app opens the stream anew to watch the warehouse on screen, so its changes come with their data
  await expect
    .poll(async () =>
      (await liveFrames(page)).some((f) => {
        const watch = /[?&]watch=([^&]*)/.exec(f.startsWith('open ') ? f : '')?.[1];
        return watch !== undefined && decodeURIComponent(watch).split(',').includes(String(warehouse.id));
      }),
    )
    .toBe(true);
  // what the page loads on arrival is done before counting starts
  await page.waitForLoadState('networkidle');
  return page;
}

test.describe('Live updates touch only what changed', () => {
  test('a change in one warehouse makes a browser on another warehouse ask for nothing; a change in its own is patched in', async ({
    browser,
    account,
  }) => {
    const db = e2eDatabase().db;
    const north = await buildWarehouse(db, {
      companyId: account.companyId,
      name: 'North Depot',
      rows: 1,
      cols: 2,
    });
    const south = await buildWarehouse(db, {
      companyId: account.companyId,
      name: 'South Depot',
      rows: 1,
      cols: 2,
    });
    const northVault = await buildVault(db, { companyId: account.companyId, fieldId: north.field('A1').id });
    const southVault = await buildVault(db, { companyId: account.companyId, fieldId: south.field('A1').id });

    const one = await openWarehouse(browser, account, north);
    const two = await openWarehouse(browser, account, south);
    const requests = recordApiRequests(two);

    // one stages a vault of North: two (on South) hears of it and asks for nothing at all (the company list's counts
    // are only marked stale: a warehouse page does not show them)
    expect((await callApi(one, 'POST', `/api/stage/vaults/${northVault.id}`)).status).toBe(200);
    await expect.poll(() => changeKinds(two)).toEqual(['vault.staged']);
    // past the client's 150 ms gathering of changes, and anything it would have asked for
    await two.waitForTimeout(500);
    await two.waitForLoadState('networkidle');
    const warehouseRequests = (urls: string[], id: number) =>
      urls.filter((u) => new RegExp(`^GET /api/(warehouse|racks/warehouse)/${id}(/|$)`).test(u));
    expect(requests).toEqual([]);

    // the control: a change in South shows in South there, patched in from the event
    const southA1 = tile(two, south.name, 'A1');
    await expect(southA1).toHaveAttribute('title', 'A1: 1 vault');
    expect((await callApi(one, 'POST', `/api/stage/vaults/${southVault.id}`)).status).toBe(200);
    await expect(southA1).toHaveAttribute('title', 'A1: 0 vaults');
    expect(warehouseRequests(requests, south.id)).toEqual([]);
    expect(warehouseRequests(requests, north.id)).toEqual([]);
  });

  test('a change in the same warehouse appears in another browser without a fetch of the warehouse', async ({
    browser,
    account,
  }) => {
    const db = e2eDatabase().db;
    const east = await buildWarehouse(db, {
      companyId: account.companyId,
      name: 'East Depot',
      rows: 1,
      cols: 3,
    });
    await buildVault(db, { companyId: account.companyId, fieldId: east.field('A1').id });
    const top = await buildVault(db, { companyId: account.companyId, fieldId: east.field('A1').id });

    const one = await openWarehouse(browser, account, east);
    const two = await openWarehouse(browser, account, east);
    const requests = recordApiRequests(two);
    const [a1, b1] = [tile(two, east.name, 'A1'), tile(two, east.name, 'B1')];
    await expect(a1).toHaveAttribute('title', 'A1: 2 vaults');
    await expect(b1).toHaveAttribute('title', 'B1: 0 vaults');

    // one moves the top vault of A1 to B1: two shows it there, and never asks for the warehouse
    const moved = await callApi(one, 'PUT', '/api/vaults/move', {
      vaultId: top.id,
      fieldId: east.field('B1').id,
      position: 3,
    });
    expect(moved.status, moved.body).toBe(200);
    await expect(b1).toHaveAttribute('title', 'B1: 1 vault');
    await expect(a1).toHaveAttribute('title', 'A1: 1 vault');
    // and a field marked full
    const full = await callApi(one, 'PATCH', `/api/fields/${east.field('C1').id}/full`, { full: true });
    expect(full.status, full.body).toBe(200);
    await expect(tile(two, east.name, 'C1')).toHaveAttribute('title', 'C1: 0 vaults, marked full');
    await two.waitForTimeout(500);
    expect(requests.filter((u) => u === `GET /api/warehouse/${east.id}`)).toEqual([]);
    expect(await changeKinds(two)).toEqual(['vault.moved', 'field.full']);
  });

  test('signed-out floor staff answering a checklist make a signed-in warehouse page fetch nothing', async ({
    browser,
    account,
  }) => {
    const db = e2eDatabase().db;
    const dock = await buildWarehouse(db, {
      companyId: account.companyId,
      name: 'Cleaning Dock',
      rows: 1,
      cols: 1,
    });
    const depot = await buildWarehouse(db, {
      companyId: account.companyId,
      name: 'Watched Depot',
      rows: 1,
      cols: 2,
    });
    await buildVault(db, { companyId: account.companyId, fieldId: depot.field('A1').id });
    const ANSWERS = 10;
    const {
      id: checklistId,
      linkKey,
      taskIds,
    } = await buildChecklist(db, {
      companyId: account.companyId,
      warehouseId: dock.id,
      description: 'Night round',
      tasks: Array.from({ length: ANSWERS }, (_, i) => `Task ${i + 1}`),
    });

    const watcher = await openWarehouse(browser, account, depot);
    const requests = recordApiRequests(watcher);

    // a browser without a session, as on the floor: five answers a second for two seconds
    const floorContext = await browser.newContext();
    contexts.push(floorContext);
    const floor = await floorContext.newPage();
    await floor.goto(`/${dock.slug}-checklist?key=${linkKey}`);
    for (const taskId of taskIds) {
      const answered = await callApi(floor, 'PATCH', `/api/checklists/${checklistId}?key=${linkKey}`, {
        filled_out_by: 'Night Shift',
        // the fill-in page lists every task of the checklist and answers one
        tasks: taskIds.map((id) => (id === taskId ? { id, completed: true } : { id })),
      });
      expect(answered.status).toBe(200);
      await floor.waitForTimeout(200);
    }

    // the watcher heard every answer, and fetched nothing for it
    await expect.poll(async () => (await changeKinds(watcher)).length).toBe(ANSWERS);
    expect(new Set(await changeKinds(watcher))).toEqual(new Set(['checklist.answered']));
    await watcher.waitForTimeout(500);
    expect(requests).toEqual([]);
  });
});
