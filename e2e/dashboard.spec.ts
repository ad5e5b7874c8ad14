import { DUPLICATE_WAREHOUSE } from '../server/features/warehouses/warehouses.service';
import { buildVault, buildWarehouse } from './factories';
import { e2eDatabase, expect, test } from './fixtures';
import { expectAlertDialog } from './alert-dialog';

test.describe('dashboard and Add Warehouse', () => {
  test('a new warehouse: validated form, live preview, Adding... while in flight, then a 0% card', async ({
    signedIn: page,
  }) => {
    await expect(page.getByText('No warehouses yet')).toBeVisible();
    await page.getByRole('link', { name: 'Add Warehouse' }).click();
    await expect(page).toHaveURL(/\/add-warehouse$/);

    let posted = 0;
    page.on('request', (r) => {
      if (r.url().endsWith('/api/warehouse/add-warehouse')) posted += 1;
    });
    const form = page.getByRole('form', { name: 'Add Warehouse' });
    await form.getByRole('button', { name: 'Add Warehouse' }).click();
    await expect(form.getByText('Name is required.')).toBeVisible();
    await expect(form.getByText('Rows must be a whole number.')).toBeVisible();
    await expect(form.getByText('Width must be a number.')).toBeVisible();
    expect(posted).toBe(0);

    await form.getByLabel('Name').fill('North Depot');
    await form.getByLabel('Rows').fill('4');
    await form.getByLabel('Cols').fill('3');
    await form.getByLabel('Field Capacity').fill('3');
    await form.getByLabel('Length (ft)').fill('60');
    await form.getByLabel('Width (ft)').fill('80');
    // 2 px per foot: 80 ft wide, 60 ft long; each field is 5 ft, so 3 x 4 fields are 30 x 40 px
    const floor = page.getByTestId('warehouse-preview');
    await expect(floor).toHaveCSS('width', '160px');
    await expect(floor).toHaveCSS('height', '120px');
    await expect(page.getByTestId('field-grid-preview')).toHaveCSS('width', '30px');
    await expect(page.getByTestId('field-grid-preview')).toHaveCSS('height', '40px');
    await form.getByLabel('Width (ft)').fill('100');
    await expect(floor).toHaveCSS('width', '200px');

    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/warehouse/add-warehouse', async (route) => {
      await gate;
      await route.continue();
    });
    await form.getByRole('button', { name: 'Add Warehouse' }).click();
    await expect(form.getByRole('button', { name: 'Adding...' })).toBeDisabled();
    release();

    // the new warehouse opens, ready for its first vault
    await expect(page).toHaveURL(/\/warehouse\/north-depot$/);
    await expect(page.getByText('North Depot added.')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'North Depot' })).toBeVisible();
    await page.goto('/dashboard');
    const card = page.getByRole('article', { name: 'North Depot' });
    await expect(card.getByTestId('occupancy')).toHaveText('0%');
    await expect(card.getByTestId('occupancy')).toHaveAttribute('data-colour', 'green');
  });

  test('a field grid larger than the floor is refused at the floor side, before anything is sent', async ({
    signedIn: page,
  }) => {
    await page.goto('/add-warehouse');
    let posted = 0;
    page.on('request', (r) => {
      if (r.url().endsWith('/api/warehouse/add-warehouse')) posted += 1;
    });
    const form = page.getByRole('form', { name: 'Add Warehouse' });
    await form.getByLabel('Name').fill('Tight Depot');
    await form.getByLabel('Rows').fill('4');
    await form.getByLabel('Cols').fill('12');
    await form.getByLabel('Field Capacity').fill('3');
    await form.getByLabel('Length (ft)').fill('40');
    await form.getByLabel('Width (ft)').fill('50');
    const message =
      'The field grid is 60 ft wide (12 columns of 5 ft), wider than the 50 ft floor. Make the floor wider or use fewer columns.';
    // the preview says so as it draws, and the form refuses it at the width
    await expect(page.getByRole('region', { name: 'Preview' })).toContainText(message);
    await form.getByRole('button', { name: 'Add Warehouse' }).click();
    const width = form.getByLabel('Width (ft)');
    await expect(width).toHaveAttribute('aria-invalid', 'true');
    await expect(width).toHaveAccessibleDescription(message);
    await expect(width).toBeFocused();
    expect(posted).toBe(0);

    await width.fill('60');
    await form.getByRole('button', { name: 'Add Warehouse' }).click();
    await expect(page).toHaveURL(/\/warehouse\/tight-depot$/);
    expect(posted).toBe(1);
  });

  test('a refused warehouse keeps the form and shows the server error', async ({
    signedIn: page,
    account,
  }) => {
    await buildWarehouse(e2eDatabase().db, { companyId: account.companyId, name: 'Taken Name' });
    await page.goto('/add-warehouse');
    const form = page.getByRole('form', { name: 'Add Warehouse' });
    await form.getByLabel('Name').fill('Taken Name');
    await form.getByLabel('Rows').fill('2');
    await form.getByLabel('Cols').fill('2');
    await form.getByLabel('Field Capacity').fill('3');
    await form.getByLabel('Length (ft)').fill('40');
    await form.getByLabel('Width (ft)').fill('40');
    await form.getByRole('button', { name: 'Add Warehouse' }).click();
    await expect(form.getByRole('alert')).toHaveText(DUPLICATE_WAREHOUSE);
    await expect(page).toHaveURL(/\/add-warehouse$/);
    await expect(form.getByLabel('Name')).toHaveValue('Taken Name');
  });

  test('cards show occupancy of real vaults with its colour, and lead to the warehouse and its editor', async ({
    signedIn: page,
    account,
  }) => {
    const db = e2eDatabase().db;
    // 1 x 2 fields of 2 = capacity 4
    const busy = await buildWarehouse(db, {
      companyId: account.companyId,
      name: 'Busy Barn',
      rows: 1,
      cols: 2,
      fieldCapacity: 2,
    });
    await buildVault(db, { companyId: account.companyId, fieldId: busy.field('A1').id });
    await buildVault(db, { companyId: account.companyId, fieldId: busy.field('A1').id });
    await buildVault(db, { companyId: account.companyId, fieldId: busy.field('B1').id });
    // an empty placeholder takes a slot but is not occupancy
    await buildVault(db, {
      companyId: account.companyId,
      fieldId: busy.field('B1').id,
      customerName: 'EMPTY VAULT',
    });
    const half = await buildWarehouse(db, {
      companyId: account.companyId,
      name: 'Half Hall',
      rows: 1,
      cols: 2,
      fieldCapacity: 2,
    });
    await buildVault(db, { companyId: account.companyId, fieldId: half.field('A1').id });
    await buildVault(db, { companyId: account.companyId, fieldId: half.field('A1').id });
    const quarter = await buildWarehouse(db, {
      companyId: account.companyId,
      name: 'Quarter Quay',
      rows: 1,
      cols: 2,
      fieldCapacity: 2,
    });
    await buildVault(db, { companyId: account.companyId, fieldId: quarter.field('A1').id });
    await page.reload();

    const expectations = [
      ['Busy Barn', '75%', 'red'],
      ['Half Hall', '50%', 'orange'],
      ['Quarter Quay', '25%', 'yellow'],
    ] as const;
    for (const [name, percent, colour] of expectations) {
      const occupancy = page.getByRole('article', { name }).getByTestId('occupancy');
      await expect(occupancy).toHaveText(percent);
      await expect(occupancy).toHaveAttribute('data-colour', colour);
    }

    await page.getByRole('link', { name: 'Edit Busy Barn' }).click();
    await expect(page).toHaveURL(/\/edit\/busy-barn$/);
    await page.goto('/dashboard');
    // anywhere on the card opens the warehouse, not only its name
    await page.getByRole('article', { name: 'Busy Barn' }).click({ position: { x: 40, y: 90 } });
    await expect(page).toHaveURL(/\/warehouse\/busy-barn$/);
    await expect(page.getByRole('heading', { name: 'Busy Barn' })).toBeVisible();
  });

  test('delete a warehouse after confirming', async ({ signedIn: page, account }) => {
    await buildWarehouse(e2eDatabase().db, { companyId: account.companyId, name: 'Old Shed' });
    await page.reload();
    const card = page.getByRole('article', { name: 'Old Shed' });
    await card.getByRole('button', { name: 'Delete Old Shed' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete Warehouse' });
    await expectAlertDialog(
      dialog,
      'Delete Warehouse',
      'Are you sure you want to delete Old Shed? All of its data will be permanently removed. This action cannot be undone.',
    );
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(card).toBeVisible();

    await card.getByRole('button', { name: 'Delete Old Shed' }).click();
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('Old Shed deleted.')).toBeVisible();
    await expect(card).toBeHidden();
    await expect(page.getByText('No warehouses yet')).toBeVisible();
    await page.reload();
    await expect(page.getByText('No warehouses yet')).toBeVisible();
  });

  test('an unknown warehouse in the address says it could not be fetched', async ({ signedIn: page }) => {
    await page.goto('/warehouse/no-such-place');
    await expect(page.getByText('Warehouse could not be fetched')).toBeVisible();
  });
});
