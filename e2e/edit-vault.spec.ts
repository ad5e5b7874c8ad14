import type { Locator, Page } from '@playwright/test';
import { VAULT_CHANGED } from '../server/features/vaults/vaults.service';
import { buildVault, buildWarehouse, saveVaultElsewhere, stored } from './factories';
import { e2eDatabase, expect, test } from './fixtures';
import { expectAlertDialog } from './alert-dialog';

async function openFromVaultRow(page: Page, warehouseSlug: string, field: string, vaultName: string) {
  await page.goto(`/warehouse/${warehouseSlug}`);
  await page.getByRole('group', { name: 'Fields' }).getByRole('button', { name: field, exact: true }).click();
  await page.getByRole('link', { name: `Edit vault ${vaultName}` }).click();
  await expect(page.getByRole('heading', { name: `Edit Vault ${vaultName}` })).toBeVisible();
}

test.describe('Edit Vault', () => {
  test('a filled vault becomes an empty one after Confirm Vault Change, and back', async ({
    signedIn: page,
    account,
  }) => {
    const db = e2eDatabase().db;
    const w = await buildWarehouse(db, {
      companyId: account.companyId,
      name: 'Edit Depot',
      rows: 2,
      cols: 1,
    });
    await buildVault(db, {
      companyId: account.companyId,
      fieldId: w.field('A1').id,
      name: 'E-1',
      customerName: 'JONES',
      orderName: 'ORD-1',
      note: 'Boxes',
    });
    await buildVault(db, {
      companyId: account.companyId,
      fieldId: w.field('A2').id,
      name: 'E-9',
      customerName: 'SMITH',
      orderName: 'ORD-9',
    });
    await openFromVaultRow(page, w.slug, 'A1', 'E-1');
    await expect(page).toHaveURL(/\/edit\/vault\/E-1\?/);

    const form = page.getByRole('form', { name: 'Edit Vault' });
    await expect(form.getByRole('button', { name: 'Regular Mode' })).toHaveAttribute('aria-pressed', 'true');
    await expect(form.getByLabel('Type')).toHaveCount(0);
    await expect(form.getByLabel('Customer Name')).toHaveValue('JONES');
    await expect(form.getByLabel('Order Number')).toHaveValue('ORD-1');
    await expect(form.getByLabel('Note')).toHaveAttribute('placeholder', 'Add a note...');

    await form.getByRole('button', { name: 'Empty Mode' }).click();
    await expect(form.getByLabel('Customer Name')).toHaveValue('EMPTY VAULT');
    await expect(form.getByLabel('Order Number')).toHaveValue('');
    await expect(form.getByLabel('Order Number')).toBeDisabled();
    await expect(form.getByLabel('Type').getByRole('option')).toHaveText(['Vault', 'Liftvan', 'T2']);
    await form.getByLabel('Type').selectOption('liftvan');
    await expect(form.getByLabel('Customer Name')).toHaveValue('EMPTY LIFTVAN');
    await expect(form.getByLabel('Vault Number')).toBeDisabled();
    await expect(form.getByLabel('Vault Number')).toHaveValue('');

    await form.getByRole('button', { name: 'Save' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Confirm Vault Change' });
    await expectAlertDialog(
      confirm,
      'Confirm Vault Change',
      'You are changing the vault to an EMPTY LIFTVAN. This will erase vault info. Are you sure?',
    );
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    await expect(page).toHaveURL(/\/edit\/vault\//);

    await form.getByRole('button', { name: 'Save' }).click();
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    // back on the warehouse page with the vault's field still chosen
    await expect(page).toHaveURL(new RegExp(`/warehouse/${w.slug}\\?field=A1$`));
    await expect(page.getByRole('region', { name: 'Field A1' })).toBeVisible();
    await page
      .getByRole('group', { name: 'Fields' })
      .getByRole('button', { name: 'A1', exact: true })
      .click();
    const row = page.getByRole('region', { name: 'Field A1' }).getByTestId('vault-row');
    await expect(row).toContainText('EMPTY LIFTVAN');

    // an EMPTY customer opens in empty mode with its kind
    await row.getByRole('link', { name: /^Edit vault/ }).click();
    await expect(form.getByRole('button', { name: 'Empty Mode' })).toHaveAttribute('aria-pressed', 'true');
    await expect(form.getByLabel('Type')).toHaveValue('liftvan');
    await expect(form.getByLabel('Note')).toHaveValue('');
    await form.getByRole('button', { name: 'Regular Mode' }).click();
    await expect(form.getByLabel('Customer Name')).toHaveValue('');
    await form.getByLabel('Customer Name').fill('jones again');
    // a number another vault carries is allowed, with a note saying whose it is and what a scan will do
    const number = form.getByLabel('Vault Number');
    await number.fill('E-9');
    await expect(number).toHaveAccessibleDescription(
      "SMITH's vault in Edit Depot A2, position 3 has this number too. It can be saved, but a scan of it will ask which vault is meant.",
    );
    await number.fill('E-2');
    await expect(form.getByText('has this number too')).toHaveCount(0);
    await form.getByLabel('Order Number').fill('ORD-2');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(page).toHaveURL(new RegExp(`/warehouse/${w.slug}(\\?field=[A-Z]+\\d+)?$`));
    await page
      .getByRole('group', { name: 'Fields' })
      .getByRole('button', { name: 'A1', exact: true })
      .click();
    await expect(row).toContainText('JONES AGAIN');
    await expect(row).toContainText('E-2');
  });

  test('works after a reload, refuses a missing order, and reports a change made meanwhile', async ({
    signedIn: page,
    account,
  }) => {
    const db = e2eDatabase().db;
    const w = await buildWarehouse(db, { companyId: account.companyId, rows: 1, cols: 1 });
    const vault = await buildVault(db, {
      companyId: account.companyId,
      fieldId: w.field('A1').id,
      name: 'R-1',
      customerName: 'REED',
    });
    await openFromVaultRow(page, w.slug, 'A1', 'R-1');
    await page.reload();
    const form = page.getByRole('form', { name: 'Edit Vault' });
    await expect(form.getByLabel('Customer Name')).toHaveValue('REED');

    await form.getByLabel('Order Number').fill('');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByText('Order number is required.')).toBeVisible();
    await expect(page).toHaveURL(/\/edit\/vault\//);

    // a colleague saves first
    await saveVaultElsewhere(vault.id);
    await form.getByLabel('Order Number').fill('ORD-NEW');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByRole('alert')).toHaveText(VAULT_CHANGED);
    await expect(page).toHaveURL(/\/edit\/vault\//);
  });

  test('the vault name alone in the address finds the vault', async ({ signedIn: page, account }) => {
    const db = e2eDatabase().db;
    const w = await buildWarehouse(db, { companyId: account.companyId, name: 'Name Only', rows: 1, cols: 1 });
    await buildVault(db, {
      companyId: account.companyId,
      fieldId: w.field('A1').id,
      name: 'BY-NAME',
      customerName: 'NAMED',
    });
    await page.goto('/edit/vault/BY-NAME');
    await expect(page.getByRole('heading', { name: 'Edit Vault BY-NAME' })).toBeVisible();
    await expect(page.getByLabel('Customer Name')).toHaveValue('NAMED');
    await page.getByRole('link', { name: 'Back to Name Only' }).click();
    await expect(page).toHaveURL(new RegExp(`/warehouse/${w.slug}(\\?field=[A-Z]+\\d+)?$`));
  });

  test('upload an attachment, see it listed while nothing else can run, and open it', async ({
    signedIn: page,
    account,
  }) => {
    const db = e2eDatabase().db;
    const w = await buildWarehouse(db, { companyId: account.companyId, rows: 1, cols: 1 });
    await buildVault(db, { companyId: account.companyId, fieldId: w.field('A1').id, name: 'U-1' });
    await openFromVaultRow(page, w.slug, 'A1', 'U-1');
    const attachments = page.getByRole('region', { name: 'Attachments' });
    await expect(attachments.getByText('No attachments')).toBeVisible();

    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/vaults/upload', async (route) => {
      await gate;
      await route.continue();
    });
    const content = 'Inventory: 3 boxes, 1 lamp';
    await attachments
      .getByLabel('Upload Attachment')
      .setInputFiles({ name: 'inventory.txt', mimeType: 'text/plain', buffer: Buffer.from(content) });
    await expect(attachments.getByRole('progressbar', { name: 'Uploading inventory.txt' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Delete', exact: true })).toBeDisabled();
    release();

    const link = attachments.getByRole('link', { name: 'inventory.txt' });
    await expect(link).toBeVisible();
    await expect(attachments.getByRole('progressbar')).toBeHidden();
    await expect(page.getByText('inventory.txt uploaded and saved to the vault')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save' })).toBeEnabled();
    const download = await page.request.get((await link.getAttribute('href'))!);
    expect(download.status()).toBe(200);
    expect(await download.text()).toBe(content);

    await attachments.getByLabel('Upload Attachment').setInputFiles({
      name: 'big.bin',
      mimeType: 'application/octet-stream',
      buffer: Buffer.alloc(5 * 1024 * 1024 + 1),
    });
    // the spec's alert, in the app: named by its title, described by the spec's text
    const alert = page.getByRole('alertdialog', { name: 'File Too Large' });
    await expectAlertDialog(alert, 'File Too Large', 'File size should not exceed 5MB');
    await alert.getByRole('button', { name: 'OK' }).click();
    await expect(alert).toBeHidden();
    await expect(attachments.getByRole('link')).toHaveCount(1);
  });

  test('delete a vault after confirming, back to the warehouse', async ({ signedIn: page, account }) => {
    const db = e2eDatabase().db;
    const w = await buildWarehouse(db, { companyId: account.companyId, rows: 1, cols: 1 });
    await buildVault(db, { companyId: account.companyId, fieldId: w.field('A1').id, name: 'D-1' });
    await openFromVaultRow(page, w.slug, 'A1', 'D-1');
    await page.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Confirm Delete' });
    await expectAlertDialog(
      confirm,
      'Confirm Delete',
      'Are you sure you want to delete this vault? This action cannot be undone.',
    );
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    await page.getByRole('button', { name: 'Delete' }).click();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(page).toHaveURL(new RegExp(`/warehouse/${w.slug}(\\?field=[A-Z]+\\d+)?$`));
    await page
      .getByRole('group', { name: 'Fields' })
      .getByRole('button', { name: 'A1', exact: true })
      .click();
    await expect(page.getByRole('region', { name: 'Field A1' }).getByTestId('vault-row')).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Edit vault D-1' })).toHaveCount(0);
  });

  test('Empty Mode and back keeps what was typed, and the saved vault has it', async ({
    signedIn: page,
    account,
  }) => {
    const db = e2eDatabase().db;
    const w = await buildWarehouse(db, { companyId: account.companyId, rows: 1, cols: 1 });
    const vault = await buildVault(db, {
      companyId: account.companyId,
      fieldId: w.field('A1').id,
      name: 'RT-1',
      customerName: 'OLD NAME',
      orderName: 'OLD-1',
    });
    await openFromVaultRow(page, w.slug, 'A1', 'RT-1');
    const form = page.getByRole('form', { name: 'Edit Vault' });
    await form.getByLabel('Customer Name').fill('johansson');
    await form.getByLabel('Order Number').fill('24-1030');
    await form.getByRole('button', { name: 'Empty Mode' }).click();
    await expect(form.getByLabel('Customer Name')).toHaveValue('EMPTY VAULT');
    await expect(form.getByLabel('Order Number')).toHaveValue('');
    await form.getByRole('button', { name: 'Regular Mode' }).click();
    await expect(form.getByLabel('Customer Name')).toHaveValue('JOHANSSON');
    await expect(form.getByLabel('Order Number')).toHaveValue('24-1030');
    await expect(form.getByLabel('Vault Number')).toHaveValue('RT-1');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(page).toHaveURL(new RegExp(`/warehouse/${w.slug}(\\?field=A1)?$`));
    await expect(page.getByText('Vault RT-1 saved')).toBeVisible();
    const saved = await stored.vault(vault.id);
    expect({ customer: saved.customer, order: saved.order }).toEqual({
      customer: 'JOHANSSON',
      order: '24-1030',
    });
  });

  test('a placeholder without a number is titled by its kind and field', async ({
    signedIn: page,
    account,
  }) => {
    const db = e2eDatabase().db;
    const w = await buildWarehouse(db, { companyId: account.companyId, rows: 4, cols: 2 });
    await buildVault(db, {
      companyId: account.companyId,
      fieldId: w.field('B4').id,
      customerName: 'EMPTY VAULT',
      name: '',
    });
    await page.goto(`/warehouse/${w.slug}`);
    await page
      .getByRole('group', { name: 'Fields' })
      .getByRole('button', { name: 'B4', exact: true })
      .click();
    await page
      .getByRole('region', { name: 'Field B4' })
      .getByRole('link', { name: /^Edit vault/ })
      .click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Edit Empty vault in B4');
  });

  test("deleting from an edit page opened from a bookmark lands on the vault's warehouse", async ({
    signedIn: page,
    account,
  }) => {
    const db = e2eDatabase().db;
    const w = await buildWarehouse(db, {
      companyId: account.companyId,
      name: 'Bookmark Barn',
      rows: 1,
      cols: 1,
    });
    await buildVault(db, { companyId: account.companyId, fieldId: w.field('A1').id, name: 'BM-1' });
    // a new tab with no history, as a bookmark opens it
    const tab = await page.context().newPage();
    await tab.goto('/edit/vault/BM-1');
    await expect(tab.getByRole('heading', { name: 'Edit Vault BM-1' })).toBeVisible();
    await tab.getByRole('button', { name: 'Delete', exact: true }).click();
    await tab
      .getByRole('alertdialog', { name: 'Confirm Delete' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await expect(tab).toHaveURL(new RegExp(`/warehouse/${w.slug}(\\?field=A1)?$`));
    await expect(tab.getByRole('heading', { name: 'Bookmark Barn' })).toBeVisible();
    await expect(tab.getByText('Vault BM-1 deleted')).toBeVisible();
    await expect(tab.getByText('Vault could not be found')).toHaveCount(0);
  });

  test('an upload shows its progress in percent, and an attachment is deleted after confirming', async ({
    signedIn: page,
    account,
  }) => {
    const db = e2eDatabase().db;
    const w = await buildWarehouse(db, { companyId: account.companyId, rows: 1, cols: 1 });
    const vault = await buildVault(db, {
      companyId: account.companyId,
      fieldId: w.field('A1').id,
      name: 'AT-1',
    });
    await openFromVaultRow(page, w.slug, 'A1', 'AT-1');
    const attachments = page.getByRole('region', { name: 'Attachments' });
    await expect(attachments).toContainText('saved to the vault as soon as it is uploaded');

    // a slow link: 1.5 MB at about 512 kB/s takes a few seconds
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 20,
      downloadThroughput: -1,
      uploadThroughput: 512 * 1024,
    });
    const seen = new Set<number>();
    const bar = attachments.getByRole('progressbar', { name: 'Uploading plan.bin' });
    await attachments.getByLabel('Upload Attachment').setInputFiles({
      name: 'plan.bin',
      mimeType: 'application/octet-stream',
      buffer: Buffer.alloc(1536 * 1024, 7),
    });
    await expect(bar).toBeVisible();
    await expect
      .poll(
        async () => {
          const now = await bar.getAttribute('aria-valuenow').catch(() => null);
          if (now !== null) seen.add(Number(now));
          return [...seen].some((value) => value > 0 && value < 100);
        },
        { intervals: [50], timeout: 20_000 },
      )
      .toBe(true);
    await expect(attachments.getByRole('link', { name: 'plan.bin' })).toBeVisible({ timeout: 20_000 });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await expect(bar).toBeHidden();
    await expect(page.getByText('plan.bin uploaded and saved to the vault')).toBeVisible();

    await attachments.getByRole('button', { name: 'Delete attachment plan.bin' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete Attachment' });
    await expectAlertDialog(
      confirm,
      'Delete Attachment',
      'Are you sure you want to delete plan.bin? This action cannot be undone.',
    );
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(attachments.getByRole('link', { name: 'plan.bin' })).toBeVisible();
    await attachments.getByRole('button', { name: 'Delete attachment plan.bin' }).click();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(confirm).toBeHidden();
    await expect(page.getByText('plan.bin deleted')).toBeVisible();
    await expect(attachments.getByRole('link', { name: 'plan.bin' })).toHaveCount(0);
    await expect(attachments.getByText('No attachments')).toBeVisible();
    expect(await stored.attachmentIds(vault.id)).toEqual([]);
  });

  /** The vertical gap between the bottom of `above` and the top of `below`, in pixels. */
  async function gapBetween(above: Locator, below: Locator) {
    const upper = (await above.boundingBox())!;
    const lower = (await below.boundingBox())!;
    return lower.y - (upper.y + upper.height);
  }

  for (const [device, size] of [
    ['laptop', { viewport: { width: 1280, height: 800 } }],
    ['touch tablet', { viewport: { width: 820, height: 1180 }, hasTouch: true, isMobile: true }],
    ['touch phone', { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true }],
  ] as const) {
    test.describe(`on a ${device}`, () => {
      test.use(size);

      test('the place line keeps its distance from the fields below it', async ({
        signedIn: page,
        account,
      }) => {
        const db = e2eDatabase().db;
        // a long warehouse name and an order link: on a phone the place line wraps
        const w = await buildWarehouse(db, {
          companyId: account.companyId,
          name: 'Riverside Storage Annex',
          rows: 1,
          cols: 1,
        });
        const put = (name: string) =>
          buildVault(db, {
            companyId: account.companyId,
            fieldId: w.field('A1').id,
            name,
            orderName: 'ORD-77',
          });
        await put('SP-1');
        await put('SP-2');
        await openFromVaultRow(page, w.slug, 'A1', 'SP-2');
        const form = page.getByRole('form', { name: 'Edit Vault' });
        const place = form.getByText(/Riverside Storage Annex, field A1, position/);
        await expect(place).toContainText('on top');
        // the form's 16 px between its parts (the line ran into the label with none)
        expect(
          await gapBetween(place, form.getByText('Customer Name', { exact: true })),
        ).toBeGreaterThanOrEqual(12);
      });
    });
  }
});
