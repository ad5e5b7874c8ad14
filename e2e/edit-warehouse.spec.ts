import type { Page } from '@playwright/test';
import { REMOVE_COLUMN_VAULTS_FIRST, REMOVE_VAULTS_FIRST } from '@domain/schemas/layout.schema';
import { buildVault, buildWarehouse, stored } from './factories';
import { e2eDatabase, expect, test } from './fixtures';
import { expectAlertDialog } from './alert-dialog';

const cells = (page: Page) => page.getByRole('grid', { name: 'Field grid' }).getByRole('gridcell');

const warehouseRow = stored.warehouse;

async function changeGrid(page: Page, button: string, dialogTitle: string, count = 1) {
  await page.getByRole('button', { name: button }).click();
  const dialog = page.getByRole('dialog', { name: dialogTitle });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel(/Number of/)).toHaveValue('1');
  // the stepper never goes below 1
  await expect(dialog.getByRole('button', { name: 'Fewer' })).toBeDisabled();
  for (let i = 1; i < count; i++) await dialog.getByRole('button', { name: 'More' }).click();
  await expect(dialog.getByLabel(/Number of/)).toHaveValue(String(count));
  await dialog.getByRole('button', { name: dialogTitle, exact: true }).click();
  await expect(dialog).toBeHidden();
}

test.describe('Edit warehouse', () => {
  test('saving the settings toasts exactly what changed, and refuses values out of range', async ({
    signedIn: page,
    account,
  }) => {
    const w = await buildWarehouse(e2eDatabase().db, {
      companyId: account.companyId,
      name: 'Settings Depot',
      width: 60,
      length: 40,
    });
    await page.goto(`/edit/${w.slug}`);
    await expect(page.getByRole('heading', { name: 'Settings Depot' })).toBeVisible();
    const form = page.getByRole('form', { name: 'Edit Warehouse Fields' });
    await expect(page.getByRole('heading', { name: 'Edit Warehouse Fields' })).toBeVisible();
    await expect(form.getByLabel('Field Capacity')).toHaveValue('3');

    await form.getByLabel('Field Capacity').fill('5');
    await form.getByLabel('Width (ft)').fill('80');
    await form.getByRole('button', { name: 'Save Changes' }).click();
    const toast = page.getByText('Capacity, Width updated successfully!');
    await expect(toast).toBeVisible();
    await expect(toast).toBeHidden({ timeout: 6000 });
    expect(await warehouseRow(w.id)).toMatchObject({ field_capacity: 5, width: 80, length: 40 });

    await form.getByLabel('Length (ft)').fill('45');
    await form.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('Length updated successfully!')).toBeVisible();

    await form.getByLabel('Field Capacity').fill('11');
    await form.getByRole('button', { name: 'Save Changes' }).click();
    await expect(form.getByRole('alert')).toHaveText('Field capacity must be at most 10.');
    expect(await warehouseRow(w.id)).toMatchObject({ field_capacity: 5, length: 45 });
  });

  test('every save toasts: several in a row by button and by Enter, and one whose live update redraws the form before the answer comes', async ({
    signedIn: page,
    account,
  }) => {
    const w = await buildWarehouse(e2eDatabase().db, {
      companyId: account.companyId,
      name: 'Toast Depot',
      width: 60,
      length: 40,
    });
    await page.goto(`/edit/${w.slug}`);
    const form = page.getByRole('form', { name: 'Edit Warehouse Fields' });
    const toasts = (text: string) => page.locator('[data-sonner-toast]').filter({ hasText: text });

    // each save is seen, then closed, so the next one's toast is a new one
    async function saveAndSeeToast(length: number, how: 'button' | 'enter') {
      await form.getByLabel('Length (ft)').fill(String(length));
      if (how === 'button') await form.getByRole('button', { name: 'Save Changes' }).click();
      else await form.getByLabel('Length (ft)').press('Enter');
      const toast = toasts('Length updated successfully!');
      await expect(toast).toHaveCount(1);
      await expect(toast).toBeVisible();
      await expect.poll(async () => (await warehouseRow(w.id)).length).toBe(length);
      await toast.getByRole('button', { name: 'Close toast' }).click();
      await expect(toast).toHaveCount(0);
    }
    for (const [i, how] of (['button', 'button', 'enter', 'enter', 'button', 'enter'] as const).entries()) {
      await saveAndSeeToast(41 + i, how);
    }

    // the quick path: the live update of this very save redraws the form (a new version) while the answer is
    // still on its way; the toast must still come
    let redrawnFirst = false;
    await page.route(`**/api/warehouse/${w.id}/edit-dimensions`, async (route) => {
      const answer = await route.fetch();
      // the saving form showed 'Saving...'; the redrawn one is a fresh form
      await expect(form.getByLabel('Length (ft)')).toHaveValue('50');
      await expect(form.getByRole('button', { name: 'Save Changes' })).toBeEnabled();
      redrawnFirst = true;
      await route.fulfill({ response: answer });
    });
    await form.getByLabel('Width (ft)').fill('70');
    await form.getByLabel('Length (ft)').fill('50');
    await form.getByRole('button', { name: 'Save Changes' }).click();
    await expect(toasts('Length, Width updated successfully!')).toBeVisible();
    expect(redrawnFirst).toBe(true);
    expect(await warehouseRow(w.id)).toMatchObject({ length: 50, width: 70 });
  });

  test('a capacity refusal goes once the next save succeeds, or once there is nothing left to save', async ({
    signedIn: page,
    account,
  }) => {
    const db = e2eDatabase().db;
    const w = await buildWarehouse(db, { companyId: account.companyId, name: 'Refusal Depot' });
    for (const name of ['R-1', 'R-2']) {
      await buildVault(db, { companyId: account.companyId, fieldId: w.field('A1').id, name });
    }
    await page.goto(`/edit/${w.slug}`);
    const form = page.getByRole('form', { name: 'Edit Warehouse Fields' });
    const capacity = form.getByLabel('Field Capacity');
    const save = form.getByRole('button', { name: 'Save Changes' });
    const refusal =
      'Field capacity cannot be lower than the number of vaults in a field: A1 holds 2. Stage or move vaults first.';

    await capacity.fill('1');
    await save.click();
    await expect(form.getByRole('alert')).toHaveText(refusal);
    // back to the stored value: nothing to save, and the refusal of a value no longer asked for goes
    await capacity.fill('3');
    await save.click();
    await expect(page.getByText('Nothing to update.')).toBeVisible();
    await expect(form.getByRole('alert')).toHaveCount(0);

    await capacity.fill('1');
    await save.click();
    await expect(form.getByRole('alert')).toHaveText(refusal);
    await capacity.fill('4');
    await save.click();
    await expect(page.getByText('Capacity updated successfully!')).toBeVisible();
    await expect(form.getByRole('alert')).toHaveCount(0);
    await expect(capacity).toHaveValue('4');
    expect(await warehouseRow(w.id)).toMatchObject({ field_capacity: 4 });
  });

  test('the floor has to hold the field grid: walls too close and more columns than fit are refused', async ({
    signedIn: page,
    account,
  }) => {
    // 3 columns x 2 rows of 5 ft fields on a 22 x 40 ft floor: room for 4 columns
    const w = await buildWarehouse(e2eDatabase().db, {
      companyId: account.companyId,
      name: 'Snug Depot',
      rows: 2,
      cols: 3,
      width: 22,
      length: 40,
    });
    await page.goto(`/edit/${w.slug}`);
    const form = page.getByRole('form', { name: 'Edit Warehouse Fields' });
    await form.getByLabel('Width (ft)').fill('12');
    await form.getByRole('button', { name: 'Save Changes' }).click();
    await expect(form.getByRole('alert')).toHaveText(
      'The field grid is 15 ft wide (3 columns of 5 ft), wider than the 12 ft floor. Make the floor wider or use fewer columns.',
    );
    expect(await warehouseRow(w.id)).toMatchObject({ width: 22 });
    await form.getByLabel('Width (ft)').fill('22');
    await form.getByRole('button', { name: 'Save Changes' }).click();
    await expect(form.getByRole('alert')).toHaveCount(0);

    // the stepper stops at the floor's room: one more column
    await page.getByRole('button', { name: 'Add columns on the right' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Columns' });
    await expect(dialog).toContainText('The floor has room for 4 in all.');
    await expect(dialog.getByRole('button', { name: 'More' })).toBeDisabled();
    await dialog.getByRole('button', { name: 'Add Columns', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(cells(page)).toHaveCount(8);
    // and then there is no room left
    await page.getByRole('button', { name: 'Add columns on the left' }).click();
    await expect(dialog).toContainText(
      'The floor is 22 ft wide: it has no room for another column of 5 ft fields. Make it wider under Edit Warehouse Fields first.',
    );
    await expect(dialog.getByRole('button', { name: 'Add Columns', exact: true })).toBeDisabled();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await warehouseRow(w.id)).toMatchObject({ cols: 4, rows: 2 });
  });

  test('an unknown warehouse says so', async ({ signedIn: page }) => {
    await page.goto('/edit/no-such-warehouse');
    await expect(page.getByText('Warehouse Not Found')).toBeVisible();
    await expect(page.getByText('The warehouse you are looking for does not exist.')).toBeVisible();
  });

  test('removing a bottom row that holds a vault is refused by one alert, from the keyboard alone', async ({
    signedIn: page,
    account,
  }) => {
    const db = e2eDatabase().db;
    const w = await buildWarehouse(db, { companyId: account.companyId, name: 'Row Depot', rows: 2, cols: 2 });
    await buildVault(db, { companyId: account.companyId, fieldId: w.field('B2').id, customerName: 'KNOX' });
    await page.goto(`/edit/${w.slug}`);
    const subtract = page.getByRole('button', { name: 'Subtract rows at the bottom' });
    await subtract.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Subtract Rows' });
    await expect(dialog.getByLabel('Number of rows')).toBeFocused();
    await page.keyboard.press('Enter');
    const alert = page.getByRole('alertdialog', { name: 'Rows Not Removed' });
    await expectAlertDialog(alert, 'Rows Not Removed', REMOVE_VAULTS_FIRST);
    await expect(page.locator('[role="dialog"], [role="alertdialog"]')).toHaveCount(1);
    await expect(alert.getByRole('button', { name: 'OK' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(alert).toBeHidden();
    await expect(page.locator('[role="dialog"], [role="alertdialog"]')).toHaveCount(0);
    await expect(subtract).toBeFocused();
    // the same button opens the dialog again, as before the refusal
    await page.keyboard.press('Enter');
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(subtract).toBeFocused();
    expect(await warehouseRow(w.id)).toMatchObject({ cols: 2, rows: 2 });
  });

  test('the field grid block is dragged on the floor and kept inside the walls', async ({
    signedIn: page,
    account,
  }) => {
    const w = await buildWarehouse(e2eDatabase().db, {
      companyId: account.companyId,
      name: 'Drag Depot',
      rows: 2,
      cols: 2,
      width: 60,
      length: 40,
    });
    await page.goto(`/edit/${w.slug}`);
    const block = page.getByRole('button', { name: 'VAULTS: the field grid, drag to place it' });
    await block.scrollIntoViewIfNeeded();
    const box = (await block.boundingBox())!;
    // the plan is drawn at 10 px per foot here: 150 px right and 100 px down is 15 ft and 10 ft
    const saved = page.waitForRequest(
      (r) => r.url().endsWith(`/api/warehouse/${w.id}/field-grid`) && r.method() === 'PUT',
    );
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 75, box.y + box.height / 2 + 50, { steps: 5 });
    await page.mouse.move(box.x + box.width / 2 + 150, box.y + box.height / 2 + 100, { steps: 5 });
    await expect(page.getByTestId('drop-preview')).toBeVisible();
    await page.mouse.up();
    expect((await saved).postDataJSON()).toEqual({ fieldgridLocation: { x: 15, y: 10 } });
    await expect(page.getByText('at 15.0, 10.0 ft from the top-left corner')).toBeVisible();
    // the placement is a completed change: it toasts
    const placedToast = page.locator('[data-sonner-toast]').filter({ hasText: 'Field grid position saved.' });
    await expect(placedToast).toBeVisible();
    await placedToast.getByRole('button', { name: 'Close toast' }).click();
    await expect(placedToast).toHaveCount(0);
    expect(await warehouseRow(w.id)).toMatchObject({ grid_x: 15, grid_y: 10 });

    // dragged far past the right wall, the 10 x 10 ft block stops at it
    const moved = (await block.boundingBox())!;
    await page.mouse.move(moved.x + 5, moved.y + 5);
    await page.mouse.down();
    await page.mouse.move(moved.x + 300, moved.y + 5, { steps: 4 });
    await page.mouse.move(moved.x + 900, moved.y + 5, { steps: 4 });
    await page.mouse.up();
    await expect(page.getByText('at 50.0, 10.0 ft from the top-left corner')).toBeVisible();
    await expect.poll(async () => (await warehouseRow(w.id)).grid_x).toBe(50);
    await expect(placedToast).toBeVisible();
  });

  test('columns are added and removed on each side, rows at the bottom', async ({
    signedIn: page,
    account,
  }) => {
    const db = e2eDatabase().db;
    const w = await buildWarehouse(db, {
      companyId: account.companyId,
      name: 'Grid Depot',
      rows: 2,
      cols: 2,
    });
    await buildVault(db, { companyId: account.companyId, fieldId: w.field('A1').id, customerName: 'KNOX' });
    await page.goto(`/edit/${w.slug}`);
    // the grid reads row by row, as its ARIA rows are
    await expect(cells(page)).toHaveText(['A1', 'B1', 'A2', 'B2']);

    await changeGrid(page, 'Add columns on the left', 'Add Columns');
    await expect(cells(page)).toHaveText(['A1', 'B1', 'C1', 'A2', 'B2', 'C2']);
    // the vault moved along with its field: A1 is now B1
    await expect(cells(page).filter({ hasText: 'B1' })).toHaveAttribute('title', 'B1: 1 vault');
    await expect(cells(page).filter({ hasText: 'A1' })).toHaveAttribute('title', 'A1: 0 vaults');

    await changeGrid(page, 'Subtract columns on the left', 'Subtract Columns');
    await expect(cells(page)).toHaveText(['A1', 'B1', 'A2', 'B2']);
    await expect(cells(page).filter({ hasText: 'A1' })).toHaveAttribute('title', 'A1: 1 vault');

    await changeGrid(page, 'Add columns on the right', 'Add Columns', 2);
    await expect(cells(page)).toHaveText(['A1', 'B1', 'C1', 'D1', 'A2', 'B2', 'C2', 'D2']);
    await changeGrid(page, 'Subtract columns on the right', 'Subtract Columns');
    await expect(cells(page)).toHaveCount(6);

    await changeGrid(page, 'Add rows at the bottom', 'Add Rows', 2);
    await expect(cells(page)).toHaveCount(12);
    await expect(cells(page).last()).toHaveText('C4');
    await changeGrid(page, 'Subtract rows at the bottom', 'Subtract Rows');
    await expect(cells(page)).toHaveCount(9);
    expect(await warehouseRow(w.id)).toMatchObject({ cols: 3, rows: 3 });

    // column A holds a vault: removing it is refused with the alert and nothing changes
    const subtract = page.getByRole('button', { name: 'Subtract columns on the left' });
    await subtract.click();
    const dialog = page.getByRole('dialog', { name: 'Subtract Columns' });
    await dialog.getByRole('button', { name: 'Subtract Columns', exact: true }).click();
    // one dialog at a time: the refusal's alert takes the place of the Subtract dialog, it does not stack on it
    const alert = page.getByRole('alertdialog', { name: 'Columns Not Removed' });
    await expectAlertDialog(alert, 'Columns Not Removed', REMOVE_COLUMN_VAULTS_FIRST);
    await expect(dialog).toBeHidden();
    await expect(page.locator('[role="dialog"], [role="alertdialog"]')).toHaveCount(1);
    await expect(alert.getByRole('button', { name: 'OK' })).toBeFocused();
    await alert.getByRole('button', { name: 'OK' }).click();
    // answered, focus is back on the button that started it
    await expect(alert).toBeHidden();
    await expect(subtract).toBeFocused();
    await expect(cells(page)).toHaveCount(9);
    expect(await warehouseRow(w.id)).toMatchObject({ cols: 3, rows: 3 });
  });
});
