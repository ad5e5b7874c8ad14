import type { Locator, Page } from '@playwright/test';
import { buildWarehouse } from './factories';
import { e2eDatabase, expect, test } from './fixtures';

/** Nothing (an overlay, a dialog) lies over the middle of the element: a user sees it and can press it. */
async function expectOnTop(page: Page, target: Locator) {
  await expect(target).toBeVisible();
  const box = (await target.boundingBox())!;
  const hit = await target.evaluate(
    (element, point) => {
      const top = document.elementFromPoint(point.x, point.y);
      return top !== null && (top === element || element.contains(top));
    },
    { x: box.x + box.width / 2, y: box.y + box.height / 2 },
  );
  expect(hit, 'the element is the topmost at its centre').toBe(true);
}

test.describe('Connection', () => {
  test('going offline shows a banner with Retry, a vault added meanwhile waits on the tablet, and coming back hides the banner and sends it', async ({
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

    const banner = page.getByRole('alert').filter({ hasText: 'other changes need the connection.' });
    await expect(banner).toHaveCount(0);
    await page.context().setOffline(true);
    // with the dialog open, the banner is the dialog's own: announced (the page behind a modal is hidden from
    // screen readers), on top (nothing covers its middle) and inside the dialog
    await expect(banner).toHaveCount(1);
    await expect(dialog.getByRole('alert')).toContainText('other changes need the connection.');
    await expectOnTop(page, dialog.getByRole('alert'));
    await expectOnTop(page, dialog.getByRole('alert').getByRole('button', { name: 'Retry' }));
    // the page's copy behind the overlay steps aside
    await expect(page.locator('[data-offline-banner="page"]')).toBeHidden();

    // Retry inside the dialog keeps the dialog and what was typed
    await banner.getByRole('button', { name: 'Retry' }).click();
    await expect(dialog.getByLabel('Vault Number')).toHaveValue('OFF-1');
    await expect(banner).toBeVisible();

    // a vault added offline is not refused: it waits on this tablet, marked in its slot (issue 30)
    await dialog.getByRole('button', { name: 'Add Vault' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('Vault OFF-1 added on this device: not synced yet')).toBeVisible();
    await expect(panel.getByTestId('not-synced')).toContainText('Not synced: vault OFF-1 added');
    await expect(page.locator('[data-offline-banner="page"]')).toBeVisible();
    await expectOnTop(page, page.locator('[data-offline-banner="page"]'));

    // a dialog opened over it while offline shows the banner too, and still opens on its first input, not on Retry
    await panel.getByRole('button', { name: '+ Add Vault' }).first().click();
    await expect(dialog.getByRole('alert')).toBeVisible();
    await expectOnTop(page, dialog.getByRole('alert'));
    await expect(dialog.getByLabel('Customer Name')).toBeFocused();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();

    // coming back hides the banner and sends the waiting add: the vault is in its slot
    await page.context().setOffline(false);
    await expect(banner).toBeHidden();
    await expect(panel.getByTestId('vault-row')).toContainText('OFF-1');
    await expect(panel.getByTestId('not-synced')).toHaveCount(0);
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
    const banner = page.getByRole('alert').filter({ hasText: 'other changes need the connection.' });
    await expect(banner).toBeVisible();
    await page.unroute('**/api/warehouse/add-warehouse');
    await banner.getByRole('button', { name: 'Retry' }).click();
    await expect(banner).toBeHidden();
    await form.getByRole('button', { name: 'Add Warehouse' }).click();
    await expect(page.getByText('Lost Depot added.')).toBeVisible();
  });
});
