import { buildAccount, buildVault, buildWarehouse } from './factories';
import type { Page } from '@playwright/test';
import { e2eDatabase, expect, test } from './fixtures';

test.describe('Team and history', () => {
  test('a Manager invites a Floor member who joins by the link, moves a vault, cannot open the layout editor, and the Manager sees the move', async ({
    signedIn: page,
    account,
    browser,
  }) => {
    // two browsers and a dozen screens: a longer journey than most
    test.setTimeout(90_000);
    const db = e2eDatabase().db;
    const warehouse = await buildWarehouse(db, {
      companyId: account.companyId,
      name: 'Team Yard',
      rows: 2,
      cols: 2,
    });
    await buildVault(db, {
      companyId: account.companyId,
      fieldId: warehouse.field('A1').id,
      name: 'TM-1',
      customerName: 'TEAM CUSTOMER',
      orderName: 'T-ORD',
    });
    const email = `floor-${account.companyId}@example.test`;

    // the Manager invites a Floor member and copies the one-time link
    await page.goto('/team');
    const invite = page.getByRole('form', { name: 'Invite a member' });
    await invite.getByLabel('Email').fill(email);
    await invite.getByLabel('Role').selectOption({ label: 'Floor' });
    await invite.getByRole('button', { name: 'Create invitation link' }).click();
    const link = await page.getByTestId('one-time-link').inputValue();
    expect(link).toMatch(/\/join#[\w-]+$/);

    // the member opens it in their own browser, sets name and password, and is signed in
    const memberContext = await browser.newContext();
    const member = await memberContext.newPage();
    await member.goto(link);
    await expect(member.getByRole('heading', { name: `Join ${account.companyName}` })).toBeVisible();
    await member.getByLabel('Your name').fill('Fran Floor');
    await member.getByLabel('Password', { exact: true }).fill('orbit-lantern-pebble-42');
    await member.getByLabel('Repeat the password').fill('orbit-lantern-pebble-42');
    await member.getByRole('button', { name: 'Join and sign in' }).click();
    await expect(member).toHaveURL(/\/dashboard$/);
    // Floor adds no warehouses
    await expect(member.getByText('Only a Manager can add, change or delete warehouses.')).toBeVisible();

    // the member takes TM-1 off A1 onto the stage, then moves it into B2
    await member.goto(`/warehouse/${warehouse.slug}`);
    await member
      .getByRole('group', { name: 'Fields' })
      .getByRole('button', { name: 'A1', exact: true })
      .click();
    await member.getByRole('button', { name: 'Stage vault TM-1' }).click();
    await member.getByRole('button', { name: 'Yes, stage it' }).click();
    await member.goto('/stage');
    await member.getByRole('button', { name: 'Move vault TM-1' }).click();
    const dialog = member.getByRole('dialog', { name: 'Put vault TM-1 in a field' });
    await dialog.getByLabel('Warehouse').selectOption({ label: 'Team Yard' });
    await dialog.getByRole('button', { name: 'B2, 3 free slots' }).click();
    await dialog.getByRole('button', { name: 'Put in Team Yard B2, position 3' }).click();
    await expect(member.getByText('Vault TM-1 put in Team Yard B2, position 3')).toBeVisible();

    // the layout editor is a Manager's: the member is told so, and the server refuses the change too
    await member.goto(`/edit/${warehouse.slug}`);
    await expect(
      member.getByText("Only a Manager can change a warehouse's layout, dimensions, rows and racks."),
    ).toBeVisible();
    await expect(member.getByRole('heading', { name: 'Edit Warehouse Fields' })).toHaveCount(0);
    const refused = await member.request.patch(`/api/warehouse/${warehouse.id}/edit-dimensions`, {
      data: { field_capacity: 9, length: 10, width: 10 },
    });
    expect(refused.status()).toBe(403);
    await memberContext.close();

    // the Manager sees both positions on the vault's timeline
    await page.goto(`/warehouse/${warehouse.slug}`);
    await page
      .getByRole('group', { name: 'Fields' })
      .getByRole('button', { name: 'B2', exact: true })
      .click();
    await page.getByRole('link', { name: 'Edit vault TM-1' }).click();
    const history = page.getByRole('region', { name: 'History' });
    const entries = history.getByTestId('activity-entry');
    await expect(entries.first()).toContainText('Fran Floor moved');
    await expect(entries.first()).toContainText('from the stage to Team Yard B2 slot 3');
    await expect(entries.nth(1)).toContainText('Fran Floor staged');
    await expect(entries.nth(1)).toContainText('from Team Yard A1 slot 3 to the stage');

    // and on the Activity page, found by the vault's number
    await page.goto('/activity');
    await page.getByLabel('Vault number or customer').fill('TM-1');
    await page.getByRole('button', { name: 'Show' }).click();
    const changes = page.getByRole('list', { name: 'Changes' }).getByTestId('activity-entry');
    // the vault was added by the set-up (no member behind it), then staged and moved by the member
    await expect(changes).toHaveCount(3);
    await expect(changes.first()).toContainText('Fran Floor moved vault TM-1');
    await expect(changes.first()).toContainText('from the stage to Team Yard B2 slot 3');
    await expect(changes.nth(1)).toContainText('from Team Yard A1 slot 3 to the stage');
  });

  test('a Manager revokes an open invitation and a password link, and both links stop working at once', async ({
    signedIn: page,
    account,
    browser,
  }) => {
    // two browsers: under load this takes longer than a one-screen test
    test.setTimeout(90_000);
    const email = `revoked-${account.companyId}@example.test`;
    const floor = await buildAccount(e2eDatabase().db, { company: account.companyName, role: 'floor' });

    await page.goto('/team');
    const invite = page.getByRole('form', { name: 'Invite a member' });
    await invite.getByLabel('Email').fill(email);
    await invite.getByLabel('Role').selectOption({ label: 'Viewer' });
    await invite.getByRole('button', { name: 'Create invitation link' }).click();
    const inviteLink = await page.getByTestId('one-time-link').inputValue();
    // the open invitation is listed with its expiry, and revoked after a confirmation
    const openInvite = page.getByTestId('open-invite').filter({ hasText: email });
    await expect(openInvite).toContainText('as Viewer, until');
    await openInvite.getByRole('button', { name: `Revoke the invitation for ${email}` }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Revoke this link?' });
    await expect(confirm).toContainText(`The invitation for ${email} stops working at once.`);
    await confirm.getByRole('button', { name: 'Yes, revoke it' }).click();
    await expect(confirm).toHaveCount(0);
    await expect(openInvite).toHaveCount(0);
    await expect(page.getByTestId('one-time-link')).toHaveCount(0);

    // a password link of a member, likewise
    const row = page.getByTestId('member-row').filter({ hasText: floor.email });
    await row.getByRole('button', { name: 'Reset password' }).click();
    const resetLink = await row.getByTestId('one-time-link').inputValue();
    await expect(row).toContainText('Password link open until');
    await row.getByRole('button', { name: /^Revoke the password link for / }).click();
    await page
      .getByRole('alertdialog', { name: 'Revoke this link?' })
      .getByRole('button', { name: 'Yes, revoke it' })
      .click();
    await expect(row.getByText('Password link open until')).toHaveCount(0);
    await expect(row.getByTestId('one-time-link')).toHaveCount(0);

    // whoever opens either link is told it no longer works
    const stranger = await browser.newContext();
    for (const link of [inviteLink, resetLink]) {
      const other = await stranger.newPage();
      await other.goto(link);
      await expect(other.getByRole('heading', { name: 'This link does not work' })).toBeVisible();
      await expect(other.getByText('This link has expired or was already used.')).toBeVisible();
      await other.close();
    }
    await stranger.close();
  });
  test('inviting an address again renews its invitation, listed once; once the person joins it is no longer open', async ({
    signedIn: page,
    account,
    browser,
  }) => {
    // two browsers: under load this takes longer than a one-screen test
    test.setTimeout(90_000);
    const email = `renewed-${account.companyId}@example.test`;
    await page.goto('/team');
    const invite = page.getByRole('form', { name: 'Invite a member' });
    // an address has at most 254 characters: the input takes no more
    await expect(invite.getByLabel('Email')).toHaveAttribute('maxlength', '254');
    await invite.getByLabel('Email').fill(email);
    await invite.getByLabel('Role').selectOption({ label: 'Viewer' });
    await invite.getByRole('button', { name: 'Create invitation link' }).click();
    const openInvite = page.getByTestId('open-invite').filter({ hasText: email });
    await expect(openInvite).toContainText('as Viewer, until');

    // the same address again, now as Floor: one open invitation, with the new role and a new link
    await invite.getByLabel('Email').fill(email.toUpperCase());
    await invite.getByLabel('Role').selectOption({ label: 'Floor' });
    await invite.getByRole('button', { name: 'Create invitation link' }).click();
    await expect(
      page.getByText(`Invitation for ${email} renewed; the earlier link no longer works`),
    ).toBeVisible();
    await expect(openInvite).toHaveCount(1);
    await expect(openInvite).toContainText('as Floor, until');
    const link = await page.getByTestId('one-time-link').inputValue();

    // the person joins by the link in their own browser
    const memberContext = await browser.newContext();
    const member = await memberContext.newPage();
    await member.goto(link);
    await member.getByLabel('Your name').fill('Renata Renewed');
    await member.getByLabel('Password', { exact: true }).fill('orbit-lantern-pebble-42');
    await member.getByLabel('Repeat the password').fill('orbit-lantern-pebble-42');
    await member.getByRole('button', { name: 'Join and sign in' }).click();
    await expect(member).toHaveURL(/\/dashboard$/);
    await memberContext.close();

    // the Manager's page follows without a reload: a member now, no longer an open invitation
    await expect(page.getByTestId('member-row').filter({ hasText: email })).toContainText('Renata Renewed');
    await expect(openInvite).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId('member-row').filter({ hasText: email })).toHaveCount(1);
    await expect(openInvite).toHaveCount(0);

    // and the member's address is refused in words
    await invite.getByLabel('Email').fill(email);
    await invite.getByRole('button', { name: 'Create invitation link' }).click();
    await expect(page.getByText('This address already belongs to a member of your team.')).toBeVisible();
  });

  /** Every control of every member row can be brought inside the Members panel on screen; the page does not scroll sideways. */
  async function expectActionsInReach(page: Page) {
    const width = page.viewportSize()!.width;
    const panel = (await page.getByRole('region', { name: 'Members', exact: true }).boundingBox())!;
    const right = Math.min(width, panel.x + panel.width);
    const rows = page.getByTestId('member-row');
    await expect(rows).toHaveCount(2);
    for (const row of await rows.all()) {
      for (const control of await row.locator('button, select').all()) {
        await control.scrollIntoViewIfNeeded();
        const box = (await control.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(panel.x);
        expect(box.x + box.width).toBeLessThanOrEqual(right);
      }
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  }

  for (const [device, viewport] of [
    ['touch tablet', { width: 820, height: 1180 }],
    ['touch phone', { width: 390, height: 844 }],
  ] as const) {
    test.describe(`on a ${device}`, () => {
      test.use({ viewport, hasTouch: true, isMobile: true });

      test("every member's role and actions are in reach, however long the address", async ({
        signedIn: page,
        account,
      }) => {
        // an address of the longest length there is
        const domain = `${'d'.repeat(60)}.${'e'.repeat(60)}.${'f'.repeat(60)}.example.test`;
        const email = `${'m'.repeat(254 - domain.length - 1 - String(account.companyId).length)}${account.companyId}@${domain}`;
        await buildAccount(e2eDatabase().db, { company: account.companyName, role: 'floor', email });
        await page.goto('/team');
        const row = page.getByTestId('member-row').filter({ hasText: email.slice(0, 40) });
        await expect(row.getByRole('button', { name: 'Deactivate' })).toBeVisible();
        await expectActionsInReach(page);
        await expect(row.getByText(email)).toHaveAttribute('title', email);
      });
    });
  }

  test.describe('offline on a touch tablet', () => {
    // the Team page's code comes from the web build's service worker with the network off
    test.use({
      serviceWorkers: 'allow',
      viewport: { width: 820, height: 1180 },
      hasTouch: true,
      isMobile: true,
    });

    test('each section keeps its heading over what this device did not keep', async ({ signedIn: page }) => {
      await page.goto('/dashboard');
      await expect(page.getByRole('heading', { name: 'Warehouses' })).toBeVisible();
      await expect
        .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 20_000 })
        .toBe(true);
      await page.context().setOffline(true);
      await page.evaluate(() => {
        window.history.pushState({}, '', '/team');
        window.dispatchEvent(new PopStateEvent('popstate'));
      });
      const notKept = 'Not kept on this device for offline use.';
      await expect(page.getByText(notKept).first()).toBeVisible();
      // the team's lists are not kept for offline use: each says so under its own heading, none stands alone
      for (const section of ['E-mail', 'Members', 'API tokens', 'Webhooks'])
        await expect(
          page.getByRole('region', { name: section, exact: true }).getByText(notKept),
        ).toBeVisible();
      await expect(page.getByText(notKept)).toHaveCount(4);

      await page.context().setOffline(false);
      await expect(
        page.getByRole('region', { name: 'Members', exact: true }).getByTestId('member-row'),
      ).toHaveCount(1);
      await expect(page.getByText(notKept)).toHaveCount(0);
    });
  });
});
