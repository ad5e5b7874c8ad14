import type { Locator, Page } from '@playwright/test';
import {
  buildPallet,
  buildRack,
  buildStagedVault,
  buildVault,
  buildWarehouse,
  markFieldFull,
  uniqueSuffix,
} from './factories';
import { e2eDatabase, expect, test } from './fixtures';
import { scanIntoFocused, scanWithKeyboard } from './hand-scanner';

// Issue 27: the daily floor jobs on a laptop, a touch tablet and a touch phone.

test.describe('on a laptop', () => {
  test.use({ viewport: { width: 1366, height: 800 } });

  test('a hand scanner types into the add-vault dialog and its Enter saves; outside a text box it is a scan', async ({
    signedIn: page,
    account,
  }) => {
    const w = await buildWarehouse(e2eDatabase().db, {
      companyId: account.companyId,
      name: `Scan Hall ${uniqueSuffix()}`,
      rows: 2,
      cols: 2,
    });
    await page.goto(`/warehouse/${w.slug}?field=A1`);
    await page.getByRole('region', { name: 'Field A1' }).getByRole('button', { name: '+ Add Vault' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Vault Info' });
    await dialog.getByLabel('Customer Name').fill('SCANNED CUSTOMER');
    await dialog.getByLabel('Vault Number').focus();
    await scanIntoFocused(page, 'SCN-0042');
    await expect(dialog.getByLabel('Vault Number')).toHaveValue('SCN-0042');
    await expect(page.getByRole('dialog', { name: 'Scan' })).toHaveCount(0);
    await dialog.getByLabel('Order Number').focus();
    // the scanner's Enter in the last box saves the form
    await scanIntoFocused(page, 'ORD-77');
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('dialog', { name: 'Scan' })).toHaveCount(0);
    await expect(page.getByTestId('vault-row').filter({ hasText: 'SCN-0042' })).toBeVisible();
    await expect(page.getByTestId('vault-row').filter({ hasText: 'SCN-0042' })).toContainText('SCANNED');

    // with no text box focused, the same burst is a scan and opens the Scan dialog with what was read
    await page.locator('main h1').click();
    await scanWithKeyboard(page, 'SCN-0042');
    const scanDialog = page.getByRole('dialog', { name: 'Scan' });
    await expect(scanDialog).toBeVisible();
    await expect(scanDialog).toContainText('SCN-0042');
  });

  test('Ctrl+K finds a pallet of another warehouse and opens it in Rack View', async ({
    signedIn: page,
    account,
  }) => {
    const db = e2eDatabase().db;
    const suffix = uniqueSuffix();
    const w = await buildWarehouse(db, {
      companyId: account.companyId,
      name: `Rack Hall ${suffix}`,
      rows: 1,
      cols: 1,
    });
    const rack = await buildRack(db, {
      companyId: account.companyId,
      warehouseId: w.id,
      name: 'Rack K',
      shelves: 2,
    });
    await buildPallet(db, {
      companyId: account.companyId,
      shelfId: rack.shelfIds[1]!,
      customer: 'PALLET OWNER',
      slotIndex: 0,
      name: `PK-${suffix}`,
    });
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { name: 'Warehouses' })).toBeVisible();
    await page.keyboard.press('Control+k');
    const find = page.getByRole('dialog', { name: 'Find in every warehouse' });
    await find.getByRole('combobox').fill(`pk-${suffix}`);
    const hit = find.getByRole('option', { name: new RegExp(`PK-${suffix}`, 'i') });
    await expect(hit).toContainText(`Rack Hall ${suffix} · rack Rack K · shelf 2`);
    // arrows and Enter open it
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await expect(find).toBeHidden();
    await expect(page).toHaveURL(new RegExp(`/warehouse/${w.slug}\\?view=rack&rack=${rack.id}`));
    await expect(page.getByRole('region', { name: 'Selected rack' })).toContainText('Rack K');
    // Escape closes the find
    await page.keyboard.press('Control+k');
    await expect(find).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(find).toBeHidden();
  });
});

test.describe('on a laptop, for a manager', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("the history names the field and links to it, and dates follow the company's locale", async ({
    signedIn: page,
    account,
  }) => {
    const name = `History Hall ${uniqueSuffix()}`;
    const w = await buildWarehouse(e2eDatabase().db, {
      companyId: account.companyId,
      name,
      rows: 2,
      cols: 2,
    });
    await buildVault(e2eDatabase().db, {
      companyId: account.companyId,
      fieldId: w.field('B2').id,
      name: 'HIS-1',
    });
    // marking a field full is confirmed with a toast
    await page.goto(`/warehouse/${w.slug}?field=A1`);
    await page
      .getByRole('region', { name: 'Field A1' })
      .getByRole('switch', { name: 'Field is Full' })
      .click();
    await expect(page.getByText('Field A1 marked full')).toBeVisible();
    // the company writes its dates the German way from now on
    expect((await page.request.patch('/api/company', { data: { locale: 'de-DE' } })).status()).toBe(200);

    await page.goto(`/activity`);
    const changes = page.getByRole('list', { name: 'Changes' }).getByTestId('activity-entry');
    const full = changes.filter({ hasText: 'marked field A1' });
    await expect(full).toContainText(`marked field A1 in ${name} full`);
    await expect(full.getByRole('link', { name: 'A1', exact: true })).toHaveAttribute(
      'href',
      `/warehouse/${w.slug}?field=A1`,
    );
    await expect(full.locator('time')).toHaveText(/^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/);
    // a vault's place is a link to its field
    const added = changes.filter({ hasText: 'added vault HIS-1' });
    await added.getByRole('link', { name: `${name} B2 slot 3` }).click();
    await expect(page).toHaveURL(new RegExp(`/warehouse/${w.slug}\\?field=B2$`));
    await expect(page.getByRole('region', { name: 'Field B2' }).getByText('HIS-1')).toBeVisible();

    // a check's page and the list of checks write the date the same way
    await page.goto('/checks');
    await page.getByLabel('Warehouse', { exact: true }).selectOption({ label: name });
    await page.getByRole('button', { name: 'Start check' }).click();
    await expect(page.getByText(/^Started by .* on \d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}\./)).toBeVisible();
  });
});

test.describe('on a touch tablet', () => {
  test.use({ viewport: { width: 820, height: 1180 }, hasTouch: true, isMobile: true });

  test('one tap on a field shows its slots, + Add Vault and Stage without scrolling; a rack tap shows its shelves', async ({
    signedIn: page,
    account,
  }) => {
    const db = e2eDatabase().db;
    const w = await buildWarehouse(db, {
      companyId: account.companyId,
      name: `Tablet Hall ${uniqueSuffix()}`,
      rows: 14,
      cols: 8,
      width: 60,
      length: 80,
    });
    await buildVault(db, { companyId: account.companyId, fieldId: w.field('C12').id, name: 'TAB-1' });
    await buildRack(db, { companyId: account.companyId, warehouseId: w.id, name: 'Low Rack', x: 2, y: 70 });
    await page.goto(`/warehouse/${w.slug}`);
    const tile = page
      .getByRole('group', { name: 'Fields' })
      .getByRole('button', { name: 'C12', exact: true });
    // a tile says how full it is, not only its name
    await expect(tile).toHaveAccessibleDescription('C12: 1 vault');
    await tile.tap();
    const panel = page.getByRole('region', { name: 'Field C12' });
    await expect(panel.getByRole('button', { name: '+ Add Vault' })).toBeInViewport();
    await expect(panel.getByRole('button', { name: 'Stage vault TAB-1' })).toBeInViewport();

    await page.getByRole('button', { name: 'Rack View' }).tap();
    await page.getByRole('button', { name: 'Rack Low Rack' }).first().tap();
    await expect(page.getByRole('region', { name: 'Selected rack' }).getByText('Low Rack')).toBeInViewport();
  });

  test('a staged vault goes back to its field in one step, and Undo puts it back on the stage', async ({
    signedIn: page,
    account,
  }) => {
    const db = e2eDatabase().db;
    const name = `Home Yard ${uniqueSuffix()}`;
    const w = await buildWarehouse(db, { companyId: account.companyId, name, rows: 2, cols: 2 });
    const back = await buildVault(db, {
      companyId: account.companyId,
      fieldId: w.field('A1').id,
      name: 'PB-1',
    });
    const stuck = await buildVault(db, {
      companyId: account.companyId,
      fieldId: w.field('B1').id,
      name: 'PB-2',
    });
    await page.goto('/stage');
    for (const vault of [back, stuck])
      expect((await page.request.post(`/api/stage/vaults/${vault.id}`)).status()).toBe(200);
    // B1 is marked full meanwhile: PB-2 cannot go back there
    await markFieldFull(db, { companyId: account.companyId, fieldId: w.field('B1').id });
    await page.reload();

    await page.getByRole('button', { name: 'Move vault PB-2' }).tap();
    const stuckDialog = page.getByRole('dialog', { name: 'Put vault PB-2 in a field' });
    // the section's spinner, then its answer (the other section has a spinner of its own while it loads)
    await expect(
      stuckDialog.getByRole('region', { name: 'Where it came from' }).getByRole('status'),
    ).toHaveText(`It cannot go back to ${name} B1: ${name} B1 is marked full. Choose another field below.`);
    // the picture starts on the warehouse it came from, free fields green
    await expect(stuckDialog.getByRole('group', { name: `Fields of ${name}` })).toBeVisible();
    await expect(stuckDialog.getByRole('button', { name: 'B1, no room' })).toBeDisabled();
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Move vault PB-1' }).tap();
    const dialog = page.getByRole('dialog', { name: 'Put vault PB-1 in a field' });
    await expect(dialog.getByRole('button').filter({ hasText: '+ Add Vault' })).toHaveCount(0);
    await dialog.getByRole('button', { name: `Back to ${name} A1` }).tap();
    await expect(dialog).toBeHidden();
    const toast = page.getByText(`Vault PB-1 put in ${name} A1, position 3`);
    await expect(toast).toBeVisible();
    // no second window over the toast, and no 'add a vault' question
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Move vault PB-1' })).toHaveCount(0);
    await expect(await stageOf(page)).not.toContain(back.id);

    await page.getByRole('button', { name: 'Undo' }).tap();
    await expect(page.getByText('Back on the stage')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Move vault PB-1' })).toBeVisible();
    await expect(await stageOf(page)).toContain(back.id);
  });

  test('with the outbox badge showing, the warehouse search keeps its whole placeholder', async ({
    signedIn: page,
    account,
  }) => {
    const db = e2eDatabase().db;
    const w = await buildWarehouse(db, {
      companyId: account.companyId,
      name: `Badge Hall ${uniqueSuffix()}`,
      rows: 2,
      cols: 2,
    });
    await buildVault(db, { companyId: account.companyId, fieldId: w.field('A1').id, name: 'BDG-1' });
    // the stage gets no answer, so it waits on this tablet and the top bar shows "1 not synced"
    await page.route('**/api/stage/vaults/**', (route) => route.abort('internetdisconnected'));
    await page.goto(`/warehouse/${w.slug}`);
    await page.getByRole('group', { name: 'Fields' }).getByRole('button', { name: 'A1', exact: true }).tap();
    await page.getByRole('button', { name: 'Stage vault BDG-1' }).tap();
    await page
      .getByRole('alertdialog', { name: 'Stage Vault' })
      .getByRole('button', { name: 'Yes, stage it' })
      .tap();
    await expect(page.getByTestId('outbox-badge')).toHaveText('1 not synced');
    // its toast shows below the bar, the search's row included
    const toast = page.getByText('Vault BDG-1 staged on this device: not synced yet');
    await expect(toast).toBeVisible();
    const bar = (await page.getByRole('banner').boundingBox())!;
    await expect.poll(async () => (await toast.boundingBox())?.y ?? 0).toBeGreaterThanOrEqual(bar.height);

    await expectUsableTopBar(page, 'Search customer/order/vault number...');
  });
});

async function stageOf(page: Page): Promise<number[]> {
  const staged = (await (await page.request.get('/api/stage/vaults')).json()) as Record<
    string,
    { id: number }
  >;
  return Object.values(staged).map((v) => v.id);
}

test.describe('on a touch phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('finds a vault of another warehouse from the dashboard and opens its field', async ({
    signedIn: page,
    account,
  }) => {
    const db = e2eDatabase().db;
    const suffix = uniqueSuffix();
    await buildWarehouse(db, { companyId: account.companyId, name: `Main Hall ${suffix}`, rows: 2, cols: 2 });
    const far = await buildWarehouse(db, {
      companyId: account.companyId,
      name: `Far Hall ${suffix}`,
      rows: 3,
      cols: 3,
    });
    await buildVault(db, {
      companyId: account.companyId,
      fieldId: far.field('B2').id,
      name: `FAR-${suffix}`,
      customerName: 'A VERY LONG CUSTOMER NAME INDEED',
    });
    await buildStagedVault(db, { companyId: account.companyId, name: `FAR-${suffix}-S` });
    await page.goto('/dashboard');
    await page.getByRole('button', { name: 'Find' }).tap();
    const find = page.getByRole('dialog', { name: 'Find in every warehouse' });
    // a sheet as wide as the phone
    expect((await find.boundingBox())!.width).toBe(390);
    await find.getByRole('combobox').fill(`far-${suffix}`);
    const hit = find.getByRole('option', { name: new RegExp(`^FAR-${suffix} ·`) });
    await expect(hit).toContainText(`Far Hall ${suffix} · field B2 · position 3`);
    await expect(hit).toContainText('A VERY LONG CUSTOMER NAME INDEED');
    await expect(find.getByRole('option', { name: new RegExp(`FAR-${suffix}-S`) })).toContainText(
      'On the stage',
    );
    await hit.tap();
    await expect(page).toHaveURL(new RegExp(`/warehouse/${far.slug}\\?field=B2$`));
    const panel = page.getByRole('region', { name: 'Field B2' });
    await expect(panel.getByTestId('vault-row').filter({ hasText: `FAR-${suffix}` })).toBeInViewport();

    // the warehouse search's suggestions are as wide as the phone, not the box, and say the whole name
    await page.getByRole('combobox', { name: 'Search' }).fill('A VERY');
    const list = page.getByRole('listbox', { name: 'Search suggestions' });
    await expect(
      list.getByRole('option', { name: /A VERY LONG CUSTOMER NAME INDEED/ }).first(),
    ).toBeVisible();
    expect((await list.boundingBox())!.width).toBeGreaterThan(360);
    await expect(list.getByRole('option').getByRole('button')).toHaveCount(0);
  });

  test('on a warehouse page the search has a row of its own under the bar, Find and Scan beside the menu', async ({
    signedIn: page,
    account,
  }) => {
    const db = e2eDatabase().db;
    const w = await buildWarehouse(db, {
      companyId: account.companyId,
      name: `Phone Hall ${uniqueSuffix()}`,
      rows: 12,
      cols: 4,
    });
    await buildVault(db, { companyId: account.companyId, fieldId: w.field('B11').id, name: 'PH-1' });
    const rack = await buildRack(db, {
      companyId: account.companyId,
      warehouseId: w.id,
      name: 'Phone Rack',
      x: 2,
      y: 2,
    });
    await buildPallet(db, {
      companyId: account.companyId,
      shelfId: rack.shelfIds[0]!,
      customer: 'Phone Customer',
      slotIndex: 0,
    });
    await page.goto(`/warehouse/${w.slug}`);
    await expectUsableTopBar(page, 'Search customer/order/vault number...');

    // the field brought into view starts below the taller bar, not under it
    await page.getByRole('group', { name: 'Fields' }).getByRole('button', { name: 'B11', exact: true }).tap();
    const panel = page.getByRole('region', { name: 'Field B11' });
    await expect(panel.getByText('PH-1')).toBeInViewport();
    const bar = (await page.getByRole('banner').boundingBox())!;
    await expect.poll(async () => (await panel.boundingBox())!.y).toBeGreaterThanOrEqual(bar.height);

    await page.getByRole('button', { name: 'Rack View' }).tap();
    await expectUsableTopBar(page, 'Search customer/pallet/vault number...');
    await page.getByRole('combobox', { name: 'Search' }).fill('phone');
    await expect(page.getByRole('option', { name: /^PHONE CUSTOMER/ })).toBeInViewport();
    await page.getByRole('button', { name: 'Clear search' }).tap();
    await expect(page.getByRole('combobox', { name: 'Search' })).toHaveValue('');
  });
});

/**
 * The warehouse search on a touch screen: wide enough to read its whole placeholder, and the menu, Find and Scan
 * beside it still 44 px targets.
 */
async function expectUsableTopBar(page: Page, placeholder: string) {
  const search = page.getByRole('combobox', { name: 'Search' });
  await expect(search).toHaveAttribute('placeholder', placeholder);
  expect((await search.boundingBox())!.width).toBeGreaterThanOrEqual(200);
  const { text, room } = await search.evaluate((input: HTMLInputElement) => {
    const style = getComputedStyle(input);
    const context = document.createElement('canvas').getContext('2d')!;
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
    return { text: context.measureText(input.placeholder).width, room: input.clientWidth - padding };
  });
  expect(text).toBeLessThanOrEqual(room);
  const bar = page.getByRole('banner');
  for (const target of [
    bar.getByRole('button', { name: 'Open menu' }),
    bar.getByRole('button', { name: 'Find' }),
    bar.getByRole('button', { name: 'Scan' }),
  ])
    await expectTouchTarget(target);
}

async function expectTouchTarget(target: Locator) {
  await expect(target).toBeInViewport({ ratio: 1 });
  const box = (await target.boundingBox())!;
  expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(44);
}
