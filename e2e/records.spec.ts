import fs from 'node:fs';
import { buildVault, buildWarehouse, stored } from './factories';
import { expectAlertDialog } from './alert-dialog';
import { callApi, e2eDatabase, expect, test } from './fixtures';
import { scanWithKeyboard } from './hand-scanner';

// Issue 34: records that stay true after deletions and partial checks, and the label link's page doing its work.
test.describe('Records you can trust', () => {
  async function hall(companyId: number, name: string) {
    const db = e2eDatabase().db;
    const warehouse = await buildWarehouse(db, { companyId, name, rows: 1, cols: 2, fieldCapacity: 3 });
    const put = (field: string, vaultName: string) =>
      buildVault(db, { companyId, fieldId: warehouse.field(field).id, name: vaultName });
    return { warehouse, put };
  }

  test("a deleted warehouse's vault still says where it was and that it was removed", async ({
    signedIn: page,
    account,
  }) => {
    const { warehouse, put } = await hall(account.companyId, 'Gone Hall');
    const gone = await put('A1', 'REC-GONE');
    await page.goto('/dashboard');
    const deleted = await callApi(page, 'DELETE', `/api/warehouse/${warehouse.id}`);
    expect(deleted.status).toBe(200);

    await page.goto('/activity?q=REC-GONE');
    const changes = page.getByRole('list', { name: 'Changes' });
    await expect(changes).toContainText('removed vault');
    await expect(changes).toContainText('with its warehouse');
    await expect(changes.getByTestId('activity-places').first()).toHaveText(
      `from Gone Hall A1 slot ${gone.position} to nowhere (removed with its warehouse)`,
    );
  });

  test("a finished check's report opens after its warehouse is deleted", async ({
    signedIn: page,
    account,
  }) => {
    const { warehouse, put } = await hall(account.companyId, 'Audited Then Gone');
    await put('A1', 'REC-KEPT');
    await page.goto('/dashboard');
    const started = await callApi(page, 'POST', '/api/checks', { warehouse_id: warehouse.id });
    const checkId = (JSON.parse(started.body) as { id: number }).id;
    await callApi(page, 'POST', `/api/checks/${checkId}/scans`, { text: 'A1' });
    await callApi(page, 'POST', `/api/checks/${checkId}/scans`, {
      text: 'REC-KEPT',
      field_id: warehouse.field('A1').id,
    });
    expect((await callApi(page, 'POST', `/api/checks/${checkId}/finish`)).status).toBe(200);
    expect((await callApi(page, 'DELETE', `/api/warehouse/${warehouse.id}`)).status).toBe(200);

    await page.goto(`/checks/${checkId}`);
    await expect(page.getByRole('heading', { name: `Check ${checkId}: Audited Then Gone` })).toBeVisible();
    await expect(
      page.getByText(/The warehouse was deleted on .*; this report is kept as it stood\./),
    ).toBeVisible();
    await expect(page.getByRole('region', { name: 'Fields covered' })).toContainText(
      'A1: expected 1, found 1, missing 0',
    );
  });

  test("a partial check warns before finishing and reports the unopened field as 'not checked'", async ({
    signedIn: page,
    account,
  }) => {
    const { warehouse, put } = await hall(account.companyId, 'Half Checked');
    await put('A1', 'REC-A');
    await put('B1', 'REC-B');
    await page.goto('/dashboard');
    const started = await callApi(page, 'POST', '/api/checks', { warehouse_id: warehouse.id });
    const checkId = (JSON.parse(started.body) as { id: number }).id;
    await page.goto(`/checks/${checkId}`);
    await expect(page.getByTestId('check-progress')).toContainText('0 of 2 fields checked');

    await scanWithKeyboard(page, 'A1');
    await expect(page.getByTestId('current-field')).toHaveText('Checking field A1: scan its vaults.');
    await scanWithKeyboard(page, 'REC-A');
    await expect(page.getByRole('list', { name: 'Last scans' }).getByText('REC-A: found')).toHaveCount(1);

    await page.getByRole('button', { name: 'Finish check' }).click();
    const warning = page.getByRole('alertdialog');
    await expectAlertDialog(
      warning,
      '1 field is not checked yet',
      'Not checked: B1. The report lists their vaults as not checked, not as missing. Finish anyway? Nobody can scan into this check afterwards.',
    );
    await warning.getByRole('button', { name: 'Finish anyway' }).click();
    await expect(page.getByText('Check finished: everything was where expected.')).toBeVisible();
    const covered = page.getByRole('region', { name: 'Fields covered' });
    await expect(covered).toContainText('B1: not checked (1 expected, not counted)');
    await expect(page.getByRole('heading', { name: 'Discrepancies (0, 0 open)' })).toBeVisible();
  });

  test("the label link's page moves a vault and prints its label", async ({ signedIn: page, account }) => {
    const { warehouse, put } = await hall(account.companyId, 'Link Moves');
    const vault = await put('A1', 'REC-MOVE');
    await put('B1', 'REC-UNDER');
    const { label_code } = await stored.vault(vault.id);

    await page.goto(`/v/${label_code}`);
    await expect(page.getByTestId('scanned-vault')).toHaveText('REC-MOVE');
    await page.getByRole('button', { name: 'Move', exact: true }).click();
    const picker = page.getByRole('region', { name: 'Move vault REC-MOVE' });
    await expect(picker.getByLabel('Warehouse')).toHaveValue(String(warehouse.id));
    await picker.getByLabel('Field').selectOption(String(warehouse.field('B1').id));
    await picker.getByRole('button', { name: 'Move here' }).click();
    await expect(page.getByTestId('scanned-field')).toHaveText('B1');
    const moved = await stored.vault(vault.id);
    expect(moved.field_id).toBe(warehouse.field('B1').id);
    await expect(
      page.getByText(`Vault REC-MOVE moved to Link Moves, field B1, position ${moved.position}.`),
    ).toBeVisible();

    const pdf = page.waitForResponse(
      (r) => r.url().endsWith('/api/labels/vaults') && r.request().method() === 'POST',
    );
    await page.getByRole('button', { name: 'Print the label of vault REC-MOVE' }).click();
    const answer = await pdf;
    expect(answer.status()).toBe(200);
    expect(answer.headers()['content-type']).toContain('application/pdf');
    expect(JSON.parse(answer.request().postData() ?? '{}')).toMatchObject({ vaultIds: [vault.id] });
    // the previewed label saves as the PDF the server drew
    const dialog = page.getByRole('dialog', { name: 'Label of vault REC-MOVE' });
    await expect(dialog.getByTitle('Preview: Label of vault REC-MOVE')).toBeVisible();
    const download = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Save PDF' }).click();
    const saved = await download;
    expect(saved.suggestedFilename()).toBe('vault-REC-MOVE-label.pdf');
    const bytes = fs.readFileSync((await saved.path())!);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  });
});
