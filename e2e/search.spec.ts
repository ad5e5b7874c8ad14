import { buildPallet, buildRack, buildVault, buildWarehouse, uniqueSuffix } from './factories';
import { e2eDatabase, expect, test } from './fixtures';

async function arrange(companyId: number) {
  const db = e2eDatabase().db;
  const warehouse = await buildWarehouse(db, {
    companyId,
    name: `Search ${uniqueSuffix()}`,
    rows: 3,
    cols: 2,
  });
  await buildVault(db, {
    companyId,
    fieldId: warehouse.field('A1').id,
    customerName: 'SMITHSON',
    orderName: 'ORD-1',
    name: 'V-100',
  });
  await buildVault(db, {
    companyId,
    fieldId: warehouse.field('B2').id,
    customerName: 'SMITHSON',
    orderName: 'ORD-2',
    name: 'V-200',
  });
  await buildVault(db, {
    companyId,
    fieldId: warehouse.field('A3').id,
    customerName: 'KNOX',
    orderName: 'ORD-77',
    name: 'V-300',
  });
  await buildVault(db, {
    companyId,
    fieldId: warehouse.field('B3').id,
    customerName: 'ZANG',
    orderName: 'ORD-8',
    name: 'V-777',
  });
  const north = await buildRack(db, { companyId, warehouseId: warehouse.id, name: 'North', x: 40, y: 10 });
  const south = await buildRack(db, { companyId, warehouseId: warehouse.id, name: 'South', x: 40, y: 40 });
  await buildPallet(db, {
    companyId,
    shelfId: north.shelfIds[0]!,
    customer: 'Pallet Paula',
    slotIndex: 0,
    palletNumber: 'P-11',
  });
  await buildPallet(db, { companyId, shelfId: south.shelfIds[0]!, customer: 'Other Otto', slotIndex: 0 });
  return warehouse;
}

test.describe('search box', () => {
  test('vault view: customer, order and vault number suggestions highlight the matching fields', async ({
    signedIn: page,
    account,
  }) => {
    const warehouse = await arrange(account.companyId);
    await page.goto(`/warehouse/${warehouse.slug}`);
    const search = page.getByRole('combobox', { name: 'Search' });
    await expect(search).toHaveAttribute('placeholder', 'Search customer/order/vault number...');
    const field = (name: string) =>
      page.getByRole('group', { name: 'Fields' }).getByRole('button', { name, exact: true });
    await expect(field('A1')).toBeVisible();

    await search.fill('smith');
    const list = page.getByRole('listbox', { name: 'Search suggestions' });
    const smithson = list.getByRole('option', { name: /^SMITHSON/ });
    await expect(smithson).toContainText('Customer');
    // a customer's pull list is a row of its own: no button inside a suggestion
    await expect(list.getByRole('option')).toHaveText(['SMITHSONCustomer', 'Pull list for SMITHSON']);
    await expect(list.getByRole('button')).toHaveCount(0);
    await smithson.click();
    await expect(search).toHaveValue('SMITHSON');
    await expect(list).toBeHidden();
    await expect(field('A1')).toHaveAttribute('data-match', 'true');
    await expect(field('B2')).toHaveAttribute('data-match', 'true');
    await expect(field('A3')).toHaveAttribute('data-match', 'false');

    await search.fill('ord-77');
    await list.getByRole('option', { name: /^ORD-77/ }).click();
    await expect(field('A3')).toHaveAttribute('data-match', 'true');
    await expect(field('A1')).toHaveAttribute('data-match', 'false');

    // "777" matches the vault number V-777 only (ORD-77 does not contain it)
    await search.fill('777');
    const vaultOption = list.getByRole('option', { name: /V-777/ });
    await expect(vaultOption).toContainText('Vault');
    await expect(list.getByRole('option')).toHaveCount(1);
    await vaultOption.click();
    await expect(field('B3')).toHaveAttribute('data-match', 'true');
    await expect(field('A3')).toHaveAttribute('data-match', 'false');

    await page.getByRole('button', { name: 'Clear search' }).click();
    await expect(search).toHaveValue('');
    await expect(field('B3')).not.toHaveAttribute('data-match');

    await search.fill('nothing-like-this');
    await expect(list).toBeHidden();
    await expect(page.getByRole('option')).toHaveCount(0);
  });

  test('keyboard: arrows move through the suggestions, Enter chooses, Escape clears', async ({
    signedIn: page,
    account,
  }) => {
    const warehouse = await arrange(account.companyId);
    await page.goto(`/warehouse/${warehouse.slug}`);
    const field = (name: string) =>
      page.getByRole('group', { name: 'Fields' }).getByRole('button', { name, exact: true });
    await expect(field('A1')).toBeVisible();
    const search = page.getByRole('combobox', { name: 'Search' });
    await search.click();
    await page.keyboard.type('ord-');
    const options = page.getByRole('listbox', { name: 'Search suggestions' }).getByRole('option');
    // each order, then its pull list
    await expect(options).toHaveCount(8);
    await page.keyboard.press('ArrowDown');
    await expect(options.nth(0)).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect(options.nth(3)).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('ArrowUp');
    await expect(options.nth(2)).toHaveAttribute('aria-selected', 'true');
    await expect(search).toHaveAttribute('aria-activedescendant', (await options.nth(2).getAttribute('id'))!);
    await page.keyboard.press('Enter');
    // orders are listed in natural order: ORD-1, ORD-2, ORD-8, ORD-77
    await expect(search).toHaveValue('ORD-2');
    await expect(field('B2')).toHaveAttribute('data-match', 'true');
    await page.keyboard.press('Escape');
    await expect(search).toHaveValue('');
    await expect(field('B2')).not.toHaveAttribute('data-match');
  });

  test('rack view: customers of pallets are suggested and matching racks are emphasised', async ({
    signedIn: page,
    account,
  }) => {
    const warehouse = await arrange(account.companyId);
    await page.goto(`/warehouse/${warehouse.slug}`);
    await page.getByRole('button', { name: 'Rack View' }).click();
    const search = page.getByRole('combobox', { name: 'Search' });
    await expect(search).toHaveAttribute('placeholder', 'Search customer/pallet/vault number...');
    await expect(page.getByRole('button', { name: 'Rack North' })).toBeVisible();

    await search.fill('paula');
    const option = page.getByRole('option', { name: /^PALLET PAULA/ });
    await expect(option).toContainText('Customer');
    await option.click();
    await expect(page.getByRole('button', { name: 'Rack North' })).not.toHaveClass(/grayscale/);
    await expect(page.getByRole('button', { name: 'Rack South' })).toHaveClass(/grayscale/);

    // leaving the warehouse clears the search
    await page.goto('/dashboard');
    await page.goto(`/warehouse/${warehouse.slug}`);
    await expect(page.getByRole('combobox', { name: 'Search' })).toHaveValue('');
    await expect(page.getByRole('group', { name: 'Fields' }).locator('[data-match]')).toHaveCount(0);
  });
});
