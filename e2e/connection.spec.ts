import { buildWarehouse } from '../server/features/warehouses/warehouses.factories';
import { e2eDatabase, expect, test } from './fixtures';

test.describe('Connection', () => {
  test('going offline shows a banner with Retry, a change fails at once with a clear message, and coming back hides it', async ({
    signedIn: page,
    account,
  }) => {
    const w = await buildWarehouse(e2eDatabase().db, {
      companyId: account.companyId,
      name: 'Offline Depot',
      rows: 1,
      cols: 1,
    });
    await page.goto(`/warehouse/${w.slug}`);
    await page
      .getByRole('group', { name: 'Fields' })
      .getByRole('button', { name: 'A1', exact: true })
      .click();
    const panel = page.getByRole('region', { name: 'Field A1' });
    await panel.getByRole('button', { name: '+ Add Vault' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New Vault Info' });
    await dialog.getByLabel('Customer Name').fill('offline customer');
    await dialog.getByLabel('Vault Number').fill('OFF-1');
    await dialog.getByLabel('Order Number').fill('ORD-OFF');

    const banner = page.getByRole('alert').filter({ hasText: 'Changes cannot be saved until it is back.' });
    await expect(banner).toHaveCount(0);
    await page.context().setOffline(true);
    await expect(banner).toBeVisible();
    await expect(banner).toContainText('Changes cannot be saved until it is back.');

    await dialog.getByRole('button', { name: 'Add Vault' }).click();
    // the failed request answers at once instead of 'Adding Vault...' spinning
    await expect(
      dialog.getByText('No connection to the server. Nothing was saved; please try again.'),
    ).toBeVisible({
      timeout: 3_000,
    });
    await expect(dialog.getByRole('button', { name: 'Add Vault' })).toBeEnabled();

    // the dialog keeps what was typed; the banner stays while the browser is offline
    await expect(dialog.getByLabel('Vault Number')).toHaveValue('OFF-1');
    await expect(banner).toBeVisible();

    await page.context().setOffline(false);
    await expect(banner).toBeHidden();
    await dialog.getByRole('button', { name: 'Add Vault' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('Vault OFF-1 added')).toBeVisible();
  });

  test('a request that gets no answer shows the banner and a clear message, and Retry clears the banner once the server answers', async ({
    signedIn: page,
  }) => {
    await page.goto('/add-warehouse');
    const form = page.getByRole('form', { name: 'Add Warehouse' });
    await form.getByLabel('Name').fill('Lost Depot');
    await form.getByLabel('Rows').fill('2');
    await form.getByLabel('Cols').fill('2');
    await form.getByLabel('Field Capacity').fill('3');
    await form.getByLabel('Length (ft)').fill('60');
    await form.getByLabel('Width (ft)').fill('80');
    // the browser still thinks it is online; the request itself fails
    await page.route('**/api/warehouse/add-warehouse', (route) => route.abort('connectionrefused'));
    await form.getByRole('button', { name: 'Add Warehouse' }).click();
    await expect(
      form.getByText('No connection to the server. Nothing was saved; please try again.'),
    ).toBeVisible();
    const banner = page.getByRole('alert').filter({ hasText: 'Changes cannot be saved until it is back.' });
    await expect(banner).toBeVisible();
    await page.unroute('**/api/warehouse/add-warehouse');
    await banner.getByRole('button', { name: 'Retry' }).click();
    await expect(banner).toBeHidden();
    await form.getByRole('button', { name: 'Add Warehouse' }).click();
    await expect(page.getByText('Lost Depot added.')).toBeVisible();
  });
});
