import { buildVault, buildWarehouse, stored } from './factories';
import { expectAlertDialog } from './alert-dialog';
import { e2eDatabase, expect, test } from './fixtures';
import { scanWithKeyboard } from './hand-scanner';

test.describe('Warehouse check', () => {
  test('a full check with one missing and one unexpected vault, both resolved from the report', async ({
    signedIn: page,
    account,
  }) => {
    const db = e2eDatabase().db;
    const warehouse = await buildWarehouse(db, {
      companyId: account.companyId,
      name: 'Audit Hall',
      rows: 2,
      cols: 2,
      fieldCapacity: 3,
    });
    const put = (field: string, name: string) =>
      buildVault(db, { companyId: account.companyId, fieldId: warehouse.field(field).id, name });
    await put('A1', 'AU-1');
    await put('A1', 'AU-2');
    await put('B1', 'AU-3');
    const stray = await put('A2', 'AU-STRAY');
    // an EMPTY placeholder has no number or label to scan: it is counted by hand
    await buildVault(db, {
      companyId: account.companyId,
      fieldId: warehouse.field('B1').id,
      customerName: 'EMPTY LIFTVAN',
      type: 'liftvan',
    });

    const scan = (text: string) => scanWithKeyboard(page, text);

    await page.goto('/dashboard');
    await page.getByRole('button', { name: /menu/i }).first().click();
    await page.getByRole('link', { name: 'Checks' }).click();
    await expect(page.getByText('No warehouse checks yet')).toBeVisible();
    const form = page.getByRole('form', { name: 'Start a check' });
    await form.getByLabel('Warehouse').selectOption({ label: 'Audit Hall' });
    await form.getByLabel('Check', { exact: true }).selectOption('some');
    await form.getByLabel('Fields').fill('A1, B1');
    await form.getByRole('button', { name: 'Start check' }).click();
    await expect(page).toHaveURL(/\/checks\/\d+$/);
    await expect(page.getByRole('heading', { name: /Check \d+: Audit Hall/ })).toBeVisible();

    // a colleague follows the same check on another tablet
    const colleague = await page.context().newPage();
    await colleague.goto(page.url());
    await expect(colleague.getByTestId('check-field-B1')).toContainText('Not checked yet');

    // field A1 by its label, then its vaults: one found, one standing there that belongs elsewhere
    await scan('A1');
    await expect(page.getByTestId('current-field')).toHaveText('Checking field A1: scan its vaults.');
    await scan('AU-1');
    await expect(page.getByRole('list', { name: 'Last scans' })).toContainText('AU-1: found');
    await scan('AU-STRAY');
    await expect(page.getByRole('list', { name: 'Last scans' })).toContainText('AU-STRAY: not expected here');
    await expect(page.getByTestId('check-field-A1')).toContainText(
      'Found 1 of 2 · Not found yet 1 · Unexpected 1',
    );
    await expect(page.getByTestId('field-unexpected')).toContainText('AU-STRAY');
    // a field's button is named in words apart: its name, who opened it, its count
    await expect(
      page.getByRole('button', { name: /^A1, by .+, Found 1 of 2 · Not found yet 1 · Unexpected 1$/ }),
    ).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('button', { name: 'B1, Not checked yet · 2 expected' })).toBeVisible();
    // a scan that names nothing: its reason in its line of the last scans, once
    const nothing = 'NOPE-9: not counted. No vault or field of your company matches this scan.';
    await scan('NOPE-9');
    await expect(page.getByRole('list', { name: 'Last scans' })).toContainText(nothing);
    await expect(page.getByText('No vault or field of your company matches this scan.')).toHaveCount(1);

    // field B1 picked by hand, its vault typed
    await page.getByTestId('check-field-B1').click();
    await expect(page.getByTestId('current-field')).toHaveText('Checking field B1: scan its vaults.');
    await page.getByLabel('Label text').fill('AU-3');
    await page.getByLabel('Label text').press('Enter');
    await expect(page.getByTestId('check-field-B1')).toContainText('Found 1 of 2');
    // the refusal's reason is still there after the next scan
    await expect(page.getByRole('list', { name: 'Last scans' })).toContainText(nothing);
    await page.getByRole('button', { name: 'Found: EMPTY LIFTVAN (liftvan)' }).click();
    await expect(page.getByRole('list', { name: 'Last scans' })).toContainText(
      'EMPTY LIFTVAN (liftvan): found',
    );
    await expect(page.getByTestId('check-field-B1')).toContainText('Found 2 of 2');
    // live on the colleague's tablet too
    await expect(colleague.getByTestId('check-field-B1')).toContainText('Found 2 of 2');
    await expect(colleague.getByTestId('check-field-A1')).toContainText('Unexpected 1');
    await colleague.close();

    await page.getByRole('button', { name: 'Finish check' }).click();
    const finish = page.getByRole('alertdialog');
    await expectAlertDialog(
      finish,
      'Finish this check?',
      'The report is saved with every discrepancy. Nobody can scan into this check afterwards.',
    );
    await finish.getByRole('button', { name: 'Finish check' }).click();
    await expect(page.getByText('Check finished with 2 discrepancies.')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Discrepancies (2, 2 open)' })).toBeVisible();

    const rows = page.getByTestId('discrepancy');
    const missing = rows.filter({ hasText: 'Missing: AU-2' });
    const unexpected = rows.filter({ hasText: 'Unexpected: AU-STRAY' });
    await expect(missing).toContainText('Expected in A1, not found.');
    await expect(unexpected).toContainText('Found in A1.');

    await unexpected.getByRole('button', { name: 'Move into A1' }).click();
    const move = page.getByRole('alertdialog');
    await expectAlertDialog(
      move,
      'Move the vault here?',
      'Vault AU-STRAY goes into field A1, on top of its stack.',
    );
    await move.getByRole('button', { name: 'Move' }).click();
    await expect(unexpected.getByTestId('resolution')).toContainText('Moved into A1 by');
    const placed = await stored.vault(stray.id);
    expect(placed.field_id).toBe(warehouse.field('A1').id);

    await missing.getByRole('button', { name: 'Mark searched' }).click();
    await expect(missing.getByTestId('resolution')).toContainText('Searched for by');
    await expect(page.getByRole('heading', { name: 'Discrepancies (2, 0 open)' })).toBeVisible();

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'PDF' }).click();
    expect((await download).suggestedFilename()).toMatch(/^warehouse-check-\d+\.pdf$/);

    // the finished check is in the company's history
    await page.goto('/activity');
    const finishedEntry = page.getByTestId('activity-entry').filter({ hasText: /finished check #\d+/ });
    await expect(finishedEntry.first()).toContainText('in Audit Hall: 3 found, 1 missing, 1 unexpected');
  });
});
