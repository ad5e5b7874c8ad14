import type { Locator, Page } from '@playwright/test';
import {
  buildChecklist,
  buildPallet,
  buildRack,
  buildVault,
  buildWarehouse,
  stored,
  uniqueSuffix,
} from './factories';
import { e2eDatabase, expect, test } from './fixtures';

// links and titles, search, Rack Info's edit, the VAULTS block and the remembered checklist name

const PX_PER_FT = 10;
const plan = (page: Page) => page.getByRole('group', { name: 'Rack layout plan' });

async function dragTo(page: Page, item: Locator, x: number, y: number) {
  await plan(page).scrollIntoViewIfNeeded();
  const box = (await item.boundingBox())!;
  const floor = (await plan(page).boundingBox())!;
  const dx = floor.x + 2 + x * PX_PER_FT - box.x;
  const dy = floor.y + 2 + y * PX_PER_FT - box.y;
  const start = { x: box.x + Math.min(6, box.width / 2), y: box.y + Math.min(6, box.height / 2) };
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move(start.x + dx / 2, start.y + dy / 2, { steps: 6 });
  await page.mouse.move(start.x + dx, start.y + dy, { steps: 6 });
  await page.mouse.up();
}

async function depot(companyId: number) {
  const db = e2eDatabase().db;
  const w = await buildWarehouse(db, {
    companyId,
    name: `Depot ${uniqueSuffix()}`,
    rows: 2,
    cols: 2,
    width: 60,
    length: 40,
    gridX: 40,
    gridY: 25,
  });
  const anchor = await buildRack(db, {
    companyId,
    warehouseId: w.id,
    name: 'Anchor',
    x: 10,
    y: 10,
    shelves: 1,
    capacity: 2,
  });
  const mover = await buildRack(db, { companyId, warehouseId: w.id, name: 'Mover', x: 30, y: 20 });
  return { w, anchor, mover };
}

test.describe('links and titles', () => {
  test('a signed-out deep link returns after signing in; each screen titles the tab', async ({
    page,
    account,
  }) => {
    test.setTimeout(60_000);
    const w = await buildWarehouse(e2eDatabase().db, {
      companyId: account.companyId,
      name: `Deep ${uniqueSuffix()}`,
      rows: 1,
      cols: 1,
    });
    await page.goto(`/warehouse/${w.slug}`);
    await expect(page).toHaveURL(/\/login$/);
    await expect(page).toHaveTitle('Sign in · Warehouse Manager');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(new RegExp(`/warehouse/${w.slug}$`));
    await expect(page).toHaveTitle(`${w.name} · Warehouse Manager`);

    for (const [path, title] of [
      ['/dashboard', 'Warehouses'],
      ['/stage', 'Stage'],
      ['/statistics', 'Statistics'],
      ['/print-studio', 'Print Studio'],
      ['/warehouse-checklists', 'Warehouse Checklists'],
      [`/edit/${w.slug}`, `Edit ${w.name}`],
    ] as const) {
      await page.goto(path);
      await expect(page).toHaveTitle(`${title} · Warehouse Manager`);
    }
  });

  test('an unknown warehouse offers the way back to the dashboard', async ({ signedIn: page }) => {
    await page.goto('/warehouse/no-such-place');
    await expect(page.getByText('Warehouse could not be fetched')).toBeVisible();
    await expect(page).toHaveTitle('Warehouse not found · Warehouse Manager');
    await page.getByRole('link', { name: 'Back to warehouses' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });
});

test.describe('search', () => {
  test("says 'No matches', clears on leaving, and finds vault numbers in rack view", async ({
    signedIn: page,
    account,
  }) => {
    const { w } = await depot(account.companyId);
    await buildVault(e2eDatabase().db, {
      companyId: account.companyId,
      fieldId: w.field('B2').id,
      customerName: 'HOLMES',
      name: 'V-221',
    });
    await page.goto(`/warehouse/${w.slug}`);
    const field = (name: string) =>
      page.getByRole('group', { name: 'Fields' }).getByRole('button', { name, exact: true });
    await expect(field('A1')).toBeVisible();
    const search = page.getByRole('combobox', { name: 'Search' });
    await search.fill('zzz-nothing');
    await expect(page.getByRole('status').filter({ hasText: 'No matches' })).toBeVisible();

    await search.fill('holm');
    await page.getByRole('option', { name: /^HOLMES/ }).click();
    await expect(field('B2')).toHaveAttribute('data-match', 'true');
    // leaving the search clears it (spec 2.2)
    await page.getByRole('heading', { name: w.name }).click();
    await expect(search).toHaveValue('');
    await expect(page.getByRole('group', { name: 'Fields' }).locator('[data-match]')).toHaveCount(0);

    // rack view finds the vault numbers its placeholder promises and shows the vault's field
    await page.getByRole('button', { name: 'Rack View' }).click();
    await expect(search).toHaveAttribute('placeholder', 'Search customer/pallet/vault number...');
    await search.fill('221');
    const option = page.getByRole('option', { name: /V-221/ });
    await expect(option).toContainText('Vault');
    await option.click();
    await expect(field('B2')).toHaveAttribute('data-match', 'true');
    await expect(search).toHaveValue('V-221');
  });
});

test.describe('racks', () => {
  test('a rack dropped onto the VAULTS block is refused like an overlap', async ({
    signedIn: page,
    account,
  }) => {
    const { w, mover } = await depot(account.companyId);
    await page.goto(`/edit/${w.slug}`);
    const moverButton = plan(page).getByRole('button', { name: 'Rack Mover' });
    await expect(moverButton).toBeVisible();
    let saves = 0;
    page.on('request', (r) => {
      if (r.method() === 'PUT' && r.url().endsWith(`/rack/${mover.id}`)) saves += 1;
    });
    await dragTo(page, moverButton, 42, 28);
    await expect(page.getByText('Invalid rack position: it overlaps the VAULTS field block.')).toBeVisible();
    expect(saves).toBe(0);
    const row = await stored.rack(mover.id);
    expect({ x: row?.x, y: row?.y }).toEqual({ x: 30, y: 20 });
  });

  test('Rack Info renames and resizes a rack, and refuses what the pallets or walls forbid', async ({
    signedIn: page,
    account,
  }) => {
    const { w, anchor } = await depot(account.companyId);
    await buildPallet(e2eDatabase().db, {
      companyId: account.companyId,
      shelfId: anchor.shelfIds[0]!,
      customer: 'KNOX',
      slotIndex: 1,
    });
    await page.goto(`/edit/${w.slug}`);
    await plan(page).getByRole('button', { name: 'Rack Anchor' }).click();
    const info = page.getByRole('dialog', { name: 'Rack Info' });
    await info.getByRole('button', { name: 'Edit' }).click();
    const form = info.getByRole('form', { name: 'Edit rack' });
    await form.getByLabel('Name').fill('Renamed');
    await form.getByLabel('Width (ft)').fill('14');
    await form.getByRole('button', { name: 'Save rack' }).click();
    await expect(page.getByText('Rack Renamed saved.')).toBeVisible();
    await expect(info).toContainText('Renamed');
    await expect(info).toContainText('14 ft');

    await info.getByRole('button', { name: 'Edit' }).click();
    await form.getByLabel('Capacity per shelf').fill('1');
    await form.getByRole('button', { name: 'Save rack' }).click();
    await expect(form.getByRole('alert')).toHaveText(
      'Shelf 1 holds pallets up to space 2. Move or delete them, or keep the capacity at 2 or more.',
    );
    await form.getByLabel('Capacity per shelf').fill('2');
    await form.getByLabel('Width (ft)').fill('55');
    await form.getByRole('button', { name: 'Save rack' }).click();
    await expect(form.getByRole('alert')).toHaveText(
      'Invalid rack position: the rack must stay inside the warehouse walls.',
    );
    const row = await stored.rack(anchor.id);
    expect({ name: row?.name, width: row?.width, capacity: row?.capacity }).toEqual({
      name: 'Renamed',
      width: 14,
      capacity: 2,
    });
  });
});

test.describe('add-warehouse preview', () => {
  test('keeps 2 px per foot where the floor fits and draws a big floor smaller', async ({
    signedIn: page,
  }) => {
    await page.goto('/add-warehouse');
    const form = page.getByRole('form', { name: 'Add Warehouse' });
    await form.getByLabel('Length (ft)').fill('100');
    await form.getByLabel('Width (ft)').fill('150');
    const floor = page.getByTestId('warehouse-preview');
    await expect(floor).toHaveCSS('width', '300px');
    await form.getByLabel('Width (ft)').fill('600');
    await expect(page.getByTestId('preview-size')).toContainText('drawn smaller to fit');
    const box = (await floor.boundingBox())!;
    const area = (await page.getByRole('region', { name: 'Preview' }).boundingBox())!;
    expect(box.width).toBeLessThanOrEqual(area.width);
  });
});

test.describe('checklist fill-in', () => {
  test('remembers the name on this device', async ({ browser, account }) => {
    const db = e2eDatabase().db;
    const warehouse = await buildWarehouse(db, {
      companyId: account.companyId,
      name: `Dock ${uniqueSuffix()}`,
      rows: 1,
      cols: 1,
    });
    const { linkKey: key } = await buildChecklist(db, {
      companyId: account.companyId,
      warehouseId: warehouse.id,
      description: 'Round',
      tasks: ['Sweep'],
    });
    const context = await browser.newContext();
    const page = await context.newPage();
    const link = `/${warehouse.slug}-checklist?key=${key}`;
    await page.goto(link);
    await page.getByLabel('Your Name').fill('Rosa ');
    await page.reload();
    await expect(page.getByLabel('Your Name')).toHaveValue('Rosa');
    await expect(page.getByRole('button', { name: 'Yes: Sweep' })).toBeEnabled();
    await context.close();
  });
});

test.describe('big grids on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  test('a 9-column warehouse opens fitted with every column in view; one tap opens a field and zooms in to 44 px tiles', async ({
    signedIn: page,
    account,
  }) => {
    const w = await buildWarehouse(e2eDatabase().db, {
      companyId: account.companyId,
      name: `Phone Depot ${uniqueSuffix()}`,
      rows: 12,
      cols: 9,
    });
    await page.goto(`/warehouse/${w.slug}`);
    const fields = page.getByRole('group', { name: 'Fields' });
    const fit = page.getByRole('toolbar', { name: 'Grid zoom' }).getByRole('button', { name: 'Fit' });
    await expect(fit).toHaveAttribute('aria-pressed', 'true');
    // the whole grid is reachable without scrolling sideways: every column's tiles lie inside the screen
    for (const name of ['A1', 'H1', 'I1', 'I12']) {
      const box = (await fields.getByRole('button', { name, exact: true }).boundingBox())!;
      expect(box.x, name).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, name).toBeLessThanOrEqual(390);
      await expect(fields.getByRole('button', { name, exact: true })).toHaveText(name);
    }
    const scroller = page.getByTestId('field-grid-scroller');
    expect(await scroller.evaluate((e) => e.scrollWidth - e.clientWidth)).toBeLessThanOrEqual(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // the zoom controls are finger-sized
    for (const button of await page.getByRole('toolbar', { name: 'Grid zoom' }).getByRole('button').all()) {
      const box = (await button.boundingBox())!;
      expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(44);
    }

    // a fitted tile is under 44 px: one tap opens the field (issue 27) and zooms in around it
    const h7 = fields.getByRole('button', { name: 'H7', exact: true });
    expect((await h7.boundingBox())!.width).toBeLessThan(44);
    await h7.tap();
    await expect(fit).toHaveAttribute('aria-pressed', 'false');
    await expect(page.getByRole('region', { name: 'Field H7' })).toBeVisible();
    await expect(h7).toHaveAttribute('aria-pressed', 'true');
    const zoomed = (await h7.boundingBox())!;
    expect(Math.min(zoomed.width, zoomed.height)).toBeGreaterThanOrEqual(44);
    // full size, the grid scrolls sideways and says so
    await expect(page.getByText('Scroll sideways for more columns')).toBeAttached();

    // the far columns are reachable at full size too (back at the top of the page, which scrolled to the field)
    await page.evaluate(() => window.scrollTo(0, 0));
    await scroller.evaluate((e) => e.scrollTo({ left: e.scrollWidth }));
    await expect(fields.getByRole('button', { name: 'I1', exact: true })).toBeInViewport();
    await expect(fields.getByRole('button', { name: 'A1', exact: true })).not.toBeInViewport();

    // Fit again brings back the whole grid
    await fit.tap();
    await expect(fields.getByRole('button', { name: 'A1', exact: true })).toBeInViewport();
    await expect(fields.getByRole('button', { name: 'I1', exact: true })).toBeInViewport();
  });

  test('a grid that fits at full size opens at full size', async ({ signedIn: page, account }) => {
    const w = await buildWarehouse(e2eDatabase().db, {
      companyId: account.companyId,
      name: `Small Phone Depot ${uniqueSuffix()}`,
      rows: 3,
      cols: 5,
    });
    await page.goto(`/warehouse/${w.slug}`);
    const fit = page.getByRole('toolbar', { name: 'Grid zoom' }).getByRole('button', { name: 'Fit' });
    await expect(fit).toHaveAttribute('aria-pressed', 'false');
    const e3 = page.getByRole('group', { name: 'Fields' }).getByRole('button', { name: 'E3', exact: true });
    const box = (await e3.boundingBox())!;
    expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(44);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await e3.tap();
    await expect(page.getByRole('region', { name: 'Field E3' })).toBeVisible();
  });
});
