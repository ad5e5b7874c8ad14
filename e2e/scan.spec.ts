import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { renderPage } from '../server/features/labels/pdf-render';
import { writeY4m } from './fake-camera';
import { E2E_CHROMIUM } from './e2e-env';
import { buildStagedVault, buildVault, buildWarehouse, markFieldFull, stored } from './factories';
import { e2eDatabase, expect, signInThroughForm, test } from './fixtures';
import { scanWithKeyboard } from './hand-scanner';

const placeOf = async (vaultId: number) => {
  const { field_id, position } = await stored.vault(vaultId);
  return { field_id, position };
};

test.describe('Scanning', () => {
  test('a keyboard scanner finds a staged vault and moves it into a scanned field; a full field is refused', async ({
    signedIn: page,
    account,
  }) => {
    const db = e2eDatabase().db;
    const warehouse = await buildWarehouse(db, {
      companyId: account.companyId,
      name: 'Key Hall',
      rows: 2,
      cols: 2,
      fieldCapacity: 3,
    });
    await markFieldFull(db, { companyId: account.companyId, fieldId: warehouse.field('A1').id });
    const vault = await buildStagedVault(db, { companyId: account.companyId, name: 'KB-1' });
    const second = await buildStagedVault(db, { companyId: account.companyId, name: 'KB-2' });

    const scan = (text: string) => scanWithKeyboard(page, text);
    await page.goto('/dashboard');
    await expect(page.getByRole('button', { name: 'Scan', exact: true })).toBeVisible();
    await scan('KB-1');
    const dialog = page.getByRole('dialog', { name: 'Scan' });
    await expect(dialog.getByTestId('scanned-vault')).toHaveText('KB-1');
    await expect(dialog).toContainText('On the stage');

    await scan('Key Hall B2');
    await expect(dialog.getByText('Move vault KB-1 into field B2 of Key Hall?')).toBeVisible();
    await dialog.getByRole('button', { name: 'Move here' }).click();
    await expect(dialog.getByRole('status')).toHaveText('Vault KB-1 is now in field B2, position 3.');
    expect(await placeOf(vault.id)).toEqual({ field_id: warehouse.field('B2').id, position: 3 });

    // with the focus in the dialog's own box, the scanner types into it and its Enter reads it
    await dialog.getByLabel('Label text').fill('KB-2');
    await dialog.getByLabel('Label text').press('Enter');
    await expect(dialog.getByTestId('scanned-vault')).toHaveText('KB-2');
    await scan('Key Hall A1');
    await dialog.getByRole('button', { name: 'Move here' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('Field A1 is full.');
    expect(await placeOf(second.id)).toEqual({ field_id: null, position: null });
    await expect(dialog.getByRole('heading', { name: 'Last scans' })).toBeVisible();
  });

  test('a number two vaults carry lists both to choose from; a vault with others on it awaits no field', async ({
    signedIn: page,
    account,
  }) => {
    const db = e2eDatabase().db;
    const warehouse = await buildWarehouse(db, {
      companyId: account.companyId,
      name: 'Twin Hall',
      rows: 1,
      cols: 2,
    });
    const bottom = await buildVault(db, {
      companyId: account.companyId,
      fieldId: warehouse.field('A1').id,
      name: 'TW-1',
      customerName: 'LOWE',
    });
    await buildVault(db, { companyId: account.companyId, fieldId: warehouse.field('A1').id, name: 'TW-2' });
    await buildStagedVault(db, { companyId: account.companyId, name: 'TW-1', customerName: 'STAGER' });

    await page.goto('/dashboard');
    await expect(page.getByRole('button', { name: 'Scan', exact: true })).toBeVisible();
    // typed in lower case, as a scanner behind caps lock sends it
    await scanWithKeyboard(page, 'tw-1');
    const dialog = page.getByRole('dialog', { name: 'Scan' });
    await expect(dialog.getByRole('alert')).toHaveText(
      'Several vaults are numbered "tw-1": choose the one you mean.',
    );
    const choices = dialog.getByRole('list', { name: 'Vaults numbered tw-1' });
    await expect(choices.getByRole('button')).toHaveText([
      'TW-1 · LOWE, in Twin Hall A1, position 3',
      'TW-1 · STAGER, on the stage',
    ]);
    await choices.getByRole('button', { name: /LOWE/ }).click();
    await expect(dialog.getByTestId('scanned-vault')).toHaveText('TW-1');
    await expect(choices).toHaveCount(0);
    // TW-2 stands on it: it cannot move, so no field scan is asked for, and a field scan opens the field instead
    await expect(dialog.getByText('Scan a field label to move this vault there.')).toHaveCount(0);
    await scanWithKeyboard(page, 'Twin Hall B1');
    await expect(page).toHaveURL(/field=B1/);
    expect(await placeOf(bottom.id)).toEqual({ field_id: warehouse.field('A1').id, position: 3 });
  });

  test('slow typing in a text box is not taken for a scan', async ({ signedIn: page }) => {
    await page.goto('/add-warehouse');
    const name = page.getByLabel('Name', { exact: true });
    await name.click();
    await page.keyboard.type('SLOW', { delay: 120 });
    await page.keyboard.press('Enter');
    await expect(name).toHaveValue('SLOW');
    await expect(page.getByRole('dialog', { name: 'Scan' })).toHaveCount(0);
  });

  test('the tablet camera reads a printed vault label and shows where the vault stands', async ({
    account,
    baseURL,
  }) => {
    const db = e2eDatabase().db;
    const warehouse = await buildWarehouse(db, {
      companyId: account.companyId,
      name: 'Camera Hall',
      rows: 2,
      cols: 2,
    });
    const target = await buildVault(db, {
      companyId: account.companyId,
      fieldId: warehouse.field('B1').id,
      name: 'CAM-1',
    });
    await buildVault(db, { companyId: account.companyId, fieldId: warehouse.field('B1').id, name: 'CAM-2' });

    // the label as printed: the real PDF from the server, rendered by pdftoppm, played as the camera's video
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fake-camera-'));
    try {
      const setup = await chromium.launch({ executablePath: '/usr/bin/chromium' });
      const setupPage = await (await setup.newContext({ baseURL })).newPage();
      await signInThroughForm(setupPage, account);
      const pdf = await setupPage.request.post('/api/labels/vaults', {
        data: { format: 'thermal-4x6', vaultIds: [target.id] },
      });
      expect(pdf.status()).toBe(200);
      const pdfFile = path.join(dir, 'label.pdf');
      fs.writeFileSync(pdfFile, await pdf.body());
      await setup.close();
      const video = path.join(dir, 'label.y4m');
      writeY4m(video, await renderPage(pdfFile, 1, 72));

      const browser = await chromium.launch({
        executablePath: E2E_CHROMIUM,
        args: [
          '--use-fake-device-for-media-stream',
          '--use-fake-ui-for-media-stream',
          `--use-file-for-fake-video-capture=${video}`,
        ],
      });
      try {
        const context = await browser.newContext({
          baseURL,
          viewport: { width: 800, height: 1280 },
          hasTouch: true,
        });
        await context.grantPermissions(['camera']);
        const tablet = await context.newPage();
        await signInThroughForm(tablet, account);
        await tablet.getByRole('button', { name: 'Scan', exact: true }).click();
        const dialog = tablet.getByRole('dialog', { name: 'Scan' });
        await expect(dialog.getByTestId('scanned-vault')).toHaveText('CAM-1', { timeout: 15_000 });
        await expect(dialog.getByTestId('scanned-field')).toHaveText('B1');
        await expect(dialog.getByTestId('vaults-above')).toHaveText('1');
        // one vault on top of it: Stage and Move are not offered until it comes off, and the dialog says why
        await expect(dialog.getByRole('button', { name: 'Stage' })).toBeDisabled();
        await expect(dialog.getByRole('button', { name: 'Move' })).toBeDisabled();
        await expect(dialog.getByRole('note')).toContainText('1 vault stands on top of it');
        await expect(dialog.getByRole('link', { name: 'Edit' })).toBeVisible();
      } finally {
        await browser.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a vault label link opened signed out asks to sign in, then shows the vault', async ({
    page,
    account,
  }) => {
    const db = e2eDatabase().db;
    const warehouse = await buildWarehouse(db, {
      companyId: account.companyId,
      name: 'Link Hall',
      rows: 1,
      cols: 1,
    });
    const vault = await buildVault(db, {
      companyId: account.companyId,
      fieldId: warehouse.field('A1').id,
      name: 'LNK-1',
    });
    const { label_code } = await stored.vault(vault.id);
    await page.goto(`/v/${label_code}`);
    await expect(page).toHaveURL(/\/login$/);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(new RegExp(`/v/${label_code}$`));
    await expect(page.getByTestId('scanned-vault')).toHaveText('LNK-1');
    await expect(page.getByRole('link', { name: 'Open field A1 in Link Hall' })).toBeVisible();
  });
});
