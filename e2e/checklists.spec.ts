import type { Page } from '@playwright/test';
import { DEFAULT_CHECKLIST_TASKS } from '@domain/schemas/checklist.schema';
import { buildChecklist, buildWarehouse, stored, uniqueSuffix } from './factories';
import { e2eDatabase, expect, test } from './fixtures';

async function arrangeChecklist(companyId: number, tasks: string[], description = 'Friday cleaning round') {
  const db = e2eDatabase().db;
  const warehouse = await buildWarehouse(db, { companyId, name: `Dock ${uniqueSuffix()}`, rows: 1, cols: 1 });
  const { id, linkKey } = await buildChecklist(db, {
    companyId,
    warehouseId: warehouse.id,
    description,
    tasks,
  });
  // the fill-in link as the admin page shows it
  return { id, warehouse, link: `/${warehouse.slug}-checklist?key=${linkKey}` };
}

const task = (page: Page, text: string) => page.getByRole('listitem', { name: text });

test.describe('checklist fill-in page (signed out)', () => {
  test('a floor worker answers Yes, Yes for someone else and No with a reason, without signing in', async ({
    browser,
    account,
  }) => {
    const { id, warehouse, link } = await arrangeChecklist(account.companyId, [
      'Sweep the floor',
      'Empty the bins',
      'Label shipments',
    ]);
    // a brand-new browser context: no session cookie
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(link);

    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${warehouse.name} Checklist`);
    await expect(page.getByText('Friday cleaning round')).toBeVisible();
    const yesSweep = page.getByRole('button', { name: 'Yes: Sweep the floor' });
    await expect(yesSweep).toBeDisabled();
    await expect(page.getByRole('button', { name: 'No: Empty the bins' })).toBeDisabled();

    const name = page.getByLabel('Your Name');
    await name.focus();
    await name.blur();
    await expect(page.getByText('Name is required.')).toBeVisible();
    await name.fill('Maria');
    await expect(yesSweep).toBeEnabled();

    // Yes
    await yesSweep.click();
    const dialog = page.getByRole('dialog', { name: 'Checklist Response' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText('Maria')).toBeVisible();
    await expect(dialog.getByText('Yes', { exact: true })).toBeVisible();
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expect(dialog).toBeHidden();
    await expect(task(page, 'Sweep the floor')).toContainText('Completed by Maria');
    // done tasks are struck through (not faded, which would drop the text below 4.5:1 contrast)
    await expect(task(page, 'Sweep the floor').locator('.line-through')).toHaveText('Sweep the floor');
    await expect(page.getByRole('button', { name: 'Yes: Sweep the floor' })).toHaveCount(0);

    // Yes, but someone else did it
    await page.getByRole('button', { name: 'Yes: Label shipments' }).click();
    await dialog.getByLabel('Someone else did it').check();
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expect(dialog.getByText('Please enter a name for "someone else".')).toBeVisible();
    await dialog.getByLabel('Who did it?').fill('Jo');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expect(task(page, 'Label shipments')).toContainText('Completed by Jo');

    // No needs a reason of 15 characters
    await page.getByRole('button', { name: 'No: Empty the bins' }).click();
    await expect(dialog.getByText('No', { exact: true })).toBeVisible();
    const reason = dialog.getByPlaceholder('Please enter at least 15 characters');
    await reason.fill('  too short   ');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expect(dialog.getByText('Reason must be at least 15 characters.')).toBeVisible();
    await reason.fill('The bins were still in use by the crew');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expect(dialog).toBeHidden();
    await expect(task(page, 'Empty the bins')).toContainText(
      'Not done: The bins were still in use by the crew',
    );
    await expect(page.getByRole('button', { name: 'Yes: Empty the bins' })).toBeVisible();

    // saved on the server: a reload shows the same answers
    await page.reload();
    await expect(task(page, 'Sweep the floor')).toContainText('Completed by Maria');
    await expect(task(page, 'Label shipments')).toContainText('Completed by Jo');
    expect(await stored.checklistFiller(id)).toBe('Maria');
    await context.close();
  });

  test('a checklist without tasks says so', async ({ page, account }) => {
    const { link } = await arrangeChecklist(account.companyId, []);
    await page.goto(link);
    await expect(page.getByText('No tasks found for this checklist.')).toBeVisible();
  });

  test('a warehouse without an active checklist gets a clear message', async ({ page }) => {
    await page.goto(`/nowhere-${uniqueSuffix()}-checklist`);
    await expect(page.getByRole('heading', { name: 'Checklist not found' })).toBeVisible();
  });

  test('a failing server shows the spec message', async ({ page }) => {
    await page.route('**/api/checklists/warehouse/**', (route) =>
      route.fulfill({ status: 500, body: 'boom' }),
    );
    await page.goto('/warehouse-1-checklist');
    await expect(page.getByRole('alert')).toContainText('Failed to fetch active checklist');
  });
});

test.describe('Warehouse Checklists Page', () => {
  test('signed out it shows only a sign-in hint and loads no checklists', async ({ page }) => {
    const calls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/checklists')) calls.push(request.url());
    });
    await page.goto('/warehouse-checklists');
    await expect(page.getByRole('heading', { name: 'Warehouse Checklists Page' })).toBeVisible();
    await expect(page.getByText('Sign in to manage checklists')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Log In' }).first()).toBeVisible();
    expect(calls).toEqual([]);
  });

  test('signed in: add a checklist with the default tasks, refuse a second active one, then edit it', async ({
    signedIn: page,
    account,
  }) => {
    const db = e2eDatabase().db;
    const warehouse = await buildWarehouse(db, {
      companyId: account.companyId,
      name: `Main ${uniqueSuffix()}`,
      rows: 1,
      cols: 1,
    });
    await page.goto('/warehouse-checklists');
    await expect(page.getByText('No checklists found.')).toBeVisible();

    await page.getByRole('button', { name: 'Add New Checklist' }).click();
    const add = page.getByRole('dialog', { name: 'New Checklist Info' });
    for (const text of DEFAULT_CHECKLIST_TASKS) await expect(add.getByText(text)).toBeVisible();
    await add.getByRole('button', { name: 'Add Checklist' }).click();
    await expect(add.getByRole('alert')).toContainText('Warehouse is required.');

    await add.getByLabel('Warehouse').selectOption({ label: warehouse.name });
    await add.getByRole('button', { name: `Remove task: ${DEFAULT_CHECKLIST_TASKS[4]}` }).click();
    await add.getByLabel('New task').fill('  Lock the loading dock  ');
    await add.getByRole('button', { name: 'Add Task' }).click();
    await add.getByLabel('Description').fill('Evening round');
    await add.getByRole('button', { name: 'Add Checklist' }).click();
    await expect(add).toBeHidden();

    const card = page.getByRole('article', { name: `${warehouse.name} checklist` });
    await expect(card).toBeVisible();
    // the company's locale (en-US by default) writes the day as every other page does
    const created = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' }).format(new Date());
    await expect(card.getByText(created, { exact: true })).toBeVisible();
    await expect(card.getByText('Filled out by:')).toBeVisible();
    await expect(card.getByText('Lock the loading dock')).toBeVisible();
    await expect(card.getByText(DEFAULT_CHECKLIST_TASKS[4])).toHaveCount(0);
    await expect(card.getByText('Evening round')).toBeVisible();

    // a second active checklist for the same warehouse is refused with the server's message
    await page.getByRole('button', { name: 'Add New Checklist' }).click();
    await add.getByLabel('Warehouse').selectOption({ label: warehouse.name });
    await add.getByRole('button', { name: 'Add Checklist' }).click();
    await expect(add.getByRole('alert')).toContainText(
      'An active checklist for this warehouse already exists.',
    );
    await add.getByRole('button', { name: 'Cancel' }).click();

    await card.getByRole('button', { name: `Edit ${warehouse.name} checklist` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Checklist' });
    await expect(edit.getByLabel('Warehouse')).toHaveValue(String(warehouse.id));
    await edit.getByLabel(`Done: ${DEFAULT_CHECKLIST_TASKS[0]}`).check();
    await edit.getByRole('button', { name: `Remove task: ${DEFAULT_CHECKLIST_TASKS[1]}` }).click();
    await edit.getByLabel('New task').fill('Check the fire exits');
    await edit.getByLabel('New task').press('Enter');
    await edit.getByLabel('Description').fill('Evening round, both docks');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect(edit).toBeHidden();

    await expect(card.getByText('Evening round, both docks')).toBeVisible();
    await expect(card.getByText(DEFAULT_CHECKLIST_TASKS[1])).toHaveCount(0);
    await expect(card.getByText('Check the fire exits')).toBeVisible();
    await expect(card.getByRole('checkbox', { name: DEFAULT_CHECKLIST_TASKS[0] })).toBeChecked();
    await expect(card.getByText(/Completed by/)).toBeVisible();

    // deactivate, then the fill-in link says there is no active checklist
    await card.getByRole('button', { name: `Edit ${warehouse.name} checklist` }).click();
    await edit.getByRole('switch', { name: 'Active' }).click();
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect(card.getByText('Inactive')).toBeVisible();
    await card.getByRole('link', { name: 'Open' }).click();
    await expect(page).toHaveURL(new RegExp(`/${warehouse.slug}-checklist\\?key=[\\w-]+$`));
    await expect(page.getByRole('heading', { name: 'Checklist not found' })).toBeVisible();
  });
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  test('the page fits the screen and its inputs are big enough that the phone does not zoom in on them', async ({
    page,
    account,
  }) => {
    const { link } = await arrangeChecklist(account.companyId, ['Sweep the dock']);
    await page.goto(link);
    const fontSize = (field: ReturnType<Page['getByLabel']>) =>
      field.evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    const name = page.getByLabel('Your Name');
    expect(await fontSize(name)).toBeGreaterThanOrEqual(16);
    await name.fill('Sam');
    await page.getByRole('button', { name: 'No: Sweep the dock' }).tap();
    const reason = page
      .getByRole('dialog', { name: 'Checklist Response' })
      .getByPlaceholder('Please enter at least 15 characters');
    await expect(reason).toBeInViewport();
    expect(await fontSize(reason)).toBeGreaterThanOrEqual(16);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
  });
});
