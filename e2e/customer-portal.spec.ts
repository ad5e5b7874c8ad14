import fs from 'node:fs';
import { buildVault, buildWarehouse } from './factories';
import { expectNoAxeViolations } from './axe';
import { callApi, e2eDatabase, expect, test } from './fixtures';

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

    // PAT's order on an account, billed this month: the portal shows the invoice with its days
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await callApi(page, method, path, body);
      expect(res.status, res.body).toBeLessThan(300);
      return JSON.parse(res.body) as unknown;
    };
    const orders = (await api('GET', '/api/storage-accounts/not-billed')) as {
      order_id: number;
      order_name: string;
    }[];
    await api('POST', '/api/storage-accounts', {
      order_ids: [orders.find((o) => o.order_name === 'PP-1')!.order_id],
      kind: 'permanent',
    });
    await api('POST', '/api/billing/rates', {
      kind: 'storage',
      unit_type: 'vault',
      amount: 8_000,
      effective_from: '2025-01-01',
    });
    const run = (await api('POST', '/api/billing/runs', {
      period: new Date().toISOString().slice(0, 7),
    })) as {
      issued: { id: number }[];
    };
    const issued = (await api('GET', `/api/invoices/${run.issued[0]!.id}`)) as {
      issue_date: string;
      due_date: string;
    };
    const written = (day: string) =>
      new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(
        new Date(`${day}T00:00:00Z`),
      );

    // no SMTP here: the link is shown to copy
    await row.getByRole('button', { name: 'Send portal link to PAT PORTAL' }).click();
    const link = await page.getByTestId('portal-link').inputValue();
    expect(link).toMatch(/\/portal\/sign-in#/);

    // a customer west of Greenwich: a plain day must not be shown as the day before
    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      timezoneId: 'America/Los_Angeles',
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
      // no inventory was taken of these units: the section says so for each rather than standing empty
      await expect(customer.getByTestId('portal-no-inventory')).toHaveText([
        'Unit PH-101: no condition inventory was taken.',
        'Unit PH-102: no condition inventory was taken.',
      ]);
      await expect(
        customer.getByText(`Issued ${written(issued.issue_date)} · due ${written(issued.due_date)}`),
      ).toBeVisible();
      // the invoice comes down as the PDF the office sends
      const [download] = await Promise.all([
        customer.waitForEvent('download'),
        customer.getByRole('link', { name: /^Download invoice \d+ \(PDF\)$/ }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^invoice-\d+\.pdf$/);
      const file = await fs.promises.readFile((await download.path())!);
      expect(file.subarray(0, 5).toString()).toBe('%PDF-');
      await expectNoAxeViolations(customer);

      // a request can be taken back while it waits: by the customer, and by the office
      const ask = async (before?: number) => {
        await customer.getByRole('button', { name: 'Ask for your goods' }).click();
        const form = customer.getByRole('form', { name: 'New request' });
        await form.getByRole('checkbox', { name: /PH-102/ }).check();
        await form.getByLabel('Address').fill('1 Portal Road');
        await form.getByRole('button', { name: 'Send request' }).click();
        // a new toast: not the one of the request asked before
        const sent = await customer
          .getByText(new RegExp(`Request #(?!${before ?? 0}(?!\\d))\\d+ sent`))
          .textContent();
        return Number(/#(\d+)/.exec(sent!)![1]);
      };
      const first = await ask();
      const cardOf = (id: number) =>
        customer.getByTestId('portal-request').filter({ hasText: new RegExp(`#${id}(?!\\d)`) });
      const firstCard = cardOf(first);
      await firstCard.getByRole('button', { name: 'Cancel this request' }).click();
      const question = customer.getByRole('alertdialog', { name: `Cancel request #${first}?` });
      await expect(question).toContainText('Your units stay in storage.');
      await question.getByRole('button', { name: 'Yes, cancel it' }).click();
      await expect(customer.getByText(`Request #${first} cancelled`)).toBeVisible();
      await expect(firstCard.getByTestId('request-state')).toHaveText('Cancelled');

      const second = await ask(first);
      await page.goto(`/requests/${second}`);
      await page.getByRole('button', { name: 'Cancel request' }).click();
      const officeQuestion = page.getByRole('alertdialog', { name: `Cancel request #${second}?` });
      await expect(officeQuestion).toContainText('The customer is told.');
      await officeQuestion.getByRole('button', { name: 'Yes, cancel it' }).click();
      await expect(page.getByText(`Request #${second} cancelled`)).toBeVisible();
      await customer.reload();
      await expect(cardOf(second).getByTestId('request-state')).toHaveText('Cancelled');

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
