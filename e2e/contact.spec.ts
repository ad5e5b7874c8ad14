import { DEMO_LOGIN } from '../server/db/seed';
import { uniqueSuffix } from './factories';
import { expect, signInThroughForm, test } from './fixtures';

test.describe('landing page contact form', () => {
  test('validates, sends to the server, thanks the visitor, and the message shows on the Messages page', async ({
    page,
    browser,
    account,
  }) => {
    // the inbox belongs to the installation's first company (the demo company here); other tenants never see it
    const marker = `We have ${uniqueSuffix()} vaults to track`;
    await page.goto('/');
    const form = page.getByRole('form', { name: 'Contact us' });
    await form.getByRole('button', { name: 'Send message' }).click();
    await expect(form.getByText('Name is required.')).toBeVisible();
    await expect(form.getByText('A valid email is required.')).toBeVisible();
    await expect(form.getByText('Message is required.')).toBeVisible();

    await form.getByLabel('Name').fill('Dana Lee');
    await form.getByLabel('Company').fill('Lee Movers');
    await form.getByLabel('Email').fill('not-an-email');
    await form.getByLabel('How can we help?').fill(marker);
    await form.getByRole('button', { name: 'Send message' }).click();
    await expect(form.getByText('A valid email is required.')).toBeVisible();
    await expect(form.getByText('Name is required.')).toHaveCount(0);

    await form.getByLabel('Email').fill('dana@example.test');
    const posted = page.waitForRequest((r) => r.url().endsWith('/api/contact') && r.method() === 'POST');
    await form.getByRole('button', { name: 'Send message' }).click();
    expect((await posted).postDataJSON()).toEqual({
      name: 'Dana Lee',
      company: 'Lee Movers',
      email: 'dana@example.test',
      message: marker,
    });
    await expect(page.getByRole('heading', { name: 'Thank you!' })).toBeVisible();

    const tenant = await browser.newPage();
    await signInThroughForm(tenant, account);
    await tenant.getByRole('button', { name: 'Open menu' }).click();
    await expect(tenant.getByRole('link', { name: 'Warehouse Checklists' })).toBeVisible();
    await expect(tenant.getByRole('link', { name: /^Messages/ })).toHaveCount(0);
    await tenant.goto('/messages');
    await expect(
      tenant.getByText('Contact messages are read by the operator of this installation.'),
    ).toBeVisible();
    await expect(tenant.getByText(marker)).toHaveCount(0);
    await tenant.close();

    const office = await browser.newPage();
    await signInThroughForm(office, DEMO_LOGIN);
    // the operator reaches the inbox from the menu
    await office.getByRole('button', { name: 'Open menu' }).click();
    await office.getByRole('link', { name: /^Messages \(\d+\)$/ }).click();
    await expect(office).toHaveURL(/\/messages$/);
    await expect(office.getByRole('heading', { name: 'Messages' })).toBeVisible();
    const item = office.getByRole('listitem').filter({ hasText: marker });
    await expect(item).toContainText('Dana Lee');
    await expect(item).toContainText('Lee Movers');
    await expect(item.getByRole('link', { name: 'dana@example.test' })).toBeVisible();
    await office.close();
  });

  test('shows the server refusal, e.g. the rate limit', async ({ page }) => {
    await page.route('**/api/contact', (route) =>
      route.fulfill({
        status: 429,
        contentType: 'application/json',
        body: JSON.stringify({ errors: ['Too many messages.'] }),
      }),
    );
    await page.goto('/');
    const form = page.getByRole('form', { name: 'Contact us' });
    await form.getByLabel('Name').fill('Dana');
    await form.getByLabel('Email').fill('dana@example.test');
    await form.getByLabel('How can we help?').fill('Hello');
    await form.getByRole('button', { name: 'Send message' }).click();
    await expect(form.getByRole('alert')).toHaveText('Too many messages.');
    await expect(form.getByLabel('Name')).toHaveValue('Dana');
  });
});

test.describe('contact form with a hosted form service', () => {
  // the hosted service is replaced by a stub, and this server's CSP only allows it when a form id is configured
  test.use({ bypassCSP: true });

  test('posts JSON to the hosted endpoint and shows its errors, then its success', async ({ page }) => {
    await page.route('**/api/contact/settings', (route) => route.fulfill({ json: { formId: 'testform1' } }));
    let answer: { status: number; body: unknown } = {
      status: 422,
      body: { errors: [{ code: 'TYPE_EMAIL', field: 'email', message: 'should be an email' }] },
    };
    const sent: { headers: Record<string, string>; body: unknown }[] = [];
    await page.route('https://formspree.io/f/testform1', async (route) => {
      sent.push({ headers: route.request().headers(), body: route.request().postDataJSON() });
      await route.fulfill({
        status: answer.status,
        contentType: 'application/json',
        body: JSON.stringify(answer.body),
      });
    });

    await page.goto('/');
    const form = page.getByRole('form', { name: 'Contact us' });
    await form.getByLabel('Name').fill('Dana');
    await form.getByLabel('Email').fill('dana@example.test');
    await form.getByLabel('How can we help?').fill('Hello there');
    await form.getByRole('button', { name: 'Send message' }).click();
    await expect(form.getByRole('alert')).toHaveText('A valid email is required.');
    expect(sent[0]!.headers['accept']).toBe('application/json');
    expect(sent[0]!.body).toEqual({ name: 'Dana', email: 'dana@example.test', message: 'Hello there' });

    answer = { status: 200, body: { ok: true } };
    await form.getByRole('button', { name: 'Send message' }).click();
    await expect(page.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
  });
});
