import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { buildVault, buildWarehouse } from './factories';
import { e2eDatabase, expect, test } from './fixtures';

test.describe('Pull lists', () => {
  test('pull an order buried under other vaults, put the blockers back, release it', async ({
    signedIn: page,
    account,
  }) => {
    // a long walk over many screens: the pull, the put-backs, the release and the searches after it
    test.setTimeout(90_000);
    const db = e2eDatabase().db;
    const warehouse = await buildWarehouse(db, {
      companyId: account.companyId,
      name: 'Dig Yard',
      rows: 2,
      cols: 2,
      fieldCapacity: 3,
    });
    const a1 = warehouse.field('A1').id;
    await buildVault(db, {
      companyId: account.companyId,
      fieldId: a1,
      name: 'MINE-1',
      customerName: 'OWNER',
      orderName: 'DELIVER-9',
    });
    await buildVault(db, {
      companyId: account.companyId,
      fieldId: a1,
      name: 'BLOCK-1',
      customerName: 'NEIGHBOUR',
    });
    await buildVault(db, {
      companyId: account.companyId,
      fieldId: a1,
      name: 'BLOCK-2',
      customerName: 'NEIGHBOUR',
    });
    await buildVault(db, {
      companyId: account.companyId,
      fieldId: warehouse.field('B1').id,
      name: 'MINE-2',
      customerName: 'OWNER',
      orderName: 'DELIVER-9',
    });

    // the vault page says how deep it is and leads to a pull list of its order
    await page.goto('/warehouse/dig-yard?field=A1');
    await expect(page.getByTestId('vault-row').filter({ hasText: 'MINE-1' })).toContainText('dig out 2');
    // so do the search suggestion and the edit-vault page
    await page.getByRole('combobox', { name: 'Search' }).fill('MINE-1');
    await expect(
      page.getByRole('listbox', { name: 'Search suggestions' }).getByRole('option', { name: /MINE-1/ }),
    ).toContainText('dig out 2');
    await page.goto('/edit/vault/MINE-1');
    await expect(page.getByTestId('dig-out')).toContainText('2 vaults to dig out');

    await page.goto('/pull-lists?order=DELIVER-9');
    await page.getByRole('button', { name: 'Make pull list' }).click();
    await expect(page).toHaveURL(/\/pull-lists\/\d+$/);
    // every handling counts: BLOCK-2 and BLOCK-1 off, MINE-1 and MINE-2 pulled, then both blockers back
    await expect(page.getByTestId('handlings')).toContainText('6 handlings left');
    await expect(page.getByTestId('handlings')).toContainText('2 vaults only in the way');

    const field = page.getByRole('listitem', { name: 'Field A1' });
    // on a phone each step keeps its vault's name whole beside the button, and the vaults' table shows every column
    await page.setViewportSize({ width: 390, height: 844 });
    for (const name of ['BLOCK-1', 'BLOCK-2', 'NEIGHBOUR'])
      for (const text of await field.getByText(name, { exact: true }).all())
        expect(await text.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
    const state = page.getByTestId('pull-vault').first().getByRole('cell').last();
    await expect(state).toHaveAttribute('data-label', 'State');
    const box = await state.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1366, height: 800 });
    // only the top of the stack can come off: the buried vault waits for the two above it
    await expect(page.getByRole('button', { name: 'Pulled MINE-1' })).toBeDisabled();
    await field.getByRole('button', { name: 'Set aside BLOCK-2' }).click();
    // BLOCK-2 is off but still has to go back: one handling fewer, not two
    await expect(page.getByTestId('handlings')).toContainText('5 handlings left');
    await page.getByRole('button', { name: 'Set aside BLOCK-1' }).click();
    await page.getByRole('button', { name: 'Pulled MINE-1' }).click();
    await page.getByRole('button', { name: 'Pulled MINE-2' }).click();
    await expect(page.getByTestId('handlings')).toContainText(
      'Nothing left to take out; 2 handlings left to put back.',
    );
    // last off, first back: BLOCK-1 came off last, so it is listed first
    await expect(page.getByRole('region', { name: 'Put back' }).getByRole('listitem')).toHaveText([
      /BLOCK-1/,
      /BLOCK-2/,
    ]);
    // a list with vaults set aside cannot be cancelled yet
    await expect(page.getByRole('button', { name: 'Cancel list' })).toBeDisabled();

    // the list survives a reload
    await page.reload();
    await expect(page.getByRole('button', { name: 'Release' })).toBeDisabled();
    await page.getByRole('button', { name: 'Put back BLOCK-1', exact: true }).click();
    await expect(page.getByTestId('handlings')).toContainText('1 handling left to put back.');
    // the other blocker goes to a free slot the user picks: field B2, whose next free slot is the bottom one
    await page.getByRole('button', { name: 'Put back BLOCK-2 elsewhere' }).click();
    const dialog = page.getByRole('dialog', { name: 'Put back elsewhere' });
    // only the fields with a free slot are offered, each with the slot the vault would take
    await expect(dialog.getByLabel('Field and slot').getByRole('option')).toHaveText([
      'Choose a field',
      'A1, position 2',
      'A2, position 3',
      'B1, position 3',
      'B2, position 3',
    ]);
    const axe = await new AxeBuilder({ page }).include('[role="dialog"]').analyze();
    expect(axe.violations.map((v) => v.id)).toEqual([]);
    await dialog.getByLabel('Field and slot').selectOption({ label: 'B2, position 3' });
    await dialog.getByRole('button', { name: 'Put back to B2, position 3' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'Put back' })).toHaveCount(0);

    await page.getByRole('button', { name: 'Release' }).click();
    await page.getByRole('button', { name: 'Yes, release them' }).click();
    await expect(page.getByTestId('released-note')).toBeVisible();
    await expect(page.getByTestId('pull-vault').filter({ hasText: 'MINE-1' })).toContainText('Released by');

    // gone from the field and the stage; the blockers stand back in A1
    await page.goto('/warehouse/dig-yard?field=A1');
    await expect(page.getByTestId('vault-row').filter({ hasText: 'BLOCK-1' })).toBeVisible();
    await expect(page.getByTestId('vault-row').filter({ hasText: 'MINE-1' })).toHaveCount(0);
    await page.goto('/warehouse/dig-yard?field=B2');
    await expect(page.getByTestId('vault-row').filter({ hasText: 'BLOCK-2' })).toContainText('on top');
    await page.goto('/stage');
    await expect(page.getByText('No staged vaults available.')).toBeVisible();

    // still found as released in the company's pull lists
    await page.goto('/pull-lists');
    await expect(page.getByRole('link', { name: /Order DELIVER-9.*released/ })).toBeVisible();
    // the top-bar search finds it as released, with when and by whom, and opens its history
    await page.goto('/warehouse/dig-yard');
    await page.getByRole('combobox', { name: 'Search' }).fill('mine-1');
    const released = page.getByTestId('released-suggestion').filter({ hasText: 'MINE-1' });
    await expect(released).toContainText(/Released .+ by \S+/);
    await released.click();
    await expect(page).toHaveURL(/\/activity\?q=MINE-1$/);
    await expect(page.getByLabel('Vault number or customer')).toHaveValue('MINE-1');
    await expect(
      page.getByRole('list', { name: 'Changes' }).getByTestId('activity-entry').first(),
    ).toContainText('released vault MINE-1');
    // the company's history tells the list's steps in words, the list linked
    await page.goto('/activity');
    const steps = page.getByRole('list', { name: 'Changes' }).getByTestId('activity-entry');
    await expect(steps.filter({ hasText: /released pull list #\d+ of 2 vaults/ })).toHaveCount(1);
    await expect(steps.filter({ hasText: /set a vault aside for pull list #\d+/ })).toHaveCount(2);
    await expect(steps.filter({ hasText: /put back a vault set aside for pull list #\d+/ })).toHaveCount(2);
    await expect(steps.filter({ hasText: /pulled a vault of pull list #\d+/ })).toHaveCount(2);
    await steps
      .filter({ hasText: /made pull list #\d+ of 2 vaults/ })
      .getByRole('link')
      .click();
    await expect(page.getByRole('heading', { name: /DELIVER-9/ })).toBeVisible();
  });

  test('cancel a pull list after a confirmation; what it pulled stays on the stage', async ({
    signedIn: page,
    account,
  }) => {
    const db = e2eDatabase().db;
    const warehouse = await buildWarehouse(db, { companyId: account.companyId, name: 'Quiet Yard' });
    await buildVault(db, {
      companyId: account.companyId,
      fieldId: warehouse.field('A1').id,
      name: 'KEEP-1',
      customerName: 'OWNER',
      orderName: 'CHANGED-MIND',
    });
    await page.goto('/pull-lists?order=CHANGED-MIND');
    await page.getByRole('button', { name: 'Make pull list' }).click();
    await expect(page.getByTestId('handlings')).toContainText(
      '1 handling left (the least possible), no vault in the way.',
    );
    await page.getByRole('button', { name: 'Pulled KEEP-1' }).click();
    await expect(page.getByTestId('handlings')).toContainText('Nothing left to take out.');

    await page.getByRole('button', { name: 'Cancel list' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Cancel pull list' });
    await confirm.getByRole('button', { name: 'No, keep it' }).click();
    await expect(confirm).toHaveCount(0);
    await page.getByRole('button', { name: 'Cancel list' }).click();
    await confirm.getByRole('button', { name: 'Yes, cancel the list' }).click();
    await expect(page.getByText('Pull list Order CHANGED-MIND cancelled')).toBeVisible();
    await expect(page).toHaveURL(/\/pull-lists$/);
    await expect(page.getByRole('link', { name: /Order CHANGED-MIND/ })).toHaveCount(0);
    await page.goto('/stage');
    await expect(page.getByRole('button', { name: /Move vault KEEP-1/ })).toBeVisible();
  });

  test('receive a shipment of 6 vaults into the proposed slots', async ({ signedIn: page, account }) => {
    const db = e2eDatabase().db;
    const warehouse = await buildWarehouse(db, {
      companyId: account.companyId,
      name: 'Dock Yard',
      rows: 2,
      cols: 2,
      fieldCapacity: 3,
    });
    await buildVault(db, {
      companyId: account.companyId,
      fieldId: warehouse.field('B2').id,
      name: 'OLD-1',
      customerName: 'NEWCOMER',
    });
    await page.goto('/receive');
    await page.getByLabel('Customer Name').fill('Newcomer');
    await page.getByLabel('Order Number').fill('SHIP-6');
    const vaults = page.getByRole('group', { name: 'Vaults' });
    await vaults.getByLabel('Numbers (typed or pasted)').fill('R-1\nR-2, R-3\tR-4');
    await vaults.getByLabel('How many').fill('5');
    await page.getByRole('group', { name: 'Liftvans' }).getByLabel('How many').fill('1');
    await page.getByRole('button', { name: 'Propose slots' }).click();
    await expect(page.getByTestId('proposed-slot')).toHaveCount(6);
    // next to the customer's vault first
    await expect(page.getByRole('button', { name: /^Field for R-1:/ })).toContainText('Dock Yard B2');
    // R-4 was proposed for A1 beside R-3: another field for it, chosen on the grid picture (issue 27)
    await page.getByRole('button', { name: /^Field for R-4:/ }).click();
    const picker = page.getByRole('dialog', { name: 'Field for R-4' });
    const grid = picker.getByRole('group', { name: 'Fields of Dock Yard' });
    // B2's two free slots go to; of A1's three, R-3 and the next vault take two
    await expect(grid.getByRole('button', { name: 'B2, no room' })).toBeDisabled();
    await expect(grid.getByRole('button', { name: 'A1, 1 free slot' })).toBeVisible();
    await grid.getByRole('button', { name: 'B1, 3 free slots' }).click();
    await expect(picker).toBeHidden();
    await expect(page.getByRole('button', { name: /^Field for R-4:/ })).toContainText('Dock Yard B1');
    await page.getByRole('button', { name: 'Store 6 vaults' }).click();
    await expect(page.getByTestId('received-vault')).toHaveCount(6);
    await expect(page.getByTestId('received-vault').first()).toContainText('R-1: Dock Yard B2, position 2');
    await expect(page.getByTestId('received-vault').filter({ hasText: 'R-4' })).toContainText('Dock Yard B1');
    // the shipment's labels, offered at the end
    const labels = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Print their labels' }).click();
    const pdf = await labels;
    expect(pdf.suggestedFilename()).toBe('vault-labels.pdf');
    const bytes = await readFile((await pdf.path())!);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');

    await page.goto('/warehouse/dock-yard?field=B2');
    await expect(page.getByTestId('vault-row').filter({ hasText: 'R-2' })).toContainText('on top');
  });
});
