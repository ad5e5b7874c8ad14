import { buildStagedVault, buildVault, buildWarehouse, makeCouchbox } from './factories';
import { e2eDatabase, expect, test } from './fixtures';

test.describe('Statistics', () => {
  test('shows each warehouse with its metrics and occupancy', async ({ signedIn: page, account }) => {
    const db = e2eDatabase().db;
    const companyId = account.companyId;
    const depot = await buildWarehouse(db, {
      companyId,
      name: 'Stats Depot',
      rows: 2,
      cols: 2,
      fieldCapacity: 3,
    });
    await buildVault(db, { companyId, fieldId: depot.field('A1').id, customerName: 'SMITH' });
    await buildVault(db, { companyId, fieldId: depot.field('A1').id, customerName: 'JONES' });
    await buildVault(db, { companyId, fieldId: depot.field('A2').id, customerName: 'EMPTY VAULT' });
    await makeCouchbox(db, { companyId, fieldId: depot.field('B1').id });
    await buildVault(db, {
      companyId,
      fieldId: depot.field('B1').id,
      customerName: 'EMPTY COUCHBOX',
      type: 'couchbox',
    });
    await buildStagedVault(db, { companyId, customerName: 'EMPTY VAULT' });
    await buildWarehouse(db, { companyId, name: 'Annex', rows: 1, cols: 2, fieldCapacity: 2 });

    await page.goto('/statistics');
    await expect(page.getByRole('heading', { level: 1, name: 'Statistics' })).toBeVisible();

    const depotCard = page.getByRole('region', { name: 'Stats Depot' });
    const value = (metric: string) => depotCard.getByRole('row', { name: metric }).getByRole('cell');
    await expect(depotCard.getByRole('columnheader', { name: 'Metric' })).toBeVisible();
    await expect(depotCard.getByRole('columnheader', { name: 'Value' })).toBeVisible();
    await expect(value('Number of Potential Spaces')).toHaveText('8');
    await expect(value('Number of Empty Vaults')).toHaveText('1');
    await expect(value('Number of Empty Couchboxes')).toHaveText('1');
    // 2 real vaults of 12 slots: the low band (its colour is the page's to choose)
    await expect(depotCard.getByText('17%')).toHaveAttribute('data-occupancy', 'green');
    // a Manager sees the storage revenue beside the occupancy; nothing is billed here yet
    await expect(depotCard.getByTestId('warehouse-revenue')).toContainText('Monthly storage revenue');
    await expect(depotCard.getByTestId('warehouse-revenue')).toContainText('0 billed units stored');

    const annex = page.getByRole('region', { name: 'Annex' });
    await expect(annex.getByRole('row', { name: 'Number of Potential Spaces' }).getByRole('cell')).toHaveText(
      '4',
    );
    await expect(annex.getByText('0%')).toBeVisible();
  });

  test('a company without warehouses sees the empty state', async ({ signedIn: page }) => {
    await page.goto('/statistics');
    await expect(page.getByText('No warehouses yet')).toBeVisible();
  });
});
