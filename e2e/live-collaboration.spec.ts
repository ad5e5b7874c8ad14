import type { Browser, BrowserContext, Page } from '@playwright/test';
import { VAULT_CHANGED } from '../server/features/vaults/vaults.service';
import {
  buildAccount,
  buildStagedVault,
  buildVault,
  buildWarehouse,
  removeCompany,
  stored,
} from './factories';
import { callApi, e2eDatabase, expect, signInThroughForm, test } from './fixtures';

// Two people of one company on one warehouse: what one does shows on the other's screen without a reload, and a
// third browser, of another company, hears nothing of it.
const LIVE = { timeout: 1_000 };

const tile = (page: Page, name: string) =>
  page.getByRole('group', { name: 'Fields' }).getByRole('button', { name, exact: true });
const slot = (page: Page, field: string, position: number) =>
  page
    .getByRole('region', { name: `Field ${field}` })
    .getByRole('list', { name: 'Vault slots' })
    .getByRole('listitem', { name: `Slot ${position}` });

/** Records the change events the page's live stream delivers, so a test can show that none arrived. */
async function recordLiveEvents(page: Page) {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { liveEvents: string[] }).liveEvents = seen;
    const Original = window.EventSource;
    window.EventSource = class extends Original {
      constructor(url: string | URL, init?: EventSourceInit) {
        super(url, init);
        this.addEventListener('change', (event) => seen.push((event as MessageEvent<string>).data));
      }
    };
  });
}
const liveEvents = (page: Page) =>
  page.evaluate(() => (window as unknown as { liveEvents: string[] }).liveEvents);

const contexts: BrowserContext[] = [];
test.afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});

async function openSignedIn(browser: Browser, account: { email: string; password: string }) {
  const context = await browser.newContext();
  contexts.push(context);
  const page = await context.newPage();
  await recordLiveEvents(page);
  await signInThroughForm(page, account);
  return page;
}

test.describe('Live collaboration', () => {
  test('a vault staged or moved on one screen shows on the other within a second; another company sees nothing', async ({
    browser,
    account,
  }) => {
    // three signed-in browsers: more set-up than a usual journey
    test.setTimeout(90_000);
    const db = e2eDatabase().db;
    const w = await buildWarehouse(db, {
      companyId: account.companyId,
      name: 'Live Depot',
      rows: 2,
      cols: 2,
    });
    await buildVault(db, {
      companyId: account.companyId,
      fieldId: w.field('A1').id,
      name: 'LIVE-1',
      customerName: 'FIRST TABLET',
    });
    const waiting = await buildStagedVault(db, {
      companyId: account.companyId,
      name: 'LIVE-2',
      customerName: 'SECOND TABLET',
    });
    const other = await buildAccount(db);
    const otherWarehouse = await buildWarehouse(db, {
      companyId: other.companyId,
      name: 'Elsewhere Depot',
      rows: 1,
      cols: 1,
    });

    try {
      const one = await openSignedIn(browser, account);
      const two = await openSignedIn(browser, account);
      const three = await openSignedIn(browser, other);
      for (const page of [one, two]) {
        await page.goto(`/warehouse/${w.slug}`);
        await tile(page, 'A1').click();
        await expect(slot(page, 'A1', 3)).toContainText('LIVE-1');
      }
      await three.goto(`/warehouse/${otherWarehouse.slug}`);
      await expect(three.getByRole('heading', { name: 'Elsewhere Depot' })).toBeVisible();

      // one stages LIVE-1 through the field panel; two sees the slot empty without reloading
      await one.getByRole('button', { name: 'Stage vault LIVE-1' }).click();
      const staged = one.waitForResponse(
        (res) => res.url().includes('/api/stage/vaults/') && res.request().method() === 'POST',
      );
      await one
        .getByRole('alertdialog', { name: 'Stage Vault' })
        .getByRole('button', { name: 'Yes, stage it' })
        .click();
      expect((await staged).status()).toBe(200);
      await expect(slot(two, 'A1', 3).getByRole('button', { name: '+ Add Vault' })).toBeVisible(LIVE);
      await expect(tile(two, 'A1')).toHaveAttribute('data-fill', 'empty', LIVE);

      // one moves the waiting LIVE-2 into B1; two sees it arrive there
      await tile(two, 'B1').click();
      await expect(slot(two, 'B1', 3).getByRole('button', { name: '+ Add Vault' })).toBeVisible();
      const moved = await callApi(one, 'PUT', '/api/vaults/move', {
        vaultId: waiting.id,
        fieldId: w.field('B1').id,
        position: 3,
      });
      expect(moved.status).toBe(200);
      await expect(slot(two, 'B1', 3)).toContainText('LIVE-2', LIVE);
      await expect(slot(two, 'B1', 3)).toContainText('SECOND TABLET', LIVE);
      await expect(tile(two, 'B1')).not.toHaveAttribute('data-fill', 'empty', LIVE);
      expect(two.url()).toContain(`/warehouse/${w.slug}`);

      // the other company's browser got no event at all, and cannot read the warehouse either
      expect((await liveEvents(two)).length).toBeGreaterThanOrEqual(2);
      expect(await liveEvents(three)).toEqual([]);
      expect((await callApi(three, 'GET', `/api/warehouse/${w.id}`)).status).toBe(404);
      await expect(three.getByText('LIVE-2')).toHaveCount(0);
    } finally {
      await removeCompany(other.companyId);
    }
  });

  test("saving from an older page after a colleague's edit shows the conflict instead of overwriting it", async ({
    browser,
    account,
  }) => {
    const db = e2eDatabase().db;
    const w = await buildWarehouse(db, {
      companyId: account.companyId,
      name: 'Stale Depot',
      rows: 1,
      cols: 1,
    });
    await buildVault(db, {
      companyId: account.companyId,
      fieldId: w.field('A1').id,
      name: 'STALE-1',
      customerName: 'REED',
      orderName: 'ORD-1',
    });

    const one = await openSignedIn(browser, account);
    const two = await openSignedIn(browser, account);
    for (const page of [one, two]) {
      await page.goto(`/warehouse/${w.slug}`);
      await tile(page, 'A1').click();
      await page.getByRole('link', { name: 'Edit vault STALE-1' }).click();
      await expect(page.getByRole('heading', { name: 'Edit Vault STALE-1' })).toBeVisible();
    }

    const formOne = one.getByRole('form', { name: 'Edit Vault' });
    await formOne.getByLabel('Order Number').fill('ORD-FROM-ONE');
    await formOne.getByRole('button', { name: 'Save' }).click();
    await expect(one).toHaveURL(new RegExp(`/warehouse/${w.slug}`));

    // two's page was opened before one saved; the live refresh must not quietly make its edit current
    const formTwo = two.getByRole('form', { name: 'Edit Vault' });
    await formTwo.getByLabel('Note').fill('Written on the older page');
    await formTwo.getByRole('button', { name: 'Save' }).click();
    await expect(formTwo.getByRole('alert')).toHaveText(VAULT_CHANGED);
    await expect(two).toHaveURL(/\/edit\/vault\//);

    // one's change survived
    const row = await stored.vaultNamed(account.companyId, 'STALE-1');
    expect({ order: row.order, note: row.note }).toEqual({ order: 'ORD-FROM-ONE', note: null });
  });
});
