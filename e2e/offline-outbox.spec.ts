import type { Locator, Page } from '@playwright/test';
import { systemActor } from '../server/auth/actor';
import { stageVault } from '../server/features/vaults/vaults.service';
import { buildVault, buildWarehouse } from './factories';
import { callApi, e2eDatabase, expect, test } from './fixtures';

const tile = (page: Page, name: string) =>
  page.getByRole('group', { name: 'Fields' }).getByRole('button', { name, exact: true });
const slot = (panel: Locator, position: number) =>
  panel.getByRole('list', { name: 'Vault slots' }).getByRole('listitem', { name: `Slot ${position}` });

test.describe('Working through a Wi-Fi dead zone (issue 30)', () => {
  test('stages made offline wait on the tablet, land once when the connection is back, and a stale one asks for attention', async ({
    signedIn: page,
    account,
  }) => {
    const db = e2eDatabase().db;
    const w = await buildWarehouse(db, { companyId: account.companyId, rows: 1, cols: 2, fieldCapacity: 3 });
    const top = await buildVault(db, {
      companyId: account.companyId,
      fieldId: w.field('A1').id,
      name: 'OFF-A',
    });
    const other = await buildVault(db, {
      companyId: account.companyId,
      fieldId: w.field('B1').id,
      name: 'OFF-B',
    });
    await page.goto(`/warehouse/${w.slug}`);
    // the page and its panel's code arrive while online (no service worker yet)
    await tile(page, 'A1').click();
    await expect(
      slot(page.getByRole('region', { name: 'Field A1' }), 3).getByRole('button', {
        name: 'Stage vault OFF-A',
      }),
    ).toBeVisible();

    await page.context().setOffline(true);
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
      await expect(page.getByText(`Vault ${name} staged on this tablet: not synced yet`)).toBeVisible();
      await expect(slot(panel, 3).getByTestId('not-synced')).toContainText(`Stage vault ${name}`);
    }
    await expect(page.getByTestId('outbox-badge')).toContainText('2');

    // meanwhile a colleague online stages OFF-B and puts nothing back: the tablet's stage of it is stale
    await stageVault(db, systemActor(account.companyId), other.id);

    await page.context().setOffline(false);
    // the applied one leaves the queue; the refused one stays, with the server's reason
    await expect(page.getByTestId('outbox-badge')).toContainText('1', { timeout: 40_000 });
    await page.getByTestId('outbox-badge').click();
    const list = page.getByRole('dialog', { name: 'Changes not synced' });
    await expect(list.getByTestId('outbox-attention')).toContainText(
      'Vault OFF-B was moved by someone else meanwhile: it is now on the stage. Nothing was changed.',
    );

    // on the server: OFF-A staged once (one stage event), OFF-B staged by the colleague only
    const staged = JSON.parse((await callApi(page, 'GET', '/api/stage/vaults')).body) as Record<
      string,
      unknown
    >;
    expect(Object.keys(staged).map(Number).sort()).toEqual([top.id, other.id].sort());
    const history = JSON.parse((await callApi(page, 'GET', `/api/vaults/${top.id}/history`)).body) as {
      events?: { type?: string; kind?: string }[];
    };
    expect(JSON.stringify(history).match(/vault\.staged/g)?.length ?? 0).toBe(1);

    // Discard asks first, then the queue is empty and the badge goes
    await list.getByRole('button', { name: 'Discard' }).click();
    await page
      .getByRole('alertdialog', { name: 'Discard this change?' })
      .getByRole('button', { name: 'Discard change' })
      .click();
    await expect(page.getByTestId('outbox-badge')).toHaveCount(0);
  });
});
