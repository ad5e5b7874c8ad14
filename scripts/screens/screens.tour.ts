import { expect, test, type Page } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { DEMO_LOGIN } from '../../server/db/seed';

// every screen of the demo company, in one walk per device size (see screens.config.ts for how to run it)

const OUT = path.resolve('.tmp', 'screens');

/** A screenshot of the whole page (or of the window, for dialogs), and a line when the page scrolls sideways. */
async function shot(page: Page, name: string, info: { project: { name: string } }, full = true) {
  await page.waitForTimeout(400);
  const dir = `${OUT}/${info.project.name}`;
  fs.mkdirSync(dir, { recursive: true });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  if (overflow > 0) console.log(`[${info.project.name}] ${name}: horizontal overflow ${overflow}px`);
  await page.screenshot({ path: `${dir}/${name}.png`, fullPage: full });
}

test('every screen of the demo company', async ({ page, browser }, info) => {
  await page.goto('/');
  await shot(page, '01-landing', info);
  await page.goto('/login');
  await shot(page, '02-login', info);
  await page.getByLabel('Email').fill(DEMO_LOGIN.email);
  await page.getByLabel('Password').fill(DEMO_LOGIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/dashboard/);
  await expect(page.getByRole('heading', { name: 'Warehouses' })).toBeVisible();
  await shot(page, '03-dashboard', info);

  await page.goto('/warehouse/main-warehouse');
  await expect(page.getByRole('heading', { name: 'Main Warehouse' })).toBeVisible();
  await shot(page, '04-warehouse', info);
  await page.goto('/warehouse/annex');
  await page.waitForTimeout(500);
  await shot(page, '04b-annex', info);
  await page.goto('/warehouse/main-warehouse');
  await page.waitForTimeout(500);
  await page.getByRole('group', { name: 'Fields' }).getByRole('button', { name: 'B2', exact: true }).click();
  await shot(page, '05-warehouse-field', info);
  const panel = page.getByRole('region', { name: 'Field B2' });
  const add = panel.getByRole('button', { name: '+ Add Vault' }).first();
  if (await add.count()) {
    await add.click();
    await shot(page, '06-add-vault-dialog', info, false);
    await page.context().setOffline(true);
    await shot(page, '06b-add-vault-offline', info, false);
    await page.context().setOffline(false);
    await page.keyboard.press('Escape');
  }
  await page.getByRole('group', { name: 'Fields' }).getByRole('button', { name: 'A1', exact: true }).click();
  await page.getByRole('region', { name: 'Field A1' }).waitFor();
  const stage = page.getByRole('button', { name: /^Stage vault/ }).first();
  if (await stage.count()) {
    await stage.click();
    await shot(page, '07-stage-confirm', info, false);
    await page.keyboard.press('Escape');
  }
  await page.context().setOffline(true);
  await page.waitForTimeout(300);
  await shot(page, '07b-offline-page', info);
  await page.context().setOffline(false);

  await page.getByRole('button', { name: 'Rack View' }).click();
  await page.waitForTimeout(800);
  await shot(page, '08-rack-view', info);
  const rackButton = page.getByRole('list', { name: 'Racks' }).getByRole('button').first();
  if (await rackButton.count()) {
    await rackButton.click();
    await shot(page, '09-rack-selected', info);
    const pallet = page.getByRole('button', { name: /^Pallet / }).first();
    if (await pallet.count()) {
      await pallet.click();
      await shot(page, '10-pallet-dialog', info, false);
      await page.keyboard.press('Escape');
    }
  }

  await page.goto('/edit/main-warehouse');
  await page.waitForTimeout(800);
  await shot(page, '11-edit-warehouse', info);
  await page.getByRole('grid', { name: 'Field grid' }).scrollIntoViewIfNeeded();
  await shot(page, '11b-grid-editor', info, false);
  await page.getByRole('button', { name: 'Subtract columns on the left' }).click();
  await shot(page, '12-grid-change-dialog', info, false);
  await page.keyboard.press('Escape');

  await page.goto('/warehouse/main-warehouse');
  const firstVault = page.getByRole('link', { name: /^Edit vault/ }).first();
  await page.getByRole('group', { name: 'Fields' }).getByRole('button', { name: 'A1', exact: true }).click();
  await page.getByRole('region', { name: 'Field A1' }).waitFor();
  await page.waitForTimeout(300);
  if (await firstVault.count()) {
    await firstVault.click();
    await page.waitForTimeout(500);
    await shot(page, '13-edit-vault', info);
    await page.getByRole('button', { name: 'Delete' }).click();
    await shot(page, '14-edit-vault-delete-confirm', info, false);
    await page.keyboard.press('Escape');
  }

  await page.goto('/stage');
  await page.waitForTimeout(500);
  await shot(page, '15-stage', info);
  const card = page.getByRole('button', { name: /903|902|901/ }).first();
  if (await card.count()) {
    await card.click();
    await shot(page, '16-move-vault', info, false);
    await page.keyboard.press('Escape');
  }
  await page.goto('/print-studio');
  await page.waitForTimeout(800);
  await shot(page, '17-print-studio', info);
  await page.goto('/statistics');
  await page.waitForTimeout(500);
  await shot(page, '18-statistics', info);
  await page.goto('/warehouse-checklists');
  await page.waitForTimeout(800);
  await shot(page, '19-checklists-admin', info);
  const link = await page
    .locator('input[readonly]')
    .first()
    .inputValue()
    .catch(() => '');
  await page.goto('/messages');
  await page.waitForTimeout(500);
  await shot(page, '20-messages', info);
  await page.goto('/add-warehouse');
  await page.waitForTimeout(500);
  await shot(page, '21-add-warehouse', info);
  // the pages added after the spec: team, history, pull lists, receiving, import, checks, the storage business
  // (billing's tabs, customers, requests) and the scan dialog
  for (const [path, name] of [
    ['/team', '24-team'],
    ['/activity', '25-activity'],
    ['/pull-lists', '26-pull-lists'],
    ['/receive', '27-receive'],
    ['/import', '28-import'],
    ['/checks', '30-checks'],
    ['/billing', '31-billing-accounts'],
    ['/billing/not-billed', '32-billing-not-billed'],
    ['/billing/rates', '33-billing-rates'],
    ['/billing/run', '34-billing-run'],
    ['/billing/invoices', '35-billing-invoices'],
    ['/billing/aging', '36-billing-aging'],
    ['/customers', '37-customers'],
    ['/requests', '38-requests'],
  ] as const) {
    await page.goto(path);
    await page.waitForTimeout(800);
    await shot(page, name, info);
  }
  // a pull list of the floor: its steps and vaults
  await page.goto('/pull-lists');
  await page
    .getByRole('link', { name: /^Request #/ })
    .first()
    .click();
  await page.waitForTimeout(800);
  await shot(page, '26b-pull-list', info);
  await page.goto('/requests');
  // the dock: the load-out of the demo's scheduled request, and a scan made while the Wi-Fi is down
  await page.getByTestId('request-row').filter({ hasText: 'Scheduled' }).first().click();
  await page.getByRole('link', { name: 'Load-out check' }).click();
  await page.waitForTimeout(800);
  await shot(page, '39-load-out', info);
  await page.context().setOffline(true);
  const box = page.getByPlaceholder('Unit number or label');
  await box.fill(
    (await page.getByRole('region', { name: 'Missing' }).locator('li span').first().textContent()) ?? '',
  );
  await box.press('Enter');
  await page.waitForTimeout(800);
  await shot(page, '39b-load-out-offline', info);
  await page.context().setOffline(false);
  // back online the scan is sent and refused (the unit is still in its field): a toast says so, below the top bar
  await page
    .getByText(/refused by the server/)
    .first()
    .waitFor({ timeout: 10_000 });
  await shot(page, '39c-load-out-refused', info, false);
  await page.getByRole('button', { name: 'Scan' }).first().click();
  await page.waitForTimeout(500);
  await shot(page, '29-scan', info, false);
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Open menu' }).click();
  await shot(page, '22-menu', info, false);
  await page.keyboard.press('Escape');
  // the customer's side: the portal a customer opens from the link the office hands over
  await page.goto('/customers');
  await page.getByTestId('customer-row').first().waitFor();
  const send = page
    .getByRole('button', { name: /^Send portal link to / })
    .and(page.locator(':enabled'))
    .first();
  if (await send.count()) {
    await send.click();
    await asGuest(await page.getByTestId('portal-link').inputValue(), '40-portal');
  } else console.log('no customer with an address for a portal link');
  if (link) await asGuest(link, '23-checklist-fill');
  else console.log('no checklist fill-in link found');

  /** A page opened from a link by someone without an account (a customer, the floor's checklist), at this size. */
  async function asGuest(url: string, name: string) {
    const other = await browser.newContext({
      viewport: page.viewportSize()!,
      hasTouch: info.project.name !== 'laptop',
    });
    const guest = await other.newPage();
    await guest.goto(url);
    await guest.waitForTimeout(1_500);
    await shot(guest, name, info);
    await other.close();
  }
});
