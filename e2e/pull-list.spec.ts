import { buildVault, buildWarehouse } from '../server/features/warehouses/warehouses.factories';
import { e2eDatabase, expect, test } from './fixtures';

test.describe('Pull lists', () => {
  test('pull an order buried under other vaults, put the blockers back, release it', async ({
    signedIn: page,
    account,
  }) => {
    const db = e2eDatabase().db;
    const warehouse = await buildWarehouse(db, {
      companyId: account.companyId,
      name: 'Dig Yard',
      rows: 2,
      cols: 2,
      fieldCapacity: 3,
    });
    const a1 = warehouse.field('A1').id;
    await buildVault(db, {
      companyId: account.companyId,
      fieldId: a1,
      name: 'MINE-1',
      customerName: 'OWNER',
      orderName: 'DELIVER-9',
    });
    await buildVault(db, {
      companyId: account.companyId,
      fieldId: a1,
      name: 'BLOCK-1',
      customerName: 'NEIGHBOUR',
    });
    await buildVault(db, {
      companyId: account.companyId,
      fieldId: a1,
      name: 'BLOCK-2',
      customerName: 'NEIGHBOUR',
    });
    await buildVault(db, {
      companyId: account.companyId,
      fieldId: warehouse.field('B1').id,
      name: 'MINE-2',
      customerName: 'OWNER',
      orderName: 'DELIVER-9',
    });

    // the vault page says how deep it is and leads to a pull list of its order
    await page.goto('/warehouse/dig-yard?field=A1');
    await expect(page.getByTestId('vault-row').filter({ hasText: 'MINE-1' })).toContainText('dig out 2');

    await page.goto('/pull-lists?order=DELIVER-9');
    await page.getByRole('button', { name: 'Make pull list' }).click();
    await expect(page).toHaveURL(/\/pull-lists\/\d+$/);
    await expect(page.getByTestId('handlings')).toContainText('4 handlings left');

    const field = page.getByRole('listitem', { name: 'Field A1' });
    // only the top of the stack can come off: the buried vault waits for the two above it
    await expect(page.getByRole('button', { name: 'Pulled MINE-1' })).toBeDisabled();
    await field.getByRole('button', { name: 'Set aside BLOCK-2' }).click();
    await page.getByRole('button', { name: 'Set aside BLOCK-1' }).click();
    await page.getByRole('button', { name: 'Pulled MINE-1' }).click();
    await page.getByRole('button', { name: 'Pulled MINE-2' }).click();
    await expect(page.getByTestId('handlings')).toContainText('Nothing left to take out.');

    // the list survives a reload
    await page.reload();
    await expect(page.getByRole('button', { name: 'Release' })).toBeDisabled();
    await page.getByRole('button', { name: 'Put back BLOCK-1' }).click();
    await page.getByRole('button', { name: 'Put back BLOCK-2' }).click();
    await expect(page.getByRole('region', { name: 'Put back' })).toHaveCount(0);

    await page.getByRole('button', { name: 'Release' }).click();
    await page.getByRole('button', { name: 'Yes, release them' }).click();
    await expect(page.getByTestId('released-note')).toBeVisible();
    await expect(page.getByTestId('pull-vault').filter({ hasText: 'MINE-1' })).toContainText('Released by');

    // gone from the field and the stage; the blockers stand back in A1
    await page.goto('/warehouse/dig-yard?field=A1');
    await expect(page.getByTestId('vault-row').filter({ hasText: 'BLOCK-1' })).toBeVisible();
    await expect(page.getByTestId('vault-row').filter({ hasText: 'MINE-1' })).toHaveCount(0);
    await page.goto('/stage');
    await expect(page.getByText('No staged vaults available.')).toBeVisible();

    // still found as released in the company's pull lists
    await page.goto('/pull-lists');
    await expect(page.getByRole('link', { name: /Order DELIVER-9.*released/ })).toBeVisible();
  });
});
