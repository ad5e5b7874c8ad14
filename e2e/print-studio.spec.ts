import fs from 'node:fs';
import {
  buildStagedVault,
  buildVault,
  buildWarehouse,
} from '../server/features/warehouses/warehouses.factories';
import { e2eDatabase, expect, test } from './fixtures';

/** The server writes to the same SQLite file meanwhile; a write that meets its lock is tried again shortly after. */
async function retryWhileBusy<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      const { code = '', message = '' } = error as { code?: string; message?: string };
      const busy = code.startsWith('SQLITE_BUSY') || /database is locked/.test(message);
      if (!busy || attempt >= 10) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}

const HEADER = 'Vault Name,Customer Name,Vault Type,Position,Field Name,Warehouse Name,Notes';

test.describe('Print Studio', () => {
  test('lists the vaults in print order and downloads the same list as vaults.csv', async ({
    signedIn: page,
    account,
  }) => {
    const db = e2eDatabase().db;
    const companyId = account.companyId;
    const north = await buildWarehouse(db, { companyId, name: 'North', rows: 10, cols: 1 });
    const east = await buildWarehouse(db, { companyId, name: 'East', rows: 1, cols: 1 });
    await buildVault(db, { companyId, fieldId: north.field('A10').id, name: 'N-10', customerName: 'SMITH' });
    await buildVault(db, {
      companyId,
      fieldId: north.field('A2').id,
      name: 'N-2a',
      customerName: 'KNOX',
      note: 'Fragile, "top" only',
    });
    await buildVault(db, {
      companyId,
      fieldId: north.field('A2').id,
      name: 'N-2b',
      customerName: 'ZANG',
      note: '=SUM(A1:A2)',
    });
    await buildVault(db, { companyId, fieldId: east.field('A1').id, name: 'E-1', customerName: 'EAST CO' });
    await buildStagedVault(db, {
      companyId,
      name: 'S-1',
      customerName: 'WAITING',
      note: 'line one\nline two',
    });

    await page.goto('/print-studio');
    await expect(page.getByRole('heading', { level: 1, name: 'Print Studio' })).toBeVisible();
    const headers = page.getByRole('columnheader');
    await expect(headers).toHaveText(['Vault #', 'Customer', 'Type', 'Pos', 'Field', 'Warehouse', 'Notes']);
    const rows = page
      .getByRole('row')
      .filter({ has: page.getByRole('cell') })
      .filter({ hasText: /\S/ });
    await expect(rows).toHaveCount(5);
    await expect(rows.nth(0)).toContainText('S-1');
    await expect(rows.nth(0)).toContainText('staged');
    await expect(rows.nth(1)).toContainText('E-1');
    await expect(rows.nth(2).getByRole('cell')).toHaveText([
      'N-2b',
      'ZANG',
      'vault',
      '2',
      'A2',
      'North',
      '=SUM(A1:A2)',
    ]);
    await expect(rows.nth(3)).toContainText('N-2a');
    await expect(rows.nth(4)).toContainText('N-10');

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('vaults.csv');
    const bytes = fs.readFileSync((await download.path())!);
    expect(bytes.toString('utf8')).toBe(
      '\uFEFF' +
        [
          HEADER,
          'S-1,WAITING,vault,,staged,,"line one\nline two"',
          'E-1,EAST CO,vault,3,A1,East,',
          `N-2b,ZANG,vault,2,A2,North,'=SUM(A1:A2)`,
          'N-2a,KNOX,vault,3,A2,North,"Fragile, ""top"" only"',
          'N-10,SMITH,vault,3,A10,North,',
        ].join('\r\n') +
        '\r\n',
    );
  });

  test('prints a clean paper list: no top bar, no buttons', async ({ signedIn: page, account }) => {
    const db = e2eDatabase().db;
    const warehouse = await buildWarehouse(db, {
      companyId: account.companyId,
      name: 'Paper',
      rows: 1,
      cols: 1,
    });
    await buildVault(db, { companyId: account.companyId, fieldId: warehouse.field('A1').id, name: 'P-1' });
    await page.goto('/print-studio');
    await expect(page.getByRole('cell', { name: 'P-1' })).toBeVisible();
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeHidden();
    await expect(page.getByRole('button', { name: 'Download CSV' })).toBeHidden();
    await expect(page.getByRole('heading', { name: 'Print Studio' })).toBeVisible();
    await expect(page.getByRole('cell', { name: 'P-1' })).toBeVisible();
  });

  test('a long list keeps only the visible rows in the page, and printing renders them all', async ({
    signedIn: page,
    account,
  }) => {
    const db = e2eDatabase().db;
    const companyId = account.companyId;
    const big = await buildWarehouse(db, { companyId, name: 'Big', rows: 20, cols: 10, fieldCapacity: 2 });
    for (const field of big.fields) {
      await retryWhileBusy(() => buildVault(db, { companyId, fieldId: field.id }));
      await retryWhileBusy(() => buildVault(db, { companyId, fieldId: field.id }));
    }
    await page.goto('/print-studio');
    await expect(page.getByText('400 vaults, sorted by warehouse, field and position.')).toBeVisible();
    const dataRows = page.locator('tbody tr:has(td:not(:empty))');
    expect(await dataRows.count()).toBeLessThan(100);

    await page.keyboard.press('End');
    await expect(page.getByRole('cell', { name: 'J20' }).last()).toBeInViewport();

    await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
    await expect(dataRows).toHaveCount(400);
    await page.evaluate(() => window.dispatchEvent(new Event('afterprint')));
    await expect.poll(() => dataRows.count()).toBeLessThan(100);
  });

  test('shows "No vaults found" for a company without vaults, and errors when the list fails', async ({
    signedIn: page,
  }) => {
    await page.goto('/print-studio');
    await expect(page.getByText('No vaults found')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Download CSV' })).toBeDisabled();

    await page.route('**/api/vaults/all', (route) => route.fulfill({ status: 500, body: 'boom' }));
    await page.reload();
    await expect(page.getByRole('alert')).toContainText('An error occurred. Please try again.');
    await expect(page.locator('[data-print-status="failed"]')).toHaveCount(1);
  });
});
