import { buildWarehouse, uniqueSuffix } from './factories';
import { e2eDatabase, expect, test } from './fixtures';
import { expectAlertDialog } from './alert-dialog';

// A checklist's public fill-in link carries a secret key: the office copies it from the admin page and hands it
// to floor staff, who answer signed out. Without the right key the page is a plain "not found".
test.describe('checklist fill-in link with its key', () => {
  test('copied from the admin page, it opens signed out and takes an answer; a wrong or replaced key does not', async ({
    signedIn: page,
    account,
    browser,
    baseURL,
  }) => {
    const warehouse = await buildWarehouse(e2eDatabase().db, {
      companyId: account.companyId,
      name: `Yard ${uniqueSuffix()}`,
      rows: 1,
      cols: 1,
    });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/warehouse-checklists');
    await page.getByRole('button', { name: 'Add New Checklist' }).click();
    const add = page.getByRole('dialog', { name: 'New Checklist Info' });
    await add.getByLabel('Warehouse').selectOption({ label: warehouse.name });
    // a long unbroken word (a pasted link, a part number) must wrap on the phone, not widen the page
    await add.getByLabel('Description').fill(`Yard round ${'X'.repeat(300)}`);
    await add.getByRole('button', { name: 'Add Checklist' }).click();
    await expect(add).toBeHidden();

    const card = page.getByRole('article', { name: `${warehouse.name} checklist` });
    const shown = card.getByRole('textbox', { name: 'Fill-in link' });
    await expect(shown).toHaveValue(new RegExp(`^${baseURL}/${warehouse.slug}-checklist\\?key=[\\w-]{24}$`));
    const link = await shown.inputValue();
    await card.getByRole('button', { name: `Copy ${warehouse.name} fill-in link` }).click();
    await expect(page.getByText('Fill-in link copied.')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);

    // a floor worker's phone: a fresh browser, never signed in
    const floor = await browser.newContext({
      viewport: { width: 390, height: 844 },
      hasTouch: true,
      isMobile: true,
    });
    const worker = await floor.newPage();
    await worker.goto(link);
    await expect(worker.getByRole('heading', { level: 1 })).toHaveText(`${warehouse.name} Checklist`);
    await expect(worker.getByText('Yard round')).toBeVisible();
    await worker.getByLabel('Your Name').fill('Rosa');
    const firstTask = 'Are all incoming/outgoing shipments labeled?';
    await worker.getByRole('button', { name: `Yes: ${firstTask}` }).click();
    const dialog = worker.getByRole('dialog', { name: 'Checklist Response' });
    expect(await worker.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expect(dialog.getByRole('button', { name: 'Submit' })).toBeInViewport({ ratio: 1 });
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expect(dialog).toBeHidden();
    await expect(worker.getByRole('listitem', { name: firstTask })).toContainText('Completed by Rosa');
    // the office sees the answer
    await page.reload();
    await expect(card).toContainText('Filled out by: Rosa');

    // the same address with a wrong key, or none, shows a not-found page with nothing of the checklist
    const url = new URL(link);
    for (const wrong of [`${url.pathname}?key=${'x'.repeat(24)}`, url.pathname]) {
      await worker.goto(wrong);
      await expect(worker.getByRole('heading', { name: 'Checklist not found' })).toBeVisible();
      await expect(worker.getByText('Yard round')).toHaveCount(0);
    }

    // a new key: confirmation first, a toast after, and the old link stops working
    await card.getByRole('button', { name: `New ${warehouse.name} fill-in link` }).click();
    const confirm = page.getByRole('alertdialog', { name: 'New Fill-in Link' });
    await expectAlertDialog(
      confirm,
      'New Fill-in Link',
      `Issue a new fill-in link for ${warehouse.name}? The current link stops working at once; hand the new one to floor staff.`,
    );
    await confirm.getByRole('button', { name: 'Issue new link' }).click();
    await expect(page.getByText(`New fill-in link for ${warehouse.name}.`)).toBeVisible();
    await expect(shown).not.toHaveValue(link);
    const renewed = await shown.inputValue();
    await worker.goto(link);
    await expect(worker.getByRole('heading', { name: 'Checklist not found' })).toBeVisible();
    await worker.goto(renewed);
    await expect(worker.getByRole('heading', { level: 1 })).toHaveText(`${warehouse.name} Checklist`);
    await floor.close();
  });
});
