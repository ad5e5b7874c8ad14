import crypto from 'node:crypto';
import fs from 'node:fs';
import { MAX_UPLOAD_BYTES } from '@domain/rules/capacity';
import { checkCompanyFile } from '../server/transfer/company-file';
import { attachFile, buildAccount, buildVault, buildWarehouse } from './factories';
import { e2eDatabase, expect, signInThroughForm, test } from './fixtures';

test.describe('Backups', () => {
  test('a Manager downloads the company file: it is made in the background with progress, a toast says it is ready, and the file is whole', async ({
    signedIn: page,
    account,
  }) => {
    test.setTimeout(90_000);
    const db = e2eDatabase().db;
    const warehouse = await buildWarehouse(db, { companyId: account.companyId, name: 'Backup Yard' });
    const vault = await buildVault(db, { companyId: account.companyId, fieldId: warehouse.field('A1').id });
    const scan = crypto.randomBytes(MAX_UPLOAD_BYTES);
    await attachFile(account.companyId, vault.id, {
      fileName: 'inventory.pdf',
      contentType: 'application/pdf',
      content: scan,
    });

    await page.goto('/dashboard');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('link', { name: 'Backups' }).click();
    await expect(page).toHaveURL(/\/backups$/);
    await expect(page.getByRole('heading', { name: 'Backups', level: 1 })).toBeVisible();
    await expect(page.getByText('No company file has been made yet.')).toBeVisible();

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download company file' }).click();
    await expect(page.getByRole('button', { name: 'Making the company file...' })).toBeDisabled();
    await expect(page.getByText(/The company file is ready \(\d/)).toBeVisible();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^test-movers-.*-\d{4}-\d{2}-\d{2}\.tar$/);
    const file = test.info().outputPath('company.tar');
    await download.saveAs(file);
    const check = await checkCompanyFile(file);
    expect(check.problems).toEqual([]);
    expect(check.manifest?.company.name).toBe(account.companyName);
    expect(check.manifest?.rows.attachments).toBe(1);
    expect(check.manifest?.members['attachments/1']?.bytes).toBe(MAX_UPLOAD_BYTES);
    expect(fs.statSync(file).size).toBeGreaterThan(MAX_UPLOAD_BYTES);

    // the finished file stays on the page for a second download, also after a reload
    await page.reload();
    await expect(page.getByRole('link', { name: 'Download again' })).toBeVisible();
    await expect(page.getByText(download.suggestedFilename())).toBeVisible();
  });

  test('a Floor member is told on each page that is not theirs why it is not', async ({ page, account }) => {
    const floor = await buildAccount(e2eDatabase().db, { company: account.companyName, role: 'floor' });
    await signInThroughForm(page, floor);
    for (const [path, why] of [
      ['/backups', 'Only a Manager can download the company file.'],
      ['/team', 'Only a Manager can see and change the team.'],
      ['/api-reference', 'Only a Manager can read the API reference.'],
      ['/billing', 'Only the Office role or a Manager can see and change billing.'],
      ['/requests', "Only the Office role or a Manager can see customers' requests."],
      ['/customers', 'Only the Office role or a Manager can see customers and send portal links.'],
      ['/import', 'Only a Manager can import vaults and pallets.'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('note')).toHaveText(why);
      // the page itself is not drawn: its title and the reason are all
      await expect(page.getByRole('main').getByRole('button')).toHaveCount(0);
    }
  });
});
