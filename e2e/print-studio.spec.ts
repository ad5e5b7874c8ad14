import fs from 'node:fs';
import { buildStagedVault, buildVault, buildWarehouse } from './factories';
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
    const placed = page.getByRole('table', { name: 'Placed vaults' });
    const headers = placed.getByRole('columnheader');
    await expect(headers).toHaveText(['Vault #', 'Customer', 'Type', 'Pos', 'Field', 'Warehouse', 'Notes']);
    const rowsOf = (table: typeof placed) =>
      table
        .getByRole('row')
        .filter({ has: page.getByRole('cell') })
        .filter({ hasText: /\S/ });
    const rows = rowsOf(placed);
    await expect(rows).toHaveCount(4);
    // staged vaults sit in their own section, after the warehouses, not first with a blank warehouse
    await expect(page.getByRole('heading', { level: 2, name: /Staged vaults/ })).toBeVisible();
    const staged = rowsOf(page.getByRole('table', { name: 'Staged vaults' }));
    await expect(staged).toHaveCount(1);
    await expect(staged.nth(0)).toContainText('S-1');
    await expect(staged.nth(0)).toContainText('staged');
    await expect(rows.nth(0)).toContainText('E-1');
    await expect(rows.nth(1).getByRole('cell')).toHaveText([
      'N-2b',
      'ZANG',
      'vault',
      '2',
      'A2',
      'North',
      '=SUM(A1:A2)',
    ]);
    await expect(rows.nth(2)).toContainText('N-2a');
    await expect(rows.nth(3)).toContainText('N-10');

    // a note opens whole
    await staged
      .nth(0)
      .getByRole('button', { name: /line one/ })
      .click();
    const note = page.getByRole('dialog', { name: 'Note of vault S-1' });
    await expect(note).toContainText('line one');
    await expect(note).toContainText('line two');
    await note.getByRole('button', { name: 'Close' }).click();

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('vaults.csv');
    const bytes = fs.readFileSync((await download.path())!);
    expect(bytes.toString('utf8')).toBe(
      '\uFEFF' +
        [
          HEADER,
          'E-1,EAST CO,vault,3,A1,East,',
          `N-2b,ZANG,vault,2,A2,North,'=SUM(A1:A2)`,
          'N-2a,KNOX,vault,3,A2,North,"Fragile, ""top"" only"',
          'N-10,SMITH,vault,3,A10,North,',
          'S-1,WAITING,vault,,staged,,"line one\nline two"',
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

    // End scrolls the page to its foot, where the last field's rows are drawn; pressed again if the first press came
    // while the page was still laying itself out (a loaded machine)
    await expect(async () => {
      await page.keyboard.press('End');
      await expect(page.getByRole('cell', { name: 'J20' }).last()).toBeInViewport({ timeout: 2000 });
    }).toPass({ timeout: 15_000 });

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

  test('filters narrow the table, the CSV and the print alike', async ({ signedIn: page, account }) => {
    const db = e2eDatabase().db;
    const companyId = account.companyId;
    const north = await buildWarehouse(db, { companyId, name: 'North', rows: 2, cols: 1 });
    const south = await buildWarehouse(db, { companyId, name: 'South', rows: 1, cols: 1 });
    await buildVault(db, {
      companyId,
      fieldId: north.field('A1').id,
      name: 'N-1',
      customerName: 'JOHANSSON',
      orderName: '24-1030',
    });
    await buildVault(db, {
      companyId,
      fieldId: north.field('A2').id,
      name: 'N-2',
      customerName: 'KNOX',
      orderName: '24-2000',
      type: 'liftvan',
    });
    await buildVault(db, {
      companyId,
      fieldId: south.field('A1').id,
      name: 'S-9',
      customerName: 'JOHANSSON',
      orderName: '24-1031',
    });
    await buildStagedVault(db, { companyId, name: 'ST-1', customerName: 'JOHANSSON', orderName: '24-1032' });

    await page.goto('/print-studio');
    const filters = page.getByRole('search', { name: 'Filter vaults' });
    const cellsOf = (name: string) =>
      page.getByRole('table', { name }).locator('tbody tr td:first-child').filter({ hasText: /\S/ });
    await expect(cellsOf('Placed vaults')).toHaveText(['N-1', 'N-2', 'S-9']);
    await expect(cellsOf('Staged vaults')).toHaveText(['ST-1']);

    await filters.getByLabel('Warehouse').selectOption('North');
    await expect(cellsOf('Placed vaults')).toHaveText(['N-1', 'N-2']);
    await expect(page.getByRole('table', { name: 'Staged vaults' })).toHaveCount(0);
    await expect(
      page.getByText('2 of 4 vaults match, sorted by warehouse, field and position.'),
    ).toBeVisible();
    await expect(page).toHaveURL(/warehouse=North/);

    await filters.getByLabel('Type').selectOption('liftvan');
    await expect(cellsOf('Placed vaults')).toHaveText(['N-2']);
    await filters.getByRole('button', { name: 'Clear filters' }).click();
    await expect(cellsOf('Placed vaults')).toHaveText(['N-1', 'N-2', 'S-9']);

    await filters.getByLabel('Customer').fill('johan');
    await expect(cellsOf('Placed vaults')).toHaveText(['N-1', 'S-9']);
    await expect(cellsOf('Staged vaults')).toHaveText(['ST-1']);
    await filters.getByLabel('Order').fill('24-103');
    await filters.getByLabel('Placed or staged').selectOption('placed');
    await expect(cellsOf('Placed vaults')).toHaveText(['N-1', 'S-9']);
    await expect(page.getByRole('table', { name: 'Staged vaults' })).toHaveCount(0);
    await filters.getByLabel('Order').fill('1031');
    await expect(cellsOf('Placed vaults')).toHaveText(['S-9']);

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download CSV' }).click();
    const csv = fs.readFileSync((await (await downloading).path())!, 'utf8');
    expect(csv).toBe(`\uFEFF${HEADER}\r\nS-9,JOHANSSON,vault,3,A1,South,\r\n`);

    // the paper copy says what it was narrowed to and holds only those rows
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByText(/1 vault \(customer "johan", order "1031", placed only\)/)).toBeVisible();
    await expect(page.getByRole('cell', { name: 'N-1' })).toHaveCount(0);
    await page.emulateMedia({ media: 'screen' });

    // the filters live in the address, so a reload keeps them
    await page.reload();
    await expect(filters.getByLabel('Order')).toHaveValue('1031');
    await expect(cellsOf('Placed vaults')).toHaveText(['S-9']);
    await filters.getByLabel('Order').fill('no such order');
    await expect(page.getByText('No vaults match these filters')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Download CSV' })).toBeDisabled();
  });

  test('on a phone the list is cards, not seven squeezed columns', async ({ signedIn: page, account }) => {
    const db = e2eDatabase().db;
    const companyId = account.companyId;
    const w = await buildWarehouse(db, { companyId, name: 'Harbour Warehouse', rows: 1, cols: 1 });
    await buildVault(db, {
      companyId,
      fieldId: w.field('A1').id,
      name: 'P-7',
      customerName: 'ABERNATHY AND SONS',
      note: 'A long note about two sofas, a piano that needs a crane, and boxes of books for the attic',
    });
    await buildStagedVault(db, { companyId, name: 'ST-7', customerName: 'WAITING' });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/print-studio');
    await expect(page.getByRole('table')).toHaveCount(0);
    const placed = page.getByRole('list', { name: 'Placed vaults' });
    const card = placed.getByRole('article', { name: 'Vault P-7' });
    await expect(card).toContainText('ABERNATHY AND SONS');
    await expect(card).toContainText('Harbour Warehouse · Field A1 · Pos 3');
    await expect(page.getByRole('list', { name: 'Staged vaults' }).getByRole('article')).toContainText(
      'Staged',
    );
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await card.getByRole('button', { name: /A long note/ }).click();
    await expect(page.getByRole('dialog', { name: 'Note of vault P-7' })).toContainText(
      'boxes of books for the attic',
    );
  });
});
