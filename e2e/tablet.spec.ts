import type { Page } from '@playwright/test';
import { buildRack, buildVault, buildWarehouse } from './factories';
import { e2eDatabase, expect, test } from './fixtures';

// The warehouse floor runs on tablets: a portrait tablet, driven by touch.
test.use({ viewport: { width: 820, height: 1180 }, hasTouch: true });

/** Nothing may stick out sideways: a page that scrolls horizontally on a tablet is broken for touch. */
async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

test('a tablet user taps through the dashboard, a warehouse, a field, the racks and the menu', async ({
  signedIn: page,
  account,
}) => {
  const db = e2eDatabase().db;
  const w = await buildWarehouse(db, {
    companyId: account.companyId,
    name: 'Tablet Depot',
    rows: 12,
    cols: 9,
    fieldCapacity: 3,
    width: 100,
    length: 100,
  });
  await buildVault(db, {
    companyId: account.companyId,
    fieldId: w.field('C4').id,
    name: 'TAB-1',
    customerName: 'TOUCH AND GO',
  });
  await buildRack(db, {
    companyId: account.companyId,
    warehouseId: w.id,
    name: 'Tablet Rack',
    x: 60,
    y: 5,
    shelves: 2,
    capacity: 4,
  });

  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Warehouses' })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await page.getByRole('link', { name: 'Tablet Depot', exact: true }).tap();
  await expect(page.getByRole('heading', { name: 'Tablet Depot' })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Fields' }).getByRole('button')).toHaveCount(108);
  await expectNoSidewaysScroll(page);

  await page.getByRole('group', { name: 'Fields' }).getByRole('button', { name: 'C4', exact: true }).tap();
  const panel = page.getByRole('region', { name: 'Field C4' });
  await expect(panel.getByText('TAB-1')).toBeVisible();
  await expect(panel).toBeInViewport();

  await page.getByRole('button', { name: 'Rack View' }).tap();
  await page.getByRole('button', { name: 'Rack Tablet Rack' }).tap();
  await page.getByRole('button', { name: 'Add pallet to shelf 1, slot 1' }).tap();
  const palletDialog = page.getByRole('dialog', { name: 'Add Pallet' });
  await expect(palletDialog).toBeInViewport();
  await palletDialog.getByRole('button', { name: 'Cancel' }).tap();
  await expect(palletDialog).toBeHidden();
  await expectNoSidewaysScroll(page);

  for (const path of [`/edit/${w.slug}`, '/print-studio', '/statistics', '/stage', '/warehouse-checklists']) {
    await page.goto(path);
    await expect(page.locator('main h1').first()).toBeVisible();
    await expectNoSidewaysScroll(page);
  }

  await page.getByRole('button', { name: 'Open menu' }).tap();
  const menu = page.getByRole('dialog', { name: 'Menu' });
  await expect(menu.getByRole('link', { name: 'Tablet Depot' })).toBeVisible();
  await menu.getByRole('link', { name: 'Print Studio' }).tap();
  await expect(page).toHaveURL(/\/print-studio$/);
});
