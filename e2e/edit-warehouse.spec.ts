import type { Page } from '@playwright/test';
import { REMOVE_VAULTS_FIRST } from '../domain/schemas/layout.schema';
import { buildVault, buildWarehouse } from '../server/features/warehouses/warehouses.factories';
import { e2eDatabase, expect, test } from './fixtures';

const cells = (page: Page) => page.getByRole('grid', { name: 'Field grid' }).getByRole('gridcell');

async function warehouseRow(id: number) {
  return e2eDatabase()
    .db.selectFrom('warehouses')
    .select(['rows', 'cols', 'field_capacity', 'width', 'length', 'grid_x', 'grid_y'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

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

  test('an unknown warehouse says so', async ({ signedIn: page }) => {
    await page.goto('/edit/no-such-warehouse');
    await expect(page.getByText('Warehouse Not Found')).toBeVisible();
    await expect(page.getByText('The warehouse you are looking for does not exist.')).toBeVisible();
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
    const block = page.getByRole('button', { name: 'Field grid (VAULTS): drag to place it' });
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
    const alert = page.waitForEvent('dialog');
    await page.getByRole('button', { name: 'Subtract columns on the left' }).click();
    await page
      .getByRole('dialog', { name: 'Subtract Columns' })
      .getByRole('button', { name: 'Subtract Columns', exact: true })
      .click();
    const dialog = await alert;
    expect(dialog.message()).toBe(REMOVE_VAULTS_FIRST);
    await dialog.accept();
    await expect(cells(page)).toHaveCount(9);
    expect(await warehouseRow(w.id)).toMatchObject({ cols: 3, rows: 3 });
  });
});
