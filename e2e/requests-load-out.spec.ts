import { buildAccount, buildVault, buildWarehouse } from './factories';
import { callApi, e2eDatabase, expect, signInThroughForm, test } from './fixtures';

// Issue 29, points 3 and 4: a customer asks for two of three units from a phone, the office schedules it, the crew
// pulls them and scans them onto the truck on a tablet (a wrong unit is refused), the office marks it delivered.
test('a customer requests a delivery from the phone; the crew loads exactly those units; the customer sees Delivered', async ({
  signedIn: office,
  account,
  browser,
}) => {
  const db = e2eDatabase().db;
  const warehouse = await buildWarehouse(db, {
    companyId: account.companyId,
    name: 'Dock Hall',
    rows: 2,
    cols: 2,
  });
  for (const [field, name] of [
    ['A1', 'RD-1'],
    ['A2', 'RD-2'],
    ['B1', 'RD-3'],
  ] as const)
    await buildVault(db, {
      companyId: account.companyId,
      fieldId: warehouse.field(field).id,
      customerName: 'RUTH DELIVERY',
      orderName: 'RD-ORD',
      name,
    });
  // the office gives the customer an address and hands over a portal link (no SMTP here: the link is answered)
  await office.goto('/requests');
  const added = await callApi(office, 'POST', '/api/customers', {
    name: 'Ruth Delivery',
    email: 'ruth@example.test',
  });
  expect(added.status).toBe(201);
  const link = await callApi(office, 'POST', `/api/customers/${JSON.parse(added.body).id}/portal-link`);
  const url = (JSON.parse(link.body) as { url: string }).url;

  const phone = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  const tablet = await browser.newContext({ viewport: { width: 820, height: 1180 }, hasTouch: true });
  try {
    // the customer, on a phone: two of the three units, delivered to an address
    const customer = await phone.newPage();
    await customer.goto(url);
    await expect(customer.getByRole('heading', { name: 'Your storage' })).toBeVisible();
    await customer.getByRole('button', { name: 'Ask for your goods' }).click();
    const form = customer.getByRole('form', { name: 'New request' });
    await form.getByRole('checkbox', { name: /RD-1/ }).check();
    await form.getByRole('checkbox', { name: /RD-2/ }).check();
    await form.getByLabel('Address').fill('7 Quay Street, Harbourtown');
    await form.getByRole('button', { name: 'Send request' }).click();
    await expect(customer.getByText(/Request #\d+ sent/)).toBeVisible();
    const card = customer.getByTestId('portal-request');
    await expect(card.getByTestId('request-state')).toHaveText('Requested');
    await expect(card).toContainText('RD-1, RD-2');

    // the office schedules it: its pull list is made
    await office.goto('/requests');
    await office.getByTestId('request-row').filter({ hasText: 'RUTH DELIVERY' }).click();
    await expect(office.getByRole('heading', { name: /Request #\d+: RUTH DELIVERY/ })).toBeVisible();
    const requestUrl = office.url();
    const schedule = office.getByRole('form', { name: 'Schedule' });
    await schedule.getByLabel('Crew').fill('Ana and Ben');
    await schedule.getByLabel('Truck').fill('T-7');
    await schedule.getByRole('button', { name: 'Schedule and make the pull list' }).click();
    await expect(office.getByText(/scheduled; its pull list is ready/)).toBeVisible();
    const pullListHref = await office.getByRole('link', { name: 'Pull list' }).getAttribute('href');

    // the crew, on a tablet: pull both units, then scan them onto the truck
    const floor = await buildAccount(db, { company: account.companyName, role: 'floor' });
    const crew = await tablet.newPage();
    await signInThroughForm(crew, floor);
    await crew.goto(pullListHref!);
    await crew.getByRole('button', { name: 'Pulled RD-1' }).click();
    await crew.getByRole('button', { name: 'Pulled RD-2' }).click();
    await expect(crew.getByRole('button', { name: 'Pulled RD-2' })).toHaveCount(0);
    await crew.getByRole('link', { name: 'Load-out check' }).click();
    await expect(crew.getByTestId('load-requested')).toContainText('2');
    const scanBox = crew.getByPlaceholder('Unit number or label');
    await scanBox.fill('RD-3');
    await scanBox.press('Enter');
    await expect(crew.getByRole('alert').filter({ hasText: 'RD-3 is not on this request' })).toBeVisible();
    await expect(crew.getByTestId('load-loaded')).toContainText('0');
    await scanBox.fill('RD-1');
    await scanBox.press('Enter');
    await expect(
      crew.getByRole('list', { name: 'Last scans' }).getByText('RD-1: on the truck'),
    ).toBeVisible();
    // the dock's Wi-Fi drops: the next scan waits on the tablet and the load cannot be marked until it is sent
    await tablet.setOffline(true);
    await scanBox.fill('RD-2');
    await scanBox.press('Enter');
    await expect(
      crew
        .getByRole('list', { name: 'Last scans' })
        .getByText('RD-2: counted on this device, not synced yet'),
    ).toBeVisible();
    await expect(crew.getByRole('list', { name: 'Scans not synced' })).toContainText('scan RD-2');
    // the counts take the waiting scan at once, as the server will
    await expect(crew.getByTestId('load-loaded').locator('p').first()).toHaveText('2');
    await expect(crew.getByTestId('load-loaded')).toContainText('1 not synced');
    await expect(crew.getByTestId('load-missing').locator('p').first()).toHaveText('0');
    await expect(
      crew.getByRole('region', { name: 'On the truck' }).getByRole('listitem').filter({ hasText: 'RD-2' }),
    ).toContainText('scanned on this device, not synced yet');
    await expect(crew.getByText(/1 scan of this load waits on this device/)).toBeVisible();
    await expect(crew.getByRole('button', { name: 'Mark loaded' })).toBeDisabled();
    await tablet.setOffline(false);
    await expect(crew.getByRole('list', { name: 'Scans not synced' })).toHaveCount(0);
    await expect(crew.getByTestId('load-missing')).toContainText('0');
    await crew.getByRole('button', { name: 'Mark loaded' }).click();
    await expect(crew.getByText(/loaded; its units are released/)).toBeVisible();

    // the office marks it delivered; the customer sees every step
    await office.goto(requestUrl);
    await office.getByRole('button', { name: 'Mark delivered' }).click();
    await expect(office.getByText(/Request #\d+ delivered/)).toBeVisible();
    await customer.reload();
    await expect(card.getByTestId('request-state')).toHaveText('Delivered');
    await expect(card.getByTestId('request-step')).toHaveCount(5);
  } finally {
    await phone.close();
    await tablet.close();
  }
});
