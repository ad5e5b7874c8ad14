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

  test('move a staged vault into a field: confirm, then a success dialog that closes itself', async ({
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
    // B1 is full and is not offered
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
    const dialog = page.getByRole('dialog', { name: 'Move Vault' });
    await dialog.getByLabel('Warehouse').selectOption({ label: 'Beta Store' });
    // each field with its free slots
    await expect(dialog.getByLabel('Field').getByRole('option')).toHaveText([
      'Choose a field',
      'A1 (3 free slots)',
      'A2 (2 free slots)',
      'B2 (3 free slots)',
    ]);
    await dialog.getByLabel('Field').selectOption({ label: 'A2 (2 free slots)' });
    const slots = dialog.getByRole('list', { name: 'Vault slots' });
    await expect(slots.getByRole('listitem', { name: 'Slot 3' })).toContainText('RESIDENT');
    await slots
      .getByRole('listitem', { name: 'Slot 2' })
      .getByRole('button', { name: '+ Add Vault' })
      .click();

    const confirm = page.getByRole('alertdialog', { name: 'Confirm Add Vault' });
    await expectAlertDialog(
      confirm,
      'Confirm Add Vault',
      'Are you sure you want to add a vault at position 2?',
    );
    await confirm.getByRole('button', { name: 'No, take me back' }).click();
    await expect(confirm).toBeHidden();
    await expect(dialog).toBeVisible();

    await slots
      .getByRole('listitem', { name: 'Slot 2' })
      .getByRole('button', { name: '+ Add Vault' })
      .click();
    await confirm.getByRole('button', { name: 'Yes, add it' }).click();
    const success = page.getByRole('dialog', { name: 'Vault Moved' });
    await expect(success).toContainText('Vault ST-7 moved to Beta Store A2, position 2');
    await expect(dialog).toBeHidden();
    // and a toast that stays after the dialog has gone
    await expect(page.getByText('Vault ST-7 moved to Beta Store A2, position 2').last()).toBeVisible();
    // closes by itself (after 2 seconds)
    await expect(success).toBeHidden();
    await expect(page.getByText('No staged vaults available.')).toBeVisible();

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

    const trash = page.getByRole('button', { name: 'Delete selected vaults' });
    await expect(trash).toBeDisabled();
    await page.getByRole('button', { name: 'Select vault DEL-1' }).click();
    await page.getByRole('button', { name: 'Select vault DEL-2' }).click();
    await expect(page.getByRole('button', { name: 'Select vault DEL-1' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    // clicking in delete mode selects; it does not open the move dialog
    await expect(page.getByRole('dialog', { name: 'Move Vault' })).toHaveCount(0);
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
