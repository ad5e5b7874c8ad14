import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { buildVault, buildWarehouse } from './factories';
import { e2eDatabase, expect, test } from './fixtures';

/** axe-core over the page as it is: any violation, of any impact, fails with its rule and first node. */
async function expectNoAxeViolations(page: Page) {
  await page.waitForTimeout(350); // dialogs and toasts settle before colours are measured
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.map((v) => `${v.id} (${v.impact}): ${v.nodes[0]?.target.join(' ')}`)).toEqual([]);
}

test.describe('Customer portal', () => {
  test('the office adds a customer and hands over the portal link; on a phone the customer sees their units', async ({
    signedIn: page,
    account,
    browser,
  }) => {
    const db = e2eDatabase().db;
    const warehouse = await buildWarehouse(db, {
      companyId: account.companyId,
      name: 'Portal Hall',
      rows: 2,
      cols: 2,
    });
    for (const [field, name] of [
      ['A1', 'PH-101'],
      ['A2', 'PH-102'],
    ] as const)
      await buildVault(db, {
        companyId: account.companyId,
        fieldId: warehouse.field(field).id,
        customerName: 'PAT PORTAL',
        orderName: 'PP-1',
        name,
      });
    await buildVault(db, {
      companyId: account.companyId,
      fieldId: warehouse.field('B1').id,
      customerName: 'SOMEONE ELSE',
      orderName: 'SE-1',
      name: 'SE-201',
    });

    await page.goto('/customers');
    const row = page.getByTestId('customer-row').filter({ hasText: 'PAT PORTAL' });
    await expect(row).toContainText('No e-mail');
    await expect(row).toContainText('2 units');
    await row.getByRole('button', { name: 'Edit PAT PORTAL' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit customer' });
    await dialog.getByLabel('Email').fill('pat@example.test');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('PAT PORTAL saved')).toBeVisible();
    await expect(row).toContainText('pat@example.test');
    await expectNoAxeViolations(page);

    // no SMTP here: the link is shown to copy
    await row.getByRole('button', { name: 'Send portal link to PAT PORTAL' }).click();
    const link = await page.getByTestId('portal-link').inputValue();
    expect(link).toMatch(/\/portal\/sign-in#/);

    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    try {
      const customer = await phone.newPage();
      await customer.goto(link);
      await expect(customer.getByRole('heading', { name: 'Your storage' })).toBeVisible();
      await expect(customer.getByText('PAT PORTAL')).toBeVisible();
      const units = customer.getByTestId('portal-unit');
      await expect(units).toHaveCount(2);
      await expect(units.first()).toContainText('PH-101');
      await expect(units.first()).toContainText('Portal Hall');
      await expect(units.nth(1)).toContainText('PH-102');
      await expect(customer.getByText('SE-201')).toHaveCount(0);
      await expectNoAxeViolations(customer);
      // the staff's screens are not the portal's: a portal session is no staff session
      await customer.goto('/dashboard');
      await expect(customer).toHaveURL(/\/login/);
      // the link worked once
      await customer.goto(link);
      await expect(customer.getByText(/expired or was already used/)).toBeVisible();
      await expectNoAxeViolations(customer);
    } finally {
      await phone.close();
    }
  });
});
