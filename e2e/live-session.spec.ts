import type { Page } from '@playwright/test';
import { buildWarehouse } from './factories';
import { e2eDatabase, expect, signInThroughForm, test } from './fixtures';

// A live stream lives no longer than its session: signing out in one tab ends the other tab's stream at once, and
// that tab leaves the signed-in screens by itself.

async function recordStreamFrames(page: Page) {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { streamFrames: string[] }).streamFrames = seen;
    const Original = window.EventSource;
    window.EventSource = class extends Original {
      constructor(url: string | URL, init?: EventSourceInit) {
        super(url, init);
        for (const name of ['ready', 'signed-out']) this.addEventListener(name, () => seen.push(name));
      }
    };
  });
}
const streamFrames = (page: Page) =>
  page.evaluate(() => (window as unknown as { streamFrames: string[] }).streamFrames);

test('signing out in one tab ends the live stream of another tab, which leaves the signed-in screens', async ({
  browser,
  account,
}) => {
  const warehouse = await buildWarehouse(e2eDatabase().db, {
    companyId: account.companyId,
    name: 'Session Depot',
    rows: 1,
    cols: 1,
  });
  const context = await browser.newContext();
  try {
    const one = await context.newPage();
    await signInThroughForm(one, account);
    const two = await context.newPage();
    await recordStreamFrames(two);
    await two.goto(`/warehouse/${warehouse.slug}`);
    await expect(two.getByRole('heading', { name: 'Session Depot' })).toBeVisible();
    await expect.poll(() => streamFrames(two)).toContain('ready');

    const out = await one.evaluate(async () => (await fetch('/api/auth/logout')).status);
    expect(out).toBe(200);

    // no click, no reload in two: the server ended its stream and the app noticed the sign-in is gone
    await expect.poll(() => streamFrames(two), { timeout: 5_000 }).toContain('signed-out');
    await expect(two).toHaveURL(/\/$/, { timeout: 5_000 });
    await expect(two.getByRole('heading', { name: 'Session Depot' })).toHaveCount(0);
  } finally {
    await context.close();
  }
});
