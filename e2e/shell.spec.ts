import { expect, test } from './fixtures';

test('the landing page shows the product story, a Log In button and the contact form', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Real-time inventory' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'A fast interface' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Collaboration' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Testimonial' })).toBeVisible();
  const form = page.getByRole('form', { name: 'Contact us' });
  await expect(form.getByLabel('Name')).toBeVisible();
  await expect(form.getByLabel('Company')).toBeVisible();
  await expect(form.getByLabel('Email')).toBeVisible();
  await expect(form.getByLabel('How can we help?')).toBeVisible();
  await page.getByRole('link', { name: 'Log In' }).first().click();
  await expect(page).toHaveURL(/\/login$/);
});

test("the drawer lists the warehouses, then the spec's Stage, Statistics, Print Studio, Warehouse Checklists with the later pages among them, and Logout", async ({
  signedIn: page,
}) => {
  await page.getByRole('button', { name: 'Open menu' }).click();
  const drawer = page.getByRole('dialog', { name: 'Menu' });
  await expect(drawer).toBeVisible();
  const nav = drawer.getByRole('navigation', { name: 'Main' });
  // a Manager sees every page: the spec's entries in the spec's order, the pages added since beside them
  await expect(nav.getByRole('link')).toHaveText([
    'Stage',
    'Pull lists',
    'Checks',
    'Receive shipment',
    'Statistics',
    'Print Studio',
    'Import',
    'Warehouse Checklists',
    'Activity',
    'Billing',
    'Customers',
    'Requests',
    'Team',
    'Backups',
    'API reference',
  ]);
  await expect(drawer.getByRole('button', { name: 'Logout' })).toBeVisible();
  await nav.getByRole('link', { name: 'Statistics' }).click();
  await expect(page).toHaveURL(/\/statistics$/);
  await expect(drawer).toBeHidden();
});

test('the top bar: the logo links home and the search box shows only on warehouse pages', async ({
  signedIn: page,
}) => {
  await expect(page.getByRole('combobox', { name: 'Search' })).toHaveCount(0);
  await page.goto('/warehouse/somewhere');
  await expect(page.getByRole('combobox', { name: 'Search' })).toHaveAttribute(
    'placeholder',
    'Search customer/order/vault number...',
  );
  await page.getByRole('link', { name: 'Warehouse Manager home' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});
