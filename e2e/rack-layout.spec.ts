import type { Locator, Page } from '@playwright/test';
import { buildPallet, buildRack, buildWarehouse, stored } from './factories';
import { e2eDatabase, expect, test } from './fixtures';
import { expectAlertDialog } from './alert-dialog';

// a 60 x 40 ft floor is drawn at 10 px per foot on a laptop
const PX_PER_FT = 10;

const plan = (page: Page) => page.getByRole('group', { name: 'Rack layout plan' });

async function rackRow(id: number) {
  const row = await stored.rack(id);
  return row ? { x: row.x, y: row.y } : null;
}

/** Drags `item` so that its top-left corner lands on (x, y) feet of the plan; `beforeDrop` runs while it is held. */
async function dragTo(page: Page, item: Locator, x: number, y: number, beforeDrop?: () => Promise<void>) {
  await plan(page).scrollIntoViewIfNeeded();
  const box = (await item.boundingBox())!;
  const floor = (await plan(page).boundingBox())!;
  // the plan's 2px border sits between its box and the floor's origin
  const dx = floor.x + 2 + x * PX_PER_FT - box.x;
  const dy = floor.y + 2 + y * PX_PER_FT - box.y;
  const start = { x: box.x + Math.min(6, box.width / 2), y: box.y + Math.min(6, box.height / 2) };
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move(start.x + dx / 2, start.y + dy / 2, { steps: 6 });
  await page.mouse.move(start.x + dx, start.y + dy, { steps: 6 });
  await beforeDrop?.();
  await page.mouse.up();
}

async function newLayout(companyId: number, name: string) {
  const db = e2eDatabase().db;
  const w = await buildWarehouse(db, {
    companyId,
    name,
    rows: 2,
    cols: 2,
    width: 60,
    length: 40,
    gridX: 40,
    gridY: 25,
  });
  const anchor = await buildRack(db, {
    companyId,
    warehouseId: w.id,
    name: 'Anchor',
    x: 10,
    y: 10,
    shelves: 1,
    capacity: 2,
  });
  const mover = await buildRack(db, {
    companyId,
    warehouseId: w.id,
    name: 'Mover',
    x: 30,
    y: 20,
    shelves: 1,
    capacity: 2,
  });
  return { w, anchor, mover };
}

test.describe('Edit Warehouse Layout', () => {
  test('a rack is created by dragging the template onto the plan', async ({ signedIn: page, account }) => {
    const { w } = await newLayout(account.companyId, 'Template Depot');
    await page.goto(`/edit/${w.slug}`);
    await expect(page.getByRole('heading', { name: 'Edit Warehouse Layout' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Add a Rack' })).toBeVisible();
    await expect(plan(page).getByText('VAULTS')).toBeVisible();

    await page.getByLabel('Rack Name').fill('North');
    await page.getByLabel('Shelves').fill('3');
    await page.getByLabel('Shelf Capacity').fill('5');
    await page.getByLabel('Orientation').selectOption('vertical');
    const template = page.getByRole('button', { name: 'New rack North: drag onto the floor plan' });
    const created = page.waitForResponse((r) => r.url().endsWith(`/api/racks/warehouse/${w.id}/add`));
    await dragTo(page, template, 2, 2, async () => {
      await expect(plan(page).getByTestId('drop-preview')).toHaveAttribute('data-valid', 'true');
    });
    expect((await created).status()).toBe(201);
    await expect(page.getByText('North added.')).toBeVisible();
    await expect(plan(page).getByRole('button', { name: 'Rack North' })).toBeVisible();
    const rack = await stored.rackNamed(w.id, 'North');
    expect(rack).toMatchObject({ x: 2, y: 2, orientation: 'vertical', capacity: 5 });
    const shelves = await stored.shelfCapacities(rack.id);
    expect(shelves).toEqual([{ capacity: 5 }, { capacity: 5 }, { capacity: 5 }]);

    // a template that cannot be a rack is not draggable and says why
    await page.getByLabel('Shelves').fill('0');
    await expect(page.getByText('Shelves must be at least 1.')).toBeVisible();
    await page.getByLabel('Shelves').fill('1');
    await page.getByLabel('Shelf Capacity').fill('');
    await expect(page.getByText('Shelf capacity is required.')).toBeVisible();
  });

  test('a moved rack snaps to a neighbour corner, and an overlapping drop is refused', async ({
    signedIn: page,
    account,
  }) => {
    const { w, mover } = await newLayout(account.companyId, 'Snap Depot');
    await page.goto(`/edit/${w.slug}`);
    const moverButton = plan(page).getByRole('button', { name: 'Rack Mover' });
    await expect(moverButton).toBeVisible();

    // dropped with its corner 0.3 ft off Anchor's top-right corner (22, 10): it snaps onto it
    const saved = page.waitForResponse(
      (r) => r.url().endsWith(`/rack/${mover.id}`) && r.request().method() === 'PUT',
    );
    await dragTo(page, moverButton, 22.3, 10.3);
    expect((await saved).request().postDataJSON()).toMatchObject({ position: { x: 22, y: 10 } });
    await expect.poll(() => rackRow(mover.id)).toEqual({ x: 22, y: 10 });

    // on top of Anchor: the preview turns red and the drop is refused
    await dragTo(page, moverButton, 12, 11, async () => {
      // the throttled preview still ends where the pointer stopped
      await expect(plan(page).getByTestId('drop-preview')).toHaveAttribute('data-valid', 'false');
    });
    await expect(page.getByText('Invalid rack position: it overlaps Rack Anchor.')).toBeVisible();
    expect(await rackRow(mover.id)).toEqual({ x: 22, y: 10 });
  });

  test('a failed save puts the rack back and says so', async ({ signedIn: page, account }) => {
    const { w, mover } = await newLayout(account.companyId, 'Failing Depot');
    await page.goto(`/edit/${w.slug}`);
    const moverButton = plan(page).getByRole('button', { name: 'Rack Mover' });
    await expect(moverButton).toBeVisible();
    await plan(page).scrollIntoViewIfNeeded();
    const before = (await moverButton.boundingBox())!;
    await page.route(`**/api/racks/${w.id}/rack/${mover.id}`, (route) =>
      route.fulfill({
        status: 409,
        contentType: 'application/json',
        body: JSON.stringify({ errors: ['This rack was changed by someone else'] }),
      }),
    );
    await dragTo(page, moverButton, 2, 30);
    await expect(
      page.getByText('Could not move Mover; it was put back. This rack was changed by someone else'),
    ).toBeVisible();
    await expect.poll(async () => (await moverButton.boundingBox())!.x).toBeCloseTo(before.x, 0);
    expect(await rackRow(mover.id)).toEqual({ x: 30, y: 20 });
  });

  test('Rack Info shows the rack; deleting one with pallets warns and needs a second confirmation', async ({
    signedIn: page,
    account,
  }) => {
    const { w, anchor } = await newLayout(account.companyId, 'Info Depot');
    await buildPallet(e2eDatabase().db, {
      companyId: account.companyId,
      shelfId: anchor.shelfIds[0]!,
      customer: 'KNOX',
      slotIndex: 0,
    });
    await page.goto(`/edit/${w.slug}`);
    await plan(page).getByRole('button', { name: 'Rack Anchor' }).click();
    const info = page.getByRole('dialog', { name: 'Rack Info' });
    await expect(info).toContainText('Anchor');
    await expect(info).toContainText('Horizontal');
    await expect(info).toContainText('12 ft');
    await expect(info).toContainText('2 per shelf');

    // the server refusing shows the alert and keeps the rack
    await page.route(`**/api/racks/${w.id}/rack/${anchor.id}/delete`, (route) =>
      route.fulfill({ status: 500, body: 'down' }),
    );
    await info.getByRole('button', { name: 'Delete' }).click();
    // the warning is a confirmation of its own, above Rack Info
    const confirm = page.getByRole('alertdialog', { name: 'Delete Rack' });
    await expectAlertDialog(
      confirm,
      'Delete Rack',
      'This rack holds 1 pallet. Deleting the rack also deletes it. This cannot be undone.',
    );
    await confirm.getByRole('button', { name: 'Delete rack and pallets' }).click();
    const failed = page.getByRole('alertdialog', { name: 'Rack Not Deleted' });
    await expectAlertDialog(failed, 'Rack Not Deleted', 'Failed to delete rack.');
    await failed.getByRole('button', { name: 'OK' }).click();
    await expect(failed).toBeHidden();
    await expect(info).toBeVisible();
    expect(await rackRow(anchor.id)).not.toBeNull();

    await page.unroute(`**/api/racks/${w.id}/rack/${anchor.id}/delete`);
    await info.getByRole('button', { name: 'Delete' }).click();
    await confirm.getByRole('button', { name: 'Delete rack and pallets' }).click();
    await expect(confirm).toBeHidden();
    await expect(info).toBeHidden();
    await expect(page.getByText('Anchor deleted.')).toBeVisible();
    await expect(plan(page).getByRole('button', { name: 'Rack Anchor' })).toHaveCount(0);
    expect(await rackRow(anchor.id)).toBeNull();
  });
});
