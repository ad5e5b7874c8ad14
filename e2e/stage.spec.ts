import { buildStagedVault, buildVault, buildWarehouse, markFieldFull } from './factories';
import { e2eDatabase, expect, test } from './fixtures';
import { expectAlertDialog } from './alert-dialog';

test.describe('Stage', () => {
  test('a staged card says where the vault came from and when', async ({ signedIn: page, account }) => {
    const db = e2eDatabase().db;
    const warehouse = await buildWarehouse(db, {
      companyId: account.companyId,
      name: 'Origin Yard',
      rows: 2,
      cols: 2,
    });
    const vault = await buildVault(db, {
      companyId: account.companyId,
      fieldId: warehouse.field('B1').id,
      name: 'FROM-1',
      customerName: 'TRAVELLER',
    });
    await buildStagedVault(db, { companyId: account.companyId, name: 'NEW-1' });
    await page.goto('/stage');
    const staged = await page.request.post(`/api/stage/vaults/${vault.id}`);
    expect(staged.status()).toBe(200);
    await page.reload();
    const card = page.getByRole('button', { name: 'Move vault FROM-1' });
    await expect(card).toContainText('From Origin Yard B1, position 3');
    await expect(card).toContainText(String(new Date().getFullYear()));
    await expect(page.getByRole('button', { name: 'Move vault NEW-1' })).toContainText('Added to the stage');
  });

  test('an empty stage says so', async ({ signedIn: page }) => {
    await page.goto('/stage');
    await expect(page.getByText('No staged vaults available.')).toBeVisible();
  });

  test('put a staged vault into another field on the picture of the grid: one button, one toast', async ({
    signedIn: page,
    account,
  }) => {
    const db = e2eDatabase().db;
    await buildWarehouse(db, { companyId: account.companyId, name: 'Alpha Store', rows: 1, cols: 1 });
    const target = await buildWarehouse(db, {
      companyId: account.companyId,
      name: 'Beta Store',
      rows: 2,
      cols: 2,
      fieldCapacity: 3,
    });
    // B1 is full and cannot be chosen
    await markFieldFull(db, { companyId: account.companyId, fieldId: target.field('B1').id });
    await buildVault(db, {
      companyId: account.companyId,
      fieldId: target.field('A2').id,
      customerName: 'RESIDENT',
    });
    await buildStagedVault(db, {
      companyId: account.companyId,
      name: 'ST-7',
      customerName: 'WANDERER',
      orderName: 'ORD-7',
    });

    await page.goto('/stage');
    await page.getByRole('button', { name: 'Move vault ST-7' }).click();
    const dialog = page.getByRole('dialog', { name: 'Put vault ST-7 in a field' });
    // made on the stage: there is no field to go back to
    await expect(dialog.getByRole('button', { name: /^Back to/ })).toHaveCount(0);
    await dialog.getByLabel('Warehouse').selectOption({ label: 'Beta Store' });
    // each field with its free slots, on a picture of the grid
    const grid = dialog.getByRole('group', { name: 'Fields of Beta Store' });
    await expect(grid.getByRole('button')).toHaveCount(4);
    await expect(grid.getByRole('button', { name: 'B1, no room' })).toBeDisabled();
    await grid.getByRole('button', { name: 'A2, 2 free slots' }).click();
    await dialog.getByRole('button', { name: 'Put in Beta Store A2, position 2' }).click();
    await expect(dialog).toBeHidden();
    // one toast, no second window
    await expect(page.getByText('Vault ST-7 put in Beta Store A2, position 2')).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByText('No staged vaults available.')).toBeVisible();

    // the next vault made on the stage opens on the warehouse chosen last, not the first by name
    await buildStagedVault(db, { companyId: account.companyId, name: 'ST-8', customerName: 'WANDERER' });
    await page.reload();
    await page.getByRole('button', { name: 'Move vault ST-8' }).click();
    await expect(
      page.getByRole('dialog', { name: 'Put vault ST-8 in a field' }).getByLabel('Warehouse'),
    ).toHaveValue(String(target.id));
    await page.keyboard.press('Escape');

    await page.goto(`/warehouse/${target.slug}`);
    await page
      .getByRole('group', { name: 'Fields' })
      .getByRole('button', { name: 'A2', exact: true })
      .click();
    await expect(
      page.getByRole('region', { name: 'Field A2' }).getByRole('listitem', { name: 'Slot 2' }),
    ).toContainText('WANDERER');
  });

  test('delete mode: the border turns red, clicks select, the trash button deletes after confirming', async ({
    signedIn: page,
    account,
  }) => {
    const db = e2eDatabase().db;
    await buildStagedVault(db, { companyId: account.companyId, name: 'DEL-1' });
    await buildStagedVault(db, { companyId: account.companyId, name: 'DEL-2' });
    await buildStagedVault(db, { companyId: account.companyId, name: 'KEEP-3' });
    await page.goto('/stage');
    const area = page.getByTestId('stage-area');
    // yellow, then red in delete mode
    await expect(area).toHaveCSS('border-top-color', 'rgb(250, 204, 21)');
    const mode = page.getByRole('switch', { name: 'Delete Mode' });
    await expect(page.getByText('OFF', { exact: true })).toBeVisible();
    await mode.click();
    await expect(page.getByText('ON', { exact: true })).toBeVisible();
    await expect(area).toHaveAttribute('data-delete-mode', 'true');
    await expect(area).toHaveCSS('border-top-color', 'rgb(220, 38, 38)');

    const trash = page.getByRole('button', { name: /^Delete \d+ selected vaults?$/ });
    await expect(trash).toBeDisabled();
    await page.getByRole('button', { name: 'Select vault DEL-1' }).click();
    await page.getByRole('button', { name: 'Select vault DEL-2' }).click();
    await expect(page.getByRole('button', { name: 'Select vault DEL-1' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    // the trash button's name says the count it shows
    await expect(trash).toHaveAccessibleName('Delete 2 selected vaults');
    // clicking in delete mode selects; it does not open the move dialog
    await expect(page.getByRole('dialog', { name: /^Put vault/ })).toHaveCount(0);
    await trash.click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete Vaults' });
    await expectAlertDialog(
      confirm,
      'Delete Vaults',
      'Are you sure you want to delete these 2 vaults: DEL-1, DEL-2? This action cannot be undone.',
    );
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(confirm).toBeHidden();
    await expect(page.getByRole('button', { name: /vault DEL-/ })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Select vault KEEP-3' })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('button', { name: 'Move vault KEEP-3' })).toBeVisible();
    await expect(page.getByRole('button', { name: /vault DEL-/ })).toHaveCount(0);
  });
});
