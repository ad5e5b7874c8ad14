import { buildRack, buildWarehouse, stored } from './factories';
import { callApi, e2eDatabase, expect, test } from './fixtures';

const HEADER = 'Site,Spot,Level,Crate,Who,Job,Kind,Remarks';
const csv = (lines: string[]) => ({
  name: 'inventory.csv',
  mimeType: 'text/csv',
  buffer: Buffer.from(`${HEADER}\r\n${lines.join('\r\n')}\r\n`),
});

test.describe('Import', () => {
  test('maps an unknown header, shows the problems of the dry run, takes the fixed file, imports it and undoes it', async ({
    signedIn: page,
    account,
  }) => {
    const db = e2eDatabase().db;
    await buildWarehouse(db, { companyId: account.companyId, name: 'Depot', rows: 2, cols: 2 });
    const vaults = () => stored.vaultsOfCompany(account.companyId);

    await page.goto('/import');
    await expect(page.getByRole('heading', { level: 1, name: 'Import' })).toBeVisible();
    const broken = ['Depot,A1,3,K-1,LEE,J-1,vault,first', 'Depot,A1,1,K-2,LEE,J-1,vault,second'];
    await page.getByLabel('Spreadsheet of vaults (CSV or XLSX, at most 5 MB)').setInputFiles(csv(broken));

    // 'Site' and 'Level' are recognised; nobody told the import that 'Who' is the customer
    const problems = page.getByRole('table', { name: 'Problems' });
    await expect(problems).toContainText('No column of the file is chosen for Customer');
    await expect(page.getByLabel('Warehouse', { exact: true })).toHaveValue('Site');
    await expect(page.getByLabel('Position', { exact: true })).toHaveValue('Level');
    await page.getByLabel('Customer (required)').selectOption('Who');
    await page.getByLabel('Field', { exact: true }).selectOption('Spot');
    await page.getByLabel('Vault Number', { exact: true }).selectOption('Crate');
    await page.getByLabel('Order', { exact: true }).selectOption('Job');
    await page.getByLabel('Note', { exact: true }).selectOption('Remarks');
    await page.getByRole('button', { name: 'Check again' }).click();

    // the second vault would leave a gap under it in A1
    const row = problems.getByRole('row').filter({ hasText: 'would leave an empty slot' });
    await expect(row).toHaveCount(1);
    await expect(row.getByRole('cell').nth(0)).toHaveText('3');
    await expect(row.getByRole('cell').nth(1)).toHaveText('Level');
    await expect(page.getByRole('button', { name: /^Import \d+ vaults$/ })).toBeDisabled();
    expect(await vaults()).toEqual([]);

    // fixed in the spreadsheet and chosen again: the mapping stays
    const fixed = ['Depot,A1,3,K-1,LEE,J-1,vault,first', 'Depot,A1,2,K-2,LEE,J-1,vault,second'];
    await page.getByLabel('Spreadsheet of vaults (CSV or XLSX, at most 5 MB)').setInputFiles(csv(fixed));
    await expect(page.getByText('No problems found.')).toBeVisible();
    await expect(page.getByLabel('Customer (required)')).toHaveValue('Who');
    await expect(page.getByTestId('dry-run-summary')).toContainText('2 rows: 2 into fields, 0 to the stage');
    await page.getByRole('button', { name: 'Import 2 vaults' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Imported 2 vaults' })).toBeVisible();
    expect((await vaults()).map((v) => [v.name, v.position]).sort()).toEqual([
      ['K-1', 3],
      ['K-2', 2],
    ]);

    // Undo asks first; saying no keeps the vaults
    await page.getByRole('button', { name: 'Undo the import of inventory.csv' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Undo import' });
    await expect(confirm).toContainText('removes the 2 vaults it brought in');
    await confirm.getByRole('button', { name: 'No, keep them' }).click();
    expect(await vaults()).toHaveLength(2);
    await page.getByRole('button', { name: 'Undo the import of inventory.csv' }).click();
    await confirm.getByRole('button', { name: 'Yes, undo it' }).click();
    await expect(page.getByText('Import of inventory.csv undone')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Earlier imports' }).getByRole('listitem')).toContainText(
      'undone',
    );
    await expect(page.getByRole('button', { name: 'Undo the import of inventory.csv' })).toHaveCount(0);
    expect(await vaults()).toEqual([]);
  });

  test('opens a storage account for each order the account columns name', async ({
    signedIn: page,
    account,
  }) => {
    const db = e2eDatabase().db;
    await buildWarehouse(db, { companyId: account.companyId, name: 'Lots Hall', rows: 2, cols: 2 });
    const start = new Date(Date.now() - 5 * 86_400_000).toISOString().slice(0, 10);
    const file = {
      name: 'lots.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        [
          'Warehouse,Field,Position,Vault Number,Customer,Order,Account Kind,SIT Authorization,SIT Start,Bill To',
          `Lots Hall,A1,3,AC-1,PARK,PO-1,SIT,AUTH-5,${start},Park Relocation Co`,
          'Lots Hall,A1,2,AC-2,PARK,PO-1,,,,',
          'Lots Hall,B1,3,AC-3,DIAZ,DO-1,Permanent,,,',
          'Lots Hall,B2,3,AC-4,OKAFOR,OO-1,,,,',
        ].join('\r\n'),
      ),
    };
    await page.goto('/import');
    await page.getByLabel('Spreadsheet of vaults (CSV or XLSX, at most 5 MB)').setInputFiles(file);
    await expect(page.getByRole('group', { name: 'Storage accounts (optional)' })).toBeVisible();
    await expect(page.getByLabel('Account Kind', { exact: true })).toHaveValue('Account Kind');
    await expect(page.getByTestId('dry-run-summary')).toContainText(
      '2 storage accounts opened for their orders',
    );
    await page.getByRole('button', { name: 'Import 4 vaults' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Imported 4 vaults' })).toBeVisible();

    const res = await callApi(page, 'GET', '/api/storage-accounts');
    const accounts = (JSON.parse(res.body) as { orders: string[]; kind: string; bill_to_name: string }[])
      .map((a) => [a.orders.join(), a.kind, a.bill_to_name])
      .sort();
    expect(accounts).toEqual([
      ['DO-1', 'permanent', 'DIAZ'],
      ['PO-1', 'sit', 'Park Relocation Co'],
    ]);
    // the order without account columns is waiting on the "not billed" page
    await page.goto('/billing/not-billed');
    await expect(page.getByText('OO-1')).toBeVisible();
    await expect(page.getByText('PO-1')).toHaveCount(0);
  });

  test('checks and imports 20,000 rows with a progress bar, and repeated numbers once allowed', async ({
    signedIn: page,
    account,
  }) => {
    const lines = ['Customer,Order,Vault Number'];
    for (let i = 1; i <= 20_000; i++) lines.push(`SMITH,J-${i % 50},N-${i}`);
    lines.push('SMITH,J-1,N-7'); // the same number as row 8
    const file = { name: 'big.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\r\n')) };

    await page.goto('/import');
    await page.getByLabel('Spreadsheet of vaults (CSV or XLSX, at most 5 MB)').setInputFiles(file);
    await expect(page.getByRole('progressbar', { name: 'Checking the file' })).toBeVisible();
    const problems = page.getByRole('table', { name: 'Problems' });
    await expect(problems).toContainText('Vault number N-7 is also in row 8.', { timeout: 30_000 });
    await expect(page.getByTestId('dry-run-summary')).toContainText('20001 rows');

    await page.getByLabel('Allow vault numbers that repeat').check();
    await page.getByRole('button', { name: 'Check again' }).click();
    await expect(page.getByText('No problems found.')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('table', { name: 'Notes' })).toContainText(
      'Vault number N-7 is also in row 8; both are imported, as asked.',
    );
    await page.getByRole('button', { name: 'Import 20001 vaults' }).click();
    await expect(page.getByRole('progressbar', { name: 'Importing' })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'Imported 20001 vaults' })).toBeVisible({
      timeout: 60_000,
    });
    expect((await stored.vaultsOfCompany(account.companyId)).length).toBe(20_001);
  });

  test('imports pallets onto the shelves of a rack', async ({ signedIn: page, account }) => {
    const db = e2eDatabase().db;
    const w = await buildWarehouse(db, { companyId: account.companyId, name: 'Racks Hall' });
    await buildRack(db, {
      companyId: account.companyId,
      warehouseId: w.id,
      name: 'R1',
      shelves: 2,
      capacity: 3,
    });
    await page.goto('/import');
    await page.getByRole('radio', { name: 'Pallets' }).check();
    await page.getByLabel('Spreadsheet of pallets (CSV or XLSX, at most 5 MB)').setInputFiles({
      name: 'pallets.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        'Warehouse;Rack;Shelf;Slot;Customer;Pallet Name;Pallet Number;Spaces;Weight;Notes\r\n' +
          'Racks Hall;R1;1;1;LEE;Books;P-1;2;40;\r\nRacks Hall;R1;2;;LEE;Lamps;P-2;1;5;fragile\r\n',
      ),
    });
    await expect(page.getByText('No problems found.')).toBeVisible();
    await page.getByRole('button', { name: 'Import 2 pallets' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Imported 2 pallets' })).toBeVisible();
    const rows = await stored.palletsOfCompany(account.companyId);
    expect(rows).toEqual([
      { pallet_number: 'P-1', slot_index: 0, shelf_spots: 2 },
      { pallet_number: 'P-2', slot_index: 0, shelf_spots: 1 },
    ]);
  });
});
