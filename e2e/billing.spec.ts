import {
  buildAccount,
  buildPallet,
  buildRack,
  buildVault,
  buildWarehouse,
  invoicesDueOn,
  receivedOn,
  stored,
} from './factories';
import type { Page } from '@playwright/test';
import { dayOf, dayWriter, isoOf } from '@domain/billing/days';
import { sitStartProblem } from '@domain/billing/sit';
import { type AccountDto, BILL_TO_BLANK, type NotBilledOrderDto } from '@domain/schemas/billing.schema';
import { E2E_BASE_URL } from './e2e-env';
import { callApi, e2eDatabase, expect, test } from './fixtures';
import { expectNoAxeViolations } from './axe';

/**
 * Through the API as the signed-in Manager: a Permanent account for the one order not billed yet, a vault storage rate
 * of `monthly` (minor units) and a billing run for each month named. Answers the API caller, for more.
 */
async function billThroughApi(page: Page, monthly: number, months: string[]) {
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await callApi(page, method, path, body);
    expect(res.status, res.body).toBeLessThan(300);
    return JSON.parse(res.body) as unknown;
  };
  const [order] = (await api('GET', '/api/storage-accounts/not-billed')) as { order_id: number }[];
  await api('POST', '/api/storage-accounts', { order_ids: [order!.order_id], kind: 'permanent' });
  await api('POST', '/api/billing/rates', {
    kind: 'storage',
    unit_type: 'vault',
    amount: monthly,
    effective_from: '2025-01-01',
  });
  for (const period of months) await api('POST', '/api/billing/runs', { period });
  return api;
}

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
    // a SIT start before the units moved in (today) and a blank Bill to are refused, each at its input
    const moveIn = dayOf(new Date().toISOString());
    const billTo = dialog.getByLabel('Bill to', { exact: true });
    await dialog.getByLabel('Kind').selectOption('sit');
    await dialog.getByLabel('Authorization number').fill('AUTH-E2E');
    await dialog.getByLabel('SIT start').fill(isoOf(moveIn - 1));
    await billTo.fill(' ');
    await dialog.getByRole('button', { name: 'Create account' }).click();
    await expect(dialog.getByLabel('SIT start')).toHaveAccessibleDescription(
      sitStartProblem(moveIn - 1, moveIn, dayWriter('en-US'))!,
    );
    await expect(billTo).toHaveAccessibleDescription(BILL_TO_BLANK);
    // the first refused input takes the focus, so a screen reader reads its message
    await expect(dialog.getByLabel('SIT start')).toBeFocused();
    await billTo.fill('BILLY PAYER');
    await dialog.getByLabel('Kind').selectOption('permanent');
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
    await expect(page.getByRole('status')).toContainText('1 invoice to issue');
    await page.getByRole('button', { name: 'Issue 1 invoice' }).click();
    const issue = page.getByRole('alertdialog');
    // the month in words, as everywhere else
    await expect(issue).toContainText(/Issue the invoices of [A-Z][a-z]+ \d{4}\?/);
    await issue.getByRole('button', { name: 'Issue invoices' }).click();
    await expect(page.getByText('1 invoice issued')).toBeVisible();
    // nothing is left to issue, and a dry run now says so instead of showing the run's answer again
    await expect(page.getByRole('button', { name: 'Issue invoices' })).toBeDisabled();
    await page.getByRole('button', { name: 'Dry run' }).click();
    await expect(page.getByRole('status')).toContainText('0 invoices to issue');

    await page.getByRole('link', { name: 'Invoices' }).click();
    const invoice = page.getByRole('row', { name: /BILLY PAYER/ });
    await expect(invoice).toContainText('Issued');
    // its days are written the company's way (en-US here), never as stored
    await expect(invoice).toContainText(/[A-Z][a-z]{2} \d{1,2}, \d{4}/);
    await expect(invoice).not.toContainText(/\d{4}-\d{2}-\d{2}/);
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
    // on the phone each row is a card: the total sits on the screen, under its column's name, with no sideways scroll
    const totals = aging
      .getByRole('row', { name: /All accounts/ })
      .getByRole('cell')
      .last();
    await expect(totals).toHaveAttribute('data-label', 'Total');
    const box = await totals.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await expect(totals).toBeInViewport();
    // the open tab, the last of the strip, is scrolled into view on the phone
    await page.reload();
    await expect(
      page.getByRole('navigation', { name: 'Billing' }).getByRole('link', { name: 'Aging' }),
    ).toBeInViewport({
      ratio: 1,
    });
  });

  test("an invoice's papers and corrections: its PDF, a credit note, a void, the statement and the accountant's files", async ({
    signedIn: page,
    account,
  }) => {
    const db = e2eDatabase().db;
    const warehouse = await buildWarehouse(db, {
      companyId: account.companyId,
      name: 'Paper Hall',
      rows: 1,
      cols: 1,
    });
    const vault = await buildVault(db, {
      companyId: account.companyId,
      fieldId: warehouse.field('A1').id,
      customerName: 'PAPER TRAIL',
      orderName: 'PAPER-1',
      name: 'PV-1',
    });
    await receivedOn(vault.id, '2026-01-01');
    await billThroughApi(page, 10_000, ['2026-01', '2026-02']);

    await page.goto('/billing/invoices');
    const rows = page.getByRole('table', { name: 'Invoices' }).getByRole('row', { name: /PAPER TRAIL/ });
    await expect(rows).toHaveCount(2);
    const [january, february] = [
      rows.filter({ hasText: 'January 2026' }),
      rows.filter({ hasText: 'February 2026' }),
    ];
    const number = (await january.getByRole('cell').first().textContent())!.trim();
    const saved = async (click: () => Promise<void>) => {
      const download = page.waitForEvent('download');
      await click();
      return (await download).suggestedFilename();
    };
    expect(await saved(() => january.getByRole('button', { name: /^PDF of Invoice/ }).click())).toBe(
      `invoice-${number}.pdf`,
    );

    // a credit note of part of January's invoice: its number, the amount, and the invoice partly open
    await january.getByRole('button', { name: /^Credit note for Invoice/ }).click();
    const credit = page.getByRole('dialog', { name: /^Credit Invoice/ });
    await credit.getByLabel(/^Amount/).fill('20.00');
    await credit.getByRole('button', { name: 'Issue credit note' }).click();
    await expect(credit.getByText('Give the reason.')).toBeVisible();
    await credit.getByLabel('Reason').fill('Two days of a broken door');
    await credit.getByRole('button', { name: 'Issue credit note' }).click();
    await expect(page.getByText(/Credit note \d+ issued: \$20\.00/)).toBeVisible();
    await expect(credit).toHaveCount(0);
    await expect(page.getByRole('row', { name: /^Credit \d+/ })).toHaveCount(1);
    // credited, it can no longer be voided; February, untouched, can
    await expect(january.getByRole('button', { name: /^Void/ })).toHaveCount(0);
    await february.getByRole('button', { name: /^Void Invoice/ }).click();
    const voiding = page.getByRole('dialog', { name: /^Void Invoice/ });
    await voiding.getByLabel('Reason').fill('Issued by mistake');
    await voiding.getByRole('button', { name: 'Void invoice' }).click();
    await expect(page.getByText(/Invoice \d+ voided/)).toBeVisible();
    await expect(february).toContainText('Void');

    // the accountant's files and the account's statement
    expect(await saved(() => page.getByRole('button', { name: 'Journal CSV' }).click())).toBe('journal.csv');
    await page.getByRole('link', { name: 'Accounts' }).click();
    expect(await saved(() => page.getByRole('button', { name: 'Statement of PAPER TRAIL' }).click())).toBe(
      'statement-paper-trail.pdf',
    );
  });

  test('a rate with a typo corrected and deleted, a rate used on invoices kept, and a payment to the invoice chosen', async ({
    signedIn: page,
    account,
  }) => {
    const db = e2eDatabase().db;
    const warehouse = await buildWarehouse(db, {
      companyId: account.companyId,
      name: 'Rate Hall',
      rows: 1,
      cols: 1,
    });
    const vault = await buildVault(db, {
      companyId: account.companyId,
      fieldId: warehouse.field('A1').id,
      customerName: 'RITA CHOOSER',
      orderName: 'RATE-1',
      name: 'RV-1',
    });
    await receivedOn(vault.id, '2026-01-01');
    await billThroughApi(page, 10_000, ['2026-01', '2026-02']);

    await page.goto('/billing/rates');
    const table = page.getByRole('table', { name: 'Rates' });
    // January and February were invoiced with the first rate: it stays
    await expect(table.getByRole('row', { name: /\$100\.00/ })).toContainText('Used on invoices');
    await expect(table.getByRole('button', { name: /^Edit rate/ })).toHaveCount(0);

    const rateForm = page.getByRole('form', { name: 'Add a rate' });
    await rateForm.getByLabel('Amount (USD)').fill('950.00');
    await rateForm.getByLabel('From').fill('2026-03-01');
    await rateForm.getByRole('button', { name: 'Add rate' }).click();
    await expect(page.getByText('Rate saved')).toBeVisible();
    // the same rate from the same day again is refused
    await rateForm.getByLabel('Amount (USD)').fill('95.00');
    await rateForm.getByRole('button', { name: 'Add rate' }).click();
    await expect(rateForm).toContainText(
      'There is already a monthly storage rate for Vault in every warehouse from Mar 1, 2026',
    );
    await expect(table.getByRole('row')).toHaveCount(3);

    await table
      .getByRole('button', { name: 'Edit rate: Monthly storage, Vault, every warehouse, from Mar 1, 2026' })
      .click();
    const edit = page.getByRole('dialog', { name: 'Edit rate' });
    await expect(edit.getByLabel('Amount (USD)')).toHaveValue('950.00');
    await expectNoAxeViolations(page);
    await edit.getByLabel('Amount (USD)').fill('95.00');
    await edit.getByRole('button', { name: 'Save rate' }).click();
    await expect(page.getByText('Rate changed')).toBeVisible();
    await expect(edit).toHaveCount(0);
    await expect(table).toContainText('$95.00');
    await expect(table).not.toContainText('$950.00');

    await table.getByRole('button', { name: /^Delete rate: .*Mar 1, 2026/ }).click();
    const asked = page.getByRole('alertdialog', { name: 'Delete rate' });
    await expect(asked).toContainText('$95.00');
    await asked.getByRole('button', { name: 'Delete rate' }).click();
    await expect(page.getByText('Rate deleted')).toBeVisible();
    await expect(table.getByRole('row')).toHaveCount(2);

    // a payment to February's invoice, not the oldest: January's is unticked
    await page.getByRole('link', { name: 'Payments' }).click();
    const payForm = page.getByRole('form', { name: 'Record a payment' });
    await payForm.getByLabel('Account').selectOption({ label: 'RITA CHOOSER ($200.00)' });
    const open = payForm.getByRole('table', { name: 'Open invoices of the account' });
    await expect(open.getByRole('row')).toHaveCount(3);
    const [january, february] = [open.getByRole('row').nth(1), open.getByRole('row').nth(2)];
    await expect(january).toContainText('$100.00');
    const februaryNumber = (await february.getByRole('cell').nth(1).textContent())!.trim();
    await january.getByRole('checkbox').uncheck();
    await payForm.getByLabel('Amount (USD)').fill('150.00');
    await expect(february).toContainText('$100.00');
    await payForm.getByRole('button', { name: 'Record payment' }).click();
    await expect(payForm).toContainText(
      'The payment ($150.00) is more than is open on the invoices chosen for it ($100.00): choose more invoices or lower the amount.',
    );
    await payForm.getByLabel('Amount (USD)').fill('60.00');
    await expect(february.getByRole('cell').last()).toHaveText('$60.00');
    await expectNoAxeViolations(page);
    await payForm.getByRole('button', { name: 'Record payment' }).click();
    await expect(page.getByText(`Payment of $60.00 recorded on invoice ${februaryNumber}`)).toBeVisible();
    await expect(open.getByRole('row').nth(2)).toContainText('$40.00');

    await page.getByRole('link', { name: 'Invoices' }).click();
    const invoices = page.getByRole('table', { name: 'Invoices' });
    await expect(invoices.getByRole('row', { name: /February 2026/ })).toContainText('Partly paid');
    await expect(invoices.getByRole('row', { name: /January 2026/ })).toContainText('Issued');
  });

  test("an account's terms edited: its bill-to, a SIT account's days allowed, a blank Bill to refused, and a change by someone else reloaded", async ({
    signedIn: page,
    account,
  }) => {
    const db = e2eDatabase().db;
    const warehouse = await buildWarehouse(db, {
      companyId: account.companyId,
      name: 'Terms Hall',
      rows: 2,
      cols: 2,
    });
    const moveIn = dayOf(new Date().toISOString()) - 5;
    for (const [field, customerName, orderName] of [
      ['A1', 'TERRY TERMS', 'TERMS-1'],
      ['B1', 'SITA DAYS', 'TERMS-SIT'],
    ] as const) {
      const vault = await buildVault(db, {
        companyId: account.companyId,
        fieldId: warehouse.field(field).id,
        customerName,
        orderName,
        name: `${orderName}-V`,
      });
      await receivedOn(vault.id, isoOf(moveIn));
    }
    await page.goto('/billing');
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await callApi(page, method, path, body);
      expect(res.status, res.body).toBeLessThan(300);
      return JSON.parse(res.body) as unknown;
    };
    const orders = (await api('GET', '/api/storage-accounts/not-billed')) as NotBilledOrderDto[];
    const orderId = (name: string) => orders.find((o) => o.order_name === name)!.order_id;
    const opened = async (terms: object) =>
      ((await api('POST', '/api/storage-accounts', terms)) as AccountDto).id;
    const terryId = await opened({ order_ids: [orderId('TERMS-1')], kind: 'permanent' });
    // what the form does not show (a note, a declared value) is kept by an edit
    const sitaId = await opened({
      order_ids: [orderId('TERMS-SIT')],
      kind: 'sit',
      sit_authorization: 'AUTH-SIT-9',
      sit_start: isoOf(moveIn),
      sit_days_allowed: 30,
      declared_value: 500_000,
      note: 'Call the agent first',
    });
    const read = async (id: number) => (await api('GET', `/api/storage-accounts/${id}`)) as AccountDto;
    await page.reload();
    const writeDay = dayWriter('en-US');

    // a blank Bill to is refused at its input; then the bill-to is changed and the list says who is billed
    const terry = page.getByTestId('account-row').filter({ hasText: 'TERRY TERMS' });
    await terry.getByRole('button', { name: 'Edit terms: TERRY TERMS' }).click();
    const dialog = page.getByRole('dialog', { name: 'Terms of TERRY TERMS' });
    await expect(dialog).toContainText('Order TERMS-1');
    const billTo = dialog.getByLabel('Bill to', { exact: true });
    await expect(billTo).toHaveValue('TERRY TERMS');
    await expect(dialog.getByLabel('Kind')).toBeFocused();
    await expect(dialog.getByLabel('Kind')).toHaveValue('permanent');
    await billTo.fill(' ');
    await dialog.getByRole('button', { name: 'Save terms' }).click();
    await expect(billTo).toHaveAccessibleDescription(BILL_TO_BLANK);
    await expect(billTo).toBeFocused();
    await billTo.fill('Harbour Relocation Ltd');
    await dialog.getByLabel('Bill-to address').fill('1 Quay Street');
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'Save terms' }).click();
    await expect(page.getByText('Terms saved for TERRY TERMS')).toBeVisible();
    await expect(dialog).toHaveCount(0);
    await expect(terry).toContainText('Bill to Harbour Relocation Ltd');

    // a SIT account's days allowed: its SIT ends later, and its other terms stay as they were
    const sita = page.getByTestId('account-row').filter({ hasText: 'SITA DAYS' });
    await expect(sita).toContainText(writeDay(moveIn + 29));
    await sita.getByRole('button', { name: 'Edit terms: SITA DAYS' }).click();
    const sitDialog = page.getByRole('dialog', { name: 'Terms of SITA DAYS' });
    await expect(sitDialog.getByLabel('Authorization number')).toHaveValue('AUTH-SIT-9');
    await expect(sitDialog.getByLabel('SIT start')).toHaveValue(isoOf(moveIn));
    await sitDialog.getByLabel('SIT days allowed').fill('60');
    await sitDialog.getByRole('button', { name: 'Save terms' }).click();
    await expect(page.getByText('Terms saved for SITA DAYS')).toBeVisible();
    await expect(sita).toContainText(writeDay(moveIn + 59));
    expect(await read(sitaId)).toMatchObject({
      sit_days_allowed: 60,
      sit_authorization: 'AUTH-SIT-9',
      declared_value: 500_000,
      note: 'Call the agent first',
    });

    // someone else changes Terry's terms while the dialog is open: nothing is saved, and Reload shows their terms
    await terry.getByRole('button', { name: 'Edit terms: TERRY TERMS' }).click();
    await expect(billTo).toHaveValue('Harbour Relocation Ltd');
    await api('PATCH', `/api/storage-accounts/${terryId}`, {
      kind: 'permanent',
      bill_to_name: 'Quay Movers',
      bill_to_address: '1 Quay Street',
      version: (await read(terryId)).version,
    });
    await dialog.getByLabel('Bill-to address').fill('2 Quay Street');
    await dialog.getByRole('button', { name: 'Save terms' }).click();
    const changed = dialog.getByRole('alert').filter({ hasText: 'Someone else changed these terms' });
    await expect(changed).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Save terms' })).toBeDisabled();
    await changed.getByRole('button', { name: 'Reload terms' }).click();
    await expect(billTo).toHaveValue('Quay Movers');
    await expect(dialog.getByLabel('Bill-to address')).toHaveValue('1 Quay Street');
    await dialog.getByLabel('Bill-to address').fill('2 Quay Street');
    await dialog.getByRole('button', { name: 'Save terms' }).click();
    await expect(dialog).toHaveCount(0);
    // the toast of the first save may still be there
    await expect(page.getByText('Terms saved for TERRY TERMS').last()).toBeVisible();
    await expect(terry).toContainText('Bill to Quay Movers');
    expect((await read(terryId)).bill_to_address).toBe('2 Quay Street');
  });

  test.describe('on a touch tablet', () => {
    test.use({ viewport: { width: 820, height: 1180 }, hasTouch: true, isMobile: true });

    test('an overdue account put on hold: its vault shows the badge, Floor cannot pull it, a Manager overrides with a reason', async ({
      signedIn: page,
      account,
      browser,
    }) => {
      // a long journey of two users on a shared machine
      test.setTimeout(120_000);
      const db = e2eDatabase().db;
      const warehouse = await buildWarehouse(db, {
        companyId: account.companyId,
        name: 'Hold Hall',
        rows: 2,
        cols: 2,
        fieldCapacity: 3,
      });
      const vault = await buildVault(db, {
        companyId: account.companyId,
        fieldId: warehouse.field('A1').id,
        customerName: 'HOLDA LATE',
        orderName: 'HOLD-ORD-1',
        name: 'HV-1',
      });
      await receivedOn(vault.id, '2026-01-05');
      // a pallet of the same order on a rack of the same warehouse
      const rack = await buildRack(db, {
        companyId: account.companyId,
        warehouseId: warehouse.id,
        name: 'Hold Rack',
        shelves: 1,
        y: 20,
      });
      await buildPallet(db, {
        companyId: account.companyId,
        shelfId: rack.shelfIds[0]!,
        customer: 'HOLDA LATE',
        slotIndex: 0,
        palletNumber: 'HP-7',
        order: 'HOLD-ORD-1',
      });
      // billed for February, the invoice long past due
      const api = await billThroughApi(page, 9_300, ['2026-02']);
      await invoicesDueOn(account.companyId, '2026-03-01');

      // the dashboard's card shows the overdue total to a Manager
      await page.goto('/dashboard');
      await expect(page.getByTestId('overdue-total')).toHaveText('$93.00');

      // the Manager puts the account on hold
      await page.goto('/billing');
      const row = page.getByTestId('account-row').filter({ hasText: 'HOLDA LATE' });
      await expect(row.getByText(/^\d+ days overdue$/)).toBeVisible();
      await row.getByRole('button', { name: 'Hold: HOLDA LATE' }).tap();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Put on hold' }).tap();
      await expect(page.getByText('HOLDA LATE is on hold')).toBeVisible();
      await expect(row.getByTestId('hold-badge')).toBeVisible();
      // the Lift hold button is named by its words, and a table wider than the tablet scrolls in a box a keyboard
      // reaches
      await expectNoAxeViolations(page);
      await page.goto('/billing/invoices');
      await expect(page.getByRole('region', { name: 'Invoices' })).toBeVisible();
      await expectNoAxeViolations(page);

      // its vault shows the badge in the field view, and its field a lock on the grid
      await page.goto(`/warehouse/${warehouse.slug}`);
      const tile = page
        .getByRole('group', { name: 'Fields' })
        .getByRole('button', { name: 'A1', exact: true });
      await expect(tile.getByTestId('hold-marker')).toBeVisible();
      // the grid fitted to the screen and the menu with this warehouse marked: their marked words are readable
      await page.getByRole('button', { name: 'Fit' }).tap();
      await page.getByRole('button', { name: 'Open menu' }).tap();
      await expect(page.getByRole('dialog', { name: 'Menu' })).toBeVisible();
      await expectNoAxeViolations(page);
      await page.keyboard.press('Escape');
      await expect(
        page
          .getByRole('group', { name: 'Fields' })
          .getByRole('button', { name: 'B1', exact: true })
          .getByTestId('hold-marker'),
      ).toHaveCount(0);
      await tile.tap();
      const panel = page.getByRole('region', { name: 'Field A1' });
      await expect(
        panel.getByTestId('vault-row').filter({ hasText: 'HV-1' }).getByTestId('hold-badge'),
      ).toBeVisible();
      await page.screenshot({ path: 'test-results/billing-hold-field-820.png' });
      // and on the page its label's QR code opens
      await page.goto(`/v/${(await stored.vault(vault.id)).label_code}`);
      await expect(page.getByRole('region', { name: 'Vault HV-1' }).getByTestId('hold-badge')).toBeVisible();

      // a Floor user cannot pull it: the server refuses, and says why
      const floorAccount = await buildAccount(db, { company: account.companyName, role: 'floor' });
      const floorContext = await browser.newContext({
        baseURL: E2E_BASE_URL,
        viewport: { width: 820, height: 1180 },
        hasTouch: true,
        isMobile: true,
      });
      const login = await floorContext.request.post('/api/auth/login', {
        data: { email: floorAccount.email, password: floorAccount.password },
      });
      expect(login.ok()).toBe(true);
      const floor = await floorContext.newPage();
      await floor.goto('/pull-lists');
      const created = await callApi(floor, 'POST', '/api/pull-lists', { order_name: 'HOLD-ORD-1' });
      expect(created.status).toBe(201);
      const listId = (JSON.parse(created.body) as { id: number }).id;
      await floor.goto(`/pull-lists/${listId}`);
      await expect(floor.getByRole('heading', { name: 'Order HOLD-ORD-1' })).toBeVisible({ timeout: 15_000 });
      await expect(floor.getByTestId('pull-vault').getByTestId('hold-badge')).toBeVisible({
        timeout: 15_000,
      });
      await floor.getByRole('button', { name: 'Pulled HV-1' }).tap();
      await expect(floor.getByText('only a Manager can pull or release it')).toBeVisible();
      await expect(floor.getByTestId('pull-vault')).toContainText('In field');
      await floorContext.close();

      // the Manager overrides with a reason
      await page.goto(`/pull-lists/${listId}`);
      await page.getByRole('button', { name: 'Pulled HV-1' }).tap();
      const dialog = page.getByRole('dialog', { name: 'Override the hold' });
      await dialog.getByRole('button', { name: 'Override and pull HV-1' }).tap();
      await expect(dialog.getByText('Give a reason.')).toBeVisible();
      await dialog.getByLabel('Reason for the override').fill('Customer paid at the dock');
      await dialog.getByRole('button', { name: 'Override and pull HV-1' }).tap();
      await expect(page.getByText('Hold overridden')).toBeVisible();
      await expect(page.getByTestId('pull-vault')).toContainText('On stage');

      // on the stage the pulled vault carries the badge too, and cannot be deleted around the hold
      await page.goto('/stage');
      await expect(
        page.getByRole('button', { name: /Move vault HV-1/ }).getByTestId('hold-badge'),
      ).toBeVisible();
      await page.screenshot({ path: 'test-results/billing-hold-stage-820.png' });
      await page.getByRole('switch', { name: 'Delete Mode' }).tap();
      const heldCard = page.getByRole('button', { name: /Select vault HV-1/ });
      await heldCard.tap();
      await expect(
        page.getByText(/HV-1.* is on hold for unpaid storage and cannot be deleted/),
      ).toBeVisible();
      await expect(heldCard).toHaveAttribute('aria-pressed', 'false');

      // the find badges the held pallet and leads to its rack, where the pallet has the badge too; it leaves only with
      // the Manager's reason
      await page.getByRole('button', { name: 'Find' }).tap();
      const find = page.getByRole('dialog', { name: 'Find in every warehouse' });
      await find.getByRole('combobox').fill('HP-7');
      const hit = find.getByRole('option', { name: /HP-7/ });
      await expect(hit.getByTestId('hold-badge')).toBeVisible();
      await hit.tap();
      await expect(page).toHaveURL(new RegExp(`view=rack&rack=${rack.id}`));
      const palletButton = page.getByRole('button', { name: /Pallet HOLDA LA/ });
      await expect(palletButton.getByTestId('hold-badge')).toBeVisible();
      await page.screenshot({ path: 'test-results/billing-hold-rack-820.png' });
      await palletButton.tap();
      const palletDialog = page.getByRole('dialog', { name: 'Edit Pallet' });
      await expect(palletDialog.getByTestId('hold-badge')).toBeVisible();
      await palletDialog.getByRole('button', { name: 'Delete' }).tap();
      await palletDialog.getByRole('button', { name: 'Yes, delete' }).tap();
      await expect(palletDialog.getByRole('alert')).toContainText('give a reason to override the hold');
      await palletDialog.getByLabel(/why may it leave/).fill('Paid for the pallet by card');
      await page.screenshot({ path: 'test-results/billing-hold-pallet-820.png' });
      await palletDialog.getByRole('button', { name: 'Yes, delete' }).tap();
      await expect(page.getByText('Pallet HOLDA LATE deleted.')).toBeVisible();
      await expect(palletButton).toBeHidden();

      // the reasons are kept in the account's history
      const held = (await api('GET', '/api/storage-accounts')) as { id: number }[];
      const detail = (await api('GET', `/api/storage-accounts/${held[0]!.id}`)) as {
        history: { kind: string; detail: string }[];
      };
      const overrides = detail.history.filter((h) => h.kind === 'hold-override').map((h) => h.detail);
      expect(overrides.some((d) => d.includes('Customer paid at the dock'))).toBe(true);
      expect(overrides).toContain(
        'Hold overridden: pallet HP-7 released. Reason: Paid for the pallet by card',
      );

      // the company's history tells the invoice and both overrides in sentences
      await page.goto('/activity');
      await expect(page.getByText(/issued invoice 1\b/)).toBeVisible();
      await expect(page.getByText(/overrode the hold to pull vault/)).toBeVisible();
      await expect(page.getByText(/overrode the hold to (release|delete) pallet HP-7/)).toBeVisible();
    });
  });
});
