import { buildVault, buildWarehouse } from './factories';
import { e2eDatabase, expect, test } from './fixtures';

test.describe('Storage billing', () => {
  test('an account for a received order, a dry run, the billing run, a payment and the aging report', async ({
    signedIn: page,
    account,
  }) => {
    const db = e2eDatabase().db;
    const warehouse = await buildWarehouse(db, {
      companyId: account.companyId,
      name: 'Storage Hall',
      rows: 2,
      cols: 2,
      fieldCapacity: 3,
    });
    await buildVault(db, {
      companyId: account.companyId,
      fieldId: warehouse.field('A1').id,
      customerName: 'BILLY PAYER',
      orderName: 'BILL-ORD-1',
      name: 'BV-1',
    });

    await page.goto('/dashboard');
    await page.getByRole('button', { name: /menu/i }).first().click();
    await page.getByRole('link', { name: 'Billing', exact: true }).click();
    await expect(page.getByText('No storage accounts yet')).toBeVisible();

    // the received order is not billed until an account holds it
    await page.getByRole('link', { name: 'Not billed' }).click();
    const row = page.getByRole('row', { name: /BILL-ORD-1/ });
    await expect(row).toContainText('BILLY PAYER');
    await row.getByRole('button', { name: 'Create account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Storage account for BILL-ORD-1' });
    await dialog.getByLabel('Bill-to address').fill('12 Harbour Road');
    await dialog.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText('Account created for BILL-ORD-1')).toBeVisible();
    await expect(page.getByText('Every stored order is billed')).toBeVisible();

    // a monthly vault rate from today
    await page.getByRole('link', { name: 'Rates' }).click();
    const rateForm = page.getByRole('form', { name: 'Add a rate' });
    await rateForm.getByLabel('Amount (USD)').fill('93.00');
    await rateForm.getByRole('button', { name: 'Add rate' }).click();
    await expect(page.getByText('Rate saved')).toBeVisible();
    await expect(page.getByRole('table', { name: 'Rates' })).toContainText('$93.00');

    // the dry run shows the line before anything is issued; then the run issues it
    await page.getByRole('link', { name: 'Billing run' }).click();
    await page.getByRole('button', { name: 'Dry run' }).click();
    const lines = page.getByRole('table', { name: 'Lines for BILLY PAYER' });
    await expect(lines).toContainText('Vault BV-1: storage');
    await expect(page.getByRole('status')).toContainText('1 invoices to issue');
    await page.getByRole('button', { name: 'Issue 1 invoices' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Issue invoices' }).click();
    await expect(page.getByText('1 invoices issued')).toBeVisible();

    await page.getByRole('link', { name: 'Invoices' }).click();
    const invoice = page.getByRole('row', { name: /BILLY PAYER/ });
    await expect(invoice).toContainText('Issued');
    const total = (await invoice.getByRole('cell').nth(6).textContent())!;

    // a payment of one cent leaves the rest open
    await page.getByRole('link', { name: 'Payments' }).click();
    const payForm = page.getByRole('form', { name: 'Record a payment' });
    await payForm.getByLabel('Account').selectOption({ label: `BILLY PAYER (${total})` });
    await payForm.getByLabel('Amount (USD)').fill('0.01');
    await payForm.getByLabel('Reference').fill('CHK-77');
    await payForm.getByRole('button', { name: 'Record payment' }).click();
    await expect(page.getByText('Payment of $0.01 recorded')).toBeVisible();
    await expect(page.getByRole('table', { name: 'Payments' })).toContainText('CHK-77');

    await page.getByRole('link', { name: 'Aging' }).click();
    const aging = page.getByRole('table', { name: 'Aging report' });
    await expect(aging.getByRole('row', { name: /BILLY PAYER/ })).toBeVisible();
    const open = Math.round(Number(total.replace(/[$,]/g, '')) * 100) - 1;
    await expect(aging.getByRole('row', { name: /All accounts/ })).toContainText(
      `$${(open / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`,
    );

    for (const [width, height] of [
      [1366, 800],
      [820, 1180],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.screenshot({ path: `test-results/billing-aging-${width}.png`, fullPage: true });
    }
  });
});
