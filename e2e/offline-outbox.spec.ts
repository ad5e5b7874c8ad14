import type { Locator, Page } from '@playwright/test';
import { fieldLinkPath, vaultLinkPath } from '@domain/rules/scan-text';
import { buildStagedVault, buildVault, buildWarehouse, stored as storedRows } from './factories';
import { callApi, e2eDatabase, expect, signInThroughForm, test } from './fixtures';
import { expectNoAxeViolations } from './axe';

// Issue 30: work through a Wi-Fi dead zone. These journeys need the web build's service worker (the others block it).
test.use({ serviceWorkers: 'allow' });

const tile = (page: Page, name: string) =>
  page.getByRole('group', { name: 'Fields' }).getByRole('button', { name, exact: true });
const slot = (panel: Locator, position: number) =>
  panel.getByRole('list', { name: 'Vault slots' }).getByRole('listitem', { name: `Slot ${position}` });

/** Waits until the service worker controls the page (it precached the app shell) and the last data is stored. */
async function readyForOffline(page: Page, keptReads: number) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  // the worker's install (the precache) and the writes to IndexedDB run in the background: under a loaded machine
  // they take longer than a click's answer
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 20_000 })
    .toBe(true);
  await expect
    .poll(async () => (await keptKeys(page)).length, { timeout: 20_000 })
    .toBeGreaterThanOrEqual(keptReads);
}

/** The query keys of the reads this browser kept in IndexedDB for offline use. */
function keptKeys(page: Page): Promise<string[]> {
  return page.evaluate(
    () =>
      new Promise<string[]>((resolve) => {
        const open = indexedDB.open('wm-last-data');
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('answers')) return resolve([]);
          const keys = db.transaction('answers').objectStore('answers').getAllKeys();
          keys.onsuccess = () => resolve(keys.result.map(String));
        };
        open.onerror = () => resolve([]);
      }),
  );
}

/**
 * Waits until the page's read of `root` is stored before the test leaves the page: the store writes a moment after
 * the answer, and a full page load (which a crew's tablet does not do between screens) can cut that write short.
 */
async function keptBeforeLeaving(page: Page, root: string) {
  await expect
    .poll(async () => (await keptKeys(page)).some((key) => key.startsWith(`["${root}"`)), { timeout: 20_000 })
    .toBe(true);
}

/** A 1x1 PNG, as a tablet's camera would give a (much larger) one. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

test.describe('Working through a Wi-Fi dead zone (issue 30)', () => {
  test('after one visit, the app and the last warehouse open with the network off, read-only with their age', async ({
    signedIn: page,
    account,
  }) => {
    const db = e2eDatabase().db;
    const w = await buildWarehouse(db, { companyId: account.companyId, rows: 1, cols: 2, fieldCapacity: 3 });
    await buildVault(db, { companyId: account.companyId, fieldId: w.field('B1').id, name: 'SW-1' });
    await page.goto(`/warehouse/${w.slug}`);
    await expect(tile(page, 'B1')).toBeVisible();
    // the session, the warehouse list and the warehouse
    await readyForOffline(page, 3);

    await page.context().setOffline(true);
    await page.reload();
    await expect(tile(page, 'B1')).toBeVisible();
    await expect(page.getByTestId('offline-as-of')).toHaveText(/^Offline, as of \d{1,2}:\d{2}/);
    await tile(page, 'B1').click();
    await expect(slot(page.getByRole('region', { name: 'Field B1' }), 3)).toContainText('SW-1');
    // another address of the app opens too (its code is in the precache), with what this tablet kept
    await page.goto('/stage');
    await expect(page.getByRole('heading', { name: 'Staged Vaults' })).toBeVisible();
    // a screen this tablet never read says so, rather than showing nothing as if the stage were empty
    await expect(
      page.getByText('No connection to the server. Please check the connection and try again.'),
    ).toBeVisible();

    // the connection drops while the app is open: a page it never read waits for the connection, and says so
    await page.context().setOffline(false);
    await page.goto(`/warehouse/${w.slug}`);
    await expect(tile(page, 'B1')).toBeVisible();
    await page.context().setOffline(true);
    await page.evaluate(() => {
      window.history.pushState({}, '', '/pull-lists');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await expect(page.getByText('Not kept on this device for offline use.')).toBeVisible();
    await page.context().setOffline(false);
    await expect(page.getByText('Not kept on this device for offline use.')).toBeHidden();
  });

  test('stages, a move, a received shipment, an add with a file and check scans made offline survive a reload and land once; a move a colleague made stale asks for attention', async ({
    signedIn: page,
    account,
    browser,
  }) => {
    const db = e2eDatabase().db;
    const w = await buildWarehouse(db, { companyId: account.companyId, rows: 1, cols: 5, fieldCapacity: 3 });
    const put = (field: string, name: string) =>
      buildVault(db, { companyId: account.companyId, fieldId: w.field(field).id, name });
    const a = await put('A1', 'OFF-A');
    const b = await put('B1', 'OFF-B');
    await put('D1', 'CH-1');
    await put('D1', 'CH-2');
    const ch3 = await put('D1', 'CH-3');
    const s = await buildStagedVault(db, { companyId: account.companyId, name: 'OFF-S' });

    // online, once: the check is started, and the tablet sees the warehouse, the stage and the check
    const started = await callApi(page, 'POST', '/api/checks', { warehouse_id: w.id });
    const checkId = (JSON.parse(started.body) as { id: number }).id;
    await page.goto('/stage');
    await expect(page.getByRole('button', { name: 'Move vault OFF-S' })).toBeVisible();
    await keptBeforeLeaving(page, 'stage');
    await page.goto(`/checks/${checkId}`);
    await expect(page.getByTestId('check-field-D1')).toContainText('Not checked yet');
    await keptBeforeLeaving(page, 'checks');
    await page.goto(`/warehouse/${w.slug}`);
    await expect(tile(page, 'A1')).toBeVisible();
    await readyForOffline(page, 5);

    await page.context().setOffline(true);
    // two stages from the warehouse's fields
    for (const [field, name] of [
      ['A1', 'OFF-A'],
      ['B1', 'OFF-B'],
    ] as const) {
      await tile(page, field).click();
      const panel = page.getByRole('region', { name: `Field ${field}` });
      await slot(panel, 3)
        .getByRole('button', { name: `Stage vault ${name}` })
        .click();
      await page
        .getByRole('alertdialog', { name: 'Stage Vault' })
        .getByRole('button', { name: 'Yes, stage it' })
        .click();
      await expect(page.getByText(`Vault ${name} staged on this device: not synced yet`)).toBeVisible();
      await expect(slot(panel, 3).getByTestId('not-synced')).toContainText(`Stage vault ${name}`);
    }

    // one move from the stage into C1's bottom slot
    await page.goto('/stage');
    await page.getByRole('button', { name: 'Move vault OFF-S' }).click();
    const move = page.getByRole('dialog', { name: 'Put vault OFF-S in a field' });
    await move.getByRole('combobox', { name: 'Warehouse' }).selectOption({ label: w.name });
    await move
      .getByRole('group', { name: `Fields of ${w.name}` })
      .getByRole('button', { name: /^C1,/ })
      .click();
    await move.getByRole('button', { name: `Put in ${w.name} C1, position 3` }).click();
    await expect(page.getByText(/Vault OFF-S put in .* on this device: not synced yet/)).toBeVisible();
    await expect(
      page.getByRole('button', { name: 'Move vault OFF-S' }).getByTestId('not-synced'),
    ).toBeVisible();

    // a shipment of two units received: the slots are proposed on the tablet from the warehouse it kept
    await page.goto('/receive').catch(() => undefined);
    await page.getByLabel('Customer Name').fill('Dead Zone Movers');
    await page.getByLabel('Order Number').fill('DZ-1');
    await page.getByRole('group', { name: 'Vaults' }).getByLabel('How many').fill('2');
    await page.getByRole('button', { name: 'Propose slots' }).click();
    await expect(page.getByTestId('proposed-on-tablet')).toContainText('Proposed on this device, not synced');
    // the first field in walking order with room for both (A1's vault is staged only on this tablet so far)
    const proposed = page.getByTestId('proposed-slot');
    await expect(proposed).toHaveCount(2);
    for (const row of await proposed.all()) await expect(row).toContainText(`${w.name} A1`);
    await page.getByRole('button', { name: 'Store 2 vaults' }).click();
    await expect(page.getByTestId('shipment-not-synced')).toHaveText(
      'Not synced: shipment of 2 units for DEAD ZONE MOVERS',
    );
    await expect(page.getByText(/^Labels can be printed once it has reached the server/)).toBeVisible();

    // a vault added with a photo: the file waits on the tablet with it; A1 shows the shipment's slots held
    await page.goto(`/warehouse/${w.slug}`).catch(() => undefined);
    await tile(page, 'A1').click();
    await expect(
      slot(page.getByRole('region', { name: 'Field A1' }), 2).getByTestId('not-synced'),
    ).toHaveText('Not synced: unit of DEAD ZONE MOVERS received');
    await tile(page, 'E1').click();
    const e1 = page.getByRole('region', { name: 'Field E1' });
    await e1.getByRole('button', { name: '+ Add Vault' }).click();
    const addDialog = page.getByRole('dialog', { name: 'New Vault Info' });
    await addDialog.getByLabel('Customer Name').fill('photo customer');
    await addDialog.getByLabel('Vault Number').fill('OFF-PIC');
    await addDialog.getByLabel('Order Number').fill('ORD-PIC');
    await addDialog
      .getByLabel('Attachment')
      .setInputFiles({ name: 'dent.png', mimeType: 'image/png', buffer: PNG });
    await addDialog.getByRole('button', { name: 'Add Vault' }).click();
    await expect(
      page.getByText('Vault OFF-PIC added on this device with its file: not synced yet'),
    ).toBeVisible();
    await expect(slot(e1, 3).getByTestId('not-synced')).toHaveText('Not synced: vault OFF-PIC added');

    // three vaults counted in the check, the field opened by its label's link, the last vault by its label's link
    // (what a printed label's QR code holds), the others by their numbers
    const printed = 'https://wm.example.test';
    const ch3Label = `${printed}${vaultLinkPath((await storedRows.vault(ch3.id)).label_code!)}`;
    await page.goto(`/checks/${checkId}`).catch(() => undefined);
    await expect(page.getByTestId('check-field-D1')).toBeVisible();
    const scanText = page.getByLabel('Label text');
    const queuedScans = page.getByRole('list', { name: 'Scans not synced' }).getByRole('listitem');
    for (const [i, text] of [
      `${printed}${fieldLinkPath(w.slug, 'D1')}`,
      'CH-1',
      'CH-2',
      ch3Label,
    ].entries()) {
      await scanText.fill(text);
      await scanText.press('Enter');
      // one read at a time, as the form takes them (its button waits while a read is being kept)
      await expect(queuedScans).toHaveCount(i + 1);
    }
    await expect(page.getByTestId('current-field')).toHaveText('Checking field D1: scan its vaults.');
    await expect(page.getByTestId('not-synced')).toContainText('Not synced: 4 scans on this device');
    // counted at once, marked not synced
    await expect(page.getByTestId('check-field-D1').getByTestId('field-state')).toHaveText('Found 3 of 3');
    await expect(page.getByTestId('check-field-D1').getByTestId('field-not-synced')).toHaveText(
      '3 found not synced',
    );
    // the label scans are listed by what they name; CH-3 is found, not synced
    await expect(queuedScans).toHaveText(['Field D1 (label)', 'CH-1', 'CH-2', 'CH-3 (label)']);
    await expect(
      page.getByTestId('field-found').getByRole('listitem').filter({ hasText: 'CH-3' }),
    ).toContainText('not synced');
    await expect(page.getByTestId('unsure-scan')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Finish check' })).toBeDisabled();
    await expect(page.getByTestId('finish-blocked')).toHaveText(
      '4 scans of this check wait on this device: finish once they have reached the server.',
    );
    await expect(page.getByTestId('outbox-badge')).toContainText('9');
    // the badge's name holds its visible words
    await expectNoAxeViolations(page);

    // a reload without a network: the queue (the photo's bytes with it) and the marks are still there
    await page.reload();
    await expect(page.getByTestId('offline-as-of')).toBeVisible();
    await expect(page.getByTestId('outbox-badge')).toContainText('9');
    // the tablet's list of waiting changes names the label scans by what they name, not by their links
    await page.getByTestId('outbox-badge').click();
    const waiting = page.getByRole('dialog', { name: 'Changes not synced' });
    await expect(waiting).toContainText(/scan Field D1 \(label\)/);
    await expect(waiting).toContainText(/scan CH-3 \(label\)/);
    await expect(waiting).not.toContainText('/v/');
    await page.keyboard.press('Escape');
    await expect(waiting).toBeHidden();
    await expect(page.getByTestId('not-synced')).toContainText('Not synced: 4 scans on this device');
    await expect(page.getByTestId('check-field-D1').getByTestId('field-state')).toHaveText('Found 3 of 3');
    await expect(page.getByRole('button', { name: 'Finish check' })).toBeDisabled();
    // signing out with changes waiting asks first
    await page.getByRole('button', { name: /menu/i }).first().click();
    await page.getByRole('button', { name: 'Logout' }).click();
    const leave = page.getByRole('alertdialog', { name: 'Sign out with changes not synced?' });
    await expect(leave).toContainText('9 changes made on this device have not reached the server yet.');
    await leave.getByRole('button', { name: 'Stay signed in' }).click();
    await expect(page.getByTestId('outbox-badge')).toContainText('9');

    // meanwhile a colleague on another tablet puts a vault into C1's bottom slot
    const colleague = await browser.newContext({ serviceWorkers: 'block' });
    const other = await colleague.newPage();
    await signInThroughForm(other, account);
    const added = await callApi(other, 'POST', '/api/vaults/', {
      vault_id: 'COL-1',
      customer_name: 'COLLEAGUE',
      order_name: 'ORD-1',
      type: 'vault',
      note: '',
      field_id: w.field('C1').id,
      position: 3,
    });
    expect(added.status).toBe(201);
    await colleague.close();

    // the network is back: everything is sent in order; the stale move is set aside with the server's reason
    await page.context().setOffline(false);
    await expect(page.getByTestId('outbox-badge')).toContainText('1', { timeout: 20_000 });
    // the crew is told (the replay may take more than one round)
    await expect(page.getByText(/changes? made offline reached the server$/).first()).toBeVisible();
    // and of the refusal, below the top bar: its menu and Scan button stay within reach while the toast shows
    const refusal = page.getByText('A change was refused by the server and needs attention').first();
    await expect(refusal).toBeVisible();
    const bar = (await page.getByRole('banner').boundingBox())!;
    // (once it has slid in)
    await expect
      .poll(async () => (await refusal.boundingBox())?.y ?? 0)
      .toBeGreaterThanOrEqual(bar.y + bar.height);
    await expect(page.getByRole('button', { name: 'Finish check' })).toBeEnabled();
    await expect(page.getByTestId('check-field-D1')).toContainText('Found 3 of 3');
    await expect(page.getByTestId('check-field-D1').getByTestId('field-not-synced')).toHaveCount(0);
    // CH-3, counted from its label, is found on the server's word now
    await page.getByTestId('check-field-D1').click();
    const found = page.getByTestId('field-found');
    await expect(found.getByRole('listitem').filter({ hasText: 'CH-3' })).toHaveCount(1);
    await expect(found.getByTestId('not-synced-vault')).toHaveCount(0);
    await page.getByTestId('outbox-badge').click();
    const list = page.getByRole('dialog', { name: 'Changes not synced' });
    const attention = list.getByTestId('outbox-attention');
    await expect(attention).toContainText('Put vault OFF-S in');
    await expect(attention).toContainText('Someone else just placed a vault in this slot.');

    // on the server, each change once: both stages (one stage event each), the check's three vaults found
    const staged = JSON.parse((await callApi(page, 'GET', '/api/stage/vaults')).body) as Record<
      string,
      unknown
    >;
    expect(Object.keys(staged).map(Number).sort()).toEqual([a.id, b.id, s.id].sort());
    for (const vault of [a, b]) {
      const history = await callApi(page, 'GET', `/api/vaults/${vault.id}/history`);
      expect(history.body.match(/vault\.staged/g)?.length ?? 0).toBe(1);
    }
    const check = JSON.parse((await callApi(page, 'GET', `/api/checks/${checkId}`)).body) as {
      fields: { name: string; found: { name: string }[] }[];
    };
    expect(
      check.fields
        .find((f) => f.name === 'D1')!
        .found.map((v) => v.name)
        .sort(),
    ).toEqual(['CH-1', 'CH-2', 'CH-3']);
    // the shipment once, both units in A1 (emptied by the stage before it); the vault once, with its photo's bytes
    const warehouse = JSON.parse((await callApi(page, 'GET', `/api/warehouse/${w.id}`)).body) as {
      fields: Record<
        string,
        {
          name: string;
          vaults: Record<
            string,
            { customer_name: string; name: string | null; attachments: { file_url: string }[] }
          >;
        }
      >;
    };
    const stored = Object.values(warehouse.fields).flatMap((f) =>
      Object.values(f.vaults).map((v) => ({ ...v, field: f.name })),
    );
    expect(stored.filter((v) => v.customer_name === 'DEAD ZONE MOVERS').map((v) => v.field)).toEqual([
      'A1',
      'A1',
    ]);
    const pictured = stored.filter((v) => v.name === 'OFF-PIC');
    expect(pictured.map((v) => [v.field, v.attachments.length])).toEqual([['E1', 1]]);
    const photo = await page.request.get(pictured[0]!.attachments[0]!.file_url);
    expect(Buffer.from(await photo.body()).equals(PNG)).toBe(true);

    // Discard asks first; then nothing waits and the badge goes
    await attention.getByRole('button', { name: 'Discard' }).click();
    await page
      .getByRole('alertdialog', { name: 'Discard this change?' })
      .getByRole('button', { name: 'Discard change' })
      .click();
    await expect(page.getByTestId('outbox-badge')).toHaveCount(0);
  });

  test.describe('on a touch tablet', () => {
    test.use({ viewport: { width: 820, height: 1180 }, hasTouch: true, isMobile: true });

    test("a check's last scans made offline say what the server made of them once they have reached it", async ({
      signedIn: page,
      account,
    }) => {
      const db = e2eDatabase().db;
      const w = await buildWarehouse(db, {
        companyId: account.companyId,
        rows: 1,
        cols: 2,
        fieldCapacity: 3,
      });
      const put = (field: string, name: string) =>
        buildVault(db, { companyId: account.companyId, fieldId: w.field(field).id, name });
      await put('A1', 'LS-1');
      await put('A1', 'LS-2');
      await put('B1', 'LS-STRAY');
      const started = await callApi(page, 'POST', '/api/checks', { warehouse_id: w.id });
      const checkId = (JSON.parse(started.body) as { id: number }).id;
      await page.goto(`/checks/${checkId}`);
      await expect(page.getByTestId('check-field-A1')).toContainText('Not checked yet');
      await readyForOffline(page, 2);
      await keptBeforeLeaving(page, 'checks');

      // the check opened with the network off: a field, a vault of it, one of another field, a number nobody has
      await page.context().setOffline(true);
      await page.reload();
      await expect(page.getByTestId('offline-as-of')).toBeVisible();
      const scanText = page.getByLabel('Label text');
      const queuedScans = page.getByRole('list', { name: 'Scans not synced' }).getByRole('listitem');
      for (const [i, text] of ['A1', 'LS-1', 'LS-STRAY', 'V-999'].entries()) {
        await scanText.fill(text);
        await scanText.press('Enter');
        await expect(queuedScans).toHaveCount(i + 1);
      }
      const lastScans = page.getByRole('list', { name: 'Last scans' }).getByRole('listitem');
      await expect(lastScans).toHaveText([
        'V-999: not synced, unexpected? The server decides',
        'LS-STRAY: not synced, unexpected? The server decides',
        'LS-1: counted on this device, not synced yet',
        'Checking field A1 (not synced yet)',
      ]);

      // back online: the scans reach the server, and each line says what it made of them (the refusal with its reason)
      await page.context().setOffline(false);
      await expect(page.getByTestId('check-field-A1').getByTestId('field-not-synced')).toHaveCount(0, {
        timeout: 20_000,
      });
      await expect(page.getByTestId('check-field-A1').getByTestId('field-state')).toHaveText(
        'Found 1 of 2 · Not found yet 1 · Unexpected 1',
      );
      await expect(lastScans).toHaveText([
        'V-999: not counted. No vault or field of your company matches this scan.',
        'LS-STRAY: not expected here',
        'LS-1: found',
        'Checking field A1',
      ]);
      await expect(queuedScans).toHaveText(['V-999 (refused: see the changes not synced)']);
    });
  });
});
