import type { Page } from '@playwright/test';
import { fullShelfMessage, SHELF_NOT_FOUND, shelfSpaceMessage } from '@domain/schemas/rack.schema';
import { buildPallet, buildRack, buildWarehouse, removeRack, stored } from './factories';
import { callApi, e2eDatabase, expect, test } from './fixtures';

async function openRackView(page: Page, slug: string) {
  await page.goto(`/warehouse/${slug}`);
  await page.getByRole('button', { name: 'Rack View' }).click();
  await expect(page.getByText('Select a rack to view its info')).toBeVisible();
}

const floorPlan = (page: Page) => page.getByRole('group', { name: 'Warehouse floor plan' });
const shelf = (page: Page, position: number) =>
  page.getByRole('group', { name: `Shelf ${position}`, exact: true });

async function setup(companyId: number, name: string) {
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
  const rack = await buildRack(db, {
    companyId,
    warehouseId: w.id,
    name: 'Shelving',
    x: 2,
    y: 2,
    shelves: 2,
    capacity: 4,
  });
  await buildPallet(db, {
    companyId,
    shelfId: rack.shelfIds[0]!,
    customer: 'KNOX',
    slotIndex: 0,
    name: 'PIANO',
    palletNumber: 'P-1',
  });
  return { w, rack };
}

test.describe('Rack View', () => {
  test('pallets are added, edited and deleted on a rack', async ({ signedIn: page, account }) => {
    const { w, rack } = await setup(account.companyId, 'Pallet Depot');
    await openRackView(page, w.slug);
    await expect(floorPlan(page).getByText('VAULTS')).toBeVisible();
    await floorPlan(page).getByRole('button', { name: 'Rack Shelving' }).click();
    await expect(page.getByRole('heading', { name: 'Shelving' })).toBeVisible();
    await expect(shelf(page, 1).getByRole('button', { name: /^Pallet KNOX/ })).toContainText('KNOX - PIANO');
    await expect(shelf(page, 1).getByRole('button', { name: /^Pallet KNOX/ })).toContainText('P-1');

    await shelf(page, 1).getByRole('button', { name: 'Add pallet to shelf 1, slot 2' }).click();
    const add = page.getByRole('dialog', { name: 'Add Pallet' });
    await add.getByLabel('Customer Name').fill('smith movers');
    await expect(add.getByLabel('Customer Name')).toHaveValue('SMITH MOVERS');
    await add.getByLabel('Pallet Name / Short Description').fill('dining table');
    await expect(add.getByLabel('Pallet Name / Short Description')).toHaveValue('DINING TABLE');
    await add.getByLabel('Pallet Number').fill('42');
    await expect(add.getByLabel('Pallet Spaces')).toHaveValue('1');
    await add.getByLabel('Pallet Spaces').fill('2');
    await expect(add.getByRole('button', { name: 'Delete' })).toHaveCount(0);
    await add.getByRole('button', { name: 'Add Pallet', exact: true }).click();
    await expect(add).toBeHidden();
    await expect(page.getByText('Pallet DINING TABLE added.')).toBeVisible();
    const added = shelf(page, 1).getByRole('button', { name: /^Pallet SMITH MO\.\.\. - DINING TAB\.\.\./ });
    // customer cut at 8 and pallet name at 10, each with an ellipsis, the number below
    await expect(added).toContainText('SMITH MO... - DINING TAB...');
    await expect(added).toContainText('42');
    const row = await stored.palletNumbered(rack.shelfIds[0]!, '42');
    expect(row).toMatchObject({ slot_index: 1, shelf_spots: 2, weight: 0 });

    await added.click();
    const edit = page.getByRole('dialog', { name: 'Edit Pallet' });
    await expect(edit.getByLabel('Pallet Spaces')).toHaveValue('2');
    await expect(edit.getByLabel('Customer Name')).toHaveValue('SMITH MOVERS');
    await edit.getByLabel('Weight').fill('120.5');
    await edit.getByRole('button', { name: 'Save Pallet' }).click();
    await expect(edit).toBeHidden();
    await expect(page.getByText('Pallet DINING TABLE saved.')).toBeVisible();
    await expect
      .poll(async () => {
        const saved = await stored.pallet(row.id);
        return { weight: saved?.weight, shelf_spots: saved?.shelf_spots };
      })
      .toEqual({ weight: 120.5, shelf_spots: 2 });

    // the history names the pallet with a link that opens it, marked, in its rack (issue 27 point 5)
    await page.goto('/activity');
    await page.getByRole('link', { name: '42', exact: true }).first().click();
    await expect(page).toHaveURL(new RegExp(`view=rack&rack=${rack.id}&pallet=${row.id}$`));
    await expect(added).toBeVisible();

    await added.click();
    await edit.getByRole('button', { name: 'Delete' }).click();
    await edit.getByRole('button', { name: 'Yes, delete' }).click();
    await expect(edit).toBeHidden();
    await expect(page.getByText('Pallet DINING TABLE deleted.')).toBeVisible();
    await expect(added).toHaveCount(0);
    await expect(shelf(page, 1).getByRole('button', { name: /^Add pallet to shelf 1, slot/ })).toHaveCount(3);
  });

  test('a pallet moves to a shelf of another rack, and its history says from where to where', async ({
    signedIn: page,
    account,
  }) => {
    const { w, rack } = await setup(account.companyId, 'Moving Depot');
    const db = e2eDatabase().db;
    const knox = (await stored.palletNumbered(rack.shelfIds[0]!, 'P-1')).id;
    const overflow = await buildRack(db, {
      companyId: account.companyId,
      warehouseId: w.id,
      name: 'Overflow',
      x: 20,
      y: 2,
      shelves: 1,
      capacity: 2,
    });
    await buildPallet(db, {
      companyId: account.companyId,
      shelfId: overflow.shelfIds[0]!,
      customer: 'LEFT',
      slotIndex: 0,
    });
    const full = await buildRack(db, {
      companyId: account.companyId,
      warehouseId: w.id,
      name: 'Packed',
      x: 20,
      y: 12,
      shelves: 1,
      capacity: 1,
    });
    await buildPallet(db, {
      companyId: account.companyId,
      shelfId: full.shelfIds[0]!,
      customer: 'TIGHT',
      slotIndex: 0,
    });
    await openRackView(page, w.slug);

    await floorPlan(page).getByRole('button', { name: 'Rack Shelving' }).click();
    await shelf(page, 1)
      .getByRole('button', { name: /^Pallet KNOX/ })
      .click();
    await page.getByRole('dialog', { name: 'Edit Pallet' }).getByRole('button', { name: 'Move' }).click();
    const move = page.getByRole('dialog', { name: 'Move Pallet' });
    await expect(
      move.getByText('Move PIANO (1 space) from Rack Shelving, shelf 1, slot 1 to:'),
    ).toBeVisible();
    // its own rack first, where it stands not offered; a rack without room cannot be chosen
    await expect(move.getByLabel('Rack')).toHaveValue(String(rack.id));
    await expect(move.getByLabel('Slot')).toHaveValue('1');
    await expect(move.getByRole('option', { name: 'Packed (no room)' })).toBeDisabled();
    await move.getByLabel('Rack').selectOption({ label: 'Overflow' });
    await expect(move.getByLabel('Shelf')).toHaveValue(String(overflow.shelfIds[0]));
    await expect(move.getByLabel('Slot').getByRole('option')).toHaveText(['Slot 2']);
    await move.getByRole('button', { name: 'Move Pallet' }).click();
    await expect(move).toBeHidden();
    await expect(page.getByText('Pallet PIANO moved to Rack Overflow, shelf 1, slot 2.')).toBeVisible();
    // the destination rack is shown with the pallet on it
    await expect(page.getByRole('heading', { name: 'Overflow' })).toBeVisible();
    await expect(shelf(page, 1).getByRole('button', { name: /^Pallet KNOX/ })).toBeVisible();
    await expect
      .poll(async () => {
        const saved = await stored.pallet(knox);
        return { shelf_id: saved?.shelf_id, slot_index: saved?.slot_index };
      })
      .toEqual({ shelf_id: overflow.shelfIds[0], slot_index: 1 });

    await page.goto('/activity');
    const entry = page.getByTestId('activity-entry').filter({ hasText: 'moved pallet' }).first();
    await expect(entry.getByTestId('activity-places')).toHaveText(
      'from Rack Shelving shelf 1 slot 1 to Rack Overflow shelf 1 slot 2',
    );
  });

  test('a pallet someone else changed meanwhile is shown anew, and typed changes are not moved away unsaved', async ({
    signedIn: page,
    account,
  }) => {
    const { w, rack } = await setup(account.companyId, 'Busy Depot');
    const knox = (await stored.palletNumbered(rack.shelfIds[0]!, 'P-1')).id;
    await openRackView(page, w.slug);
    await floorPlan(page).getByRole('button', { name: 'Rack Shelving' }).click();
    await shelf(page, 1)
      .getByRole('button', { name: /^Pallet KNOX/ })
      .click();
    const edit = page.getByRole('dialog', { name: 'Edit Pallet' });
    await edit.getByLabel('Notes').fill('Handle with care');
    await edit.getByRole('button', { name: 'Move' }).click();
    await expect(
      edit.getByText('Save your changes first, or cancel them, before moving the pallet.'),
    ).toBeVisible();

    // a colleague weighs the pallet meanwhile
    const weighed = await callApi(page, 'PUT', `/api/racks/pallets/${knox}/edit`, {
      customer_name: 'KNOX',
      name: 'PIANO',
      pallet_number: 'P-1',
      weight: 77,
    });
    expect(weighed.status, weighed.body).toBe(200);
    await edit.getByRole('button', { name: 'Save Pallet' }).click();
    await expect(edit.getByText('This pallet was changed by someone else')).toBeVisible();
    await edit.getByRole('button', { name: 'Show it as it is now' }).click();
    await expect(edit.getByLabel('Weight')).toHaveValue('77');
    await expect(edit.getByLabel('Notes')).toHaveValue('');
    await edit.getByLabel('Notes').fill('Handle with care');
    await edit.getByRole('button', { name: 'Save Pallet' }).click();
    await expect(edit).toBeHidden();
    await expect.poll(async () => (await stored.pallet(knox))?.weight).toBe(77);
  });

  test('the pallet form shows each of its messages', async ({ signedIn: page, account }) => {
    const { w, rack } = await setup(account.companyId, 'Message Depot');
    const db = e2eDatabase().db;
    const tiny = await buildRack(db, {
      companyId: account.companyId,
      warehouseId: w.id,
      name: 'Tiny',
      x: 20,
      y: 2,
      shelves: 1,
      capacity: 1,
    });
    await buildPallet(db, {
      companyId: account.companyId,
      shelfId: tiny.shelfIds[0]!,
      customer: 'ZANG',
      slotIndex: 0,
    });
    await openRackView(page, w.slug);

    // a full shelf looks full, and its '+ Add Pallet' is disabled with the spec's message
    await floorPlan(page).getByRole('button', { name: 'Rack Tiny' }).click();
    const fullShelf = shelf(page, 1);
    await expect(fullShelf).toHaveAttribute('data-full', 'true');
    const addToFull = fullShelf.getByRole('button', { name: 'Add pallet to shelf 1', exact: true });
    await expect(addToFull).toBeDisabled();
    await expect(addToFull).toHaveAccessibleDescription(fullShelfMessage(1));
    await expect(
      fullShelf.getByText('This shelf already has the maximum number of pallets (1).'),
    ).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);

    await floorPlan(page).getByRole('button', { name: 'Rack Shelving' }).click();
    await shelf(page, 1).getByRole('button', { name: 'Add pallet to shelf 1, slot 2' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Pallet' });
    await dialog.getByRole('button', { name: 'Add Pallet', exact: true }).click();
    await expect(dialog.getByRole('alert')).toHaveText('Customer name is required.');

    await dialog.getByLabel('Customer Name').fill('late arrival');
    await dialog.getByLabel('Pallet Spaces').fill('');
    await dialog.getByRole('button', { name: 'Add Pallet', exact: true }).click();
    await expect(dialog.getByRole('alert')).toHaveText('Pallet spaces is required.');

    // one slot of four is taken: four spaces do not fit
    await dialog.getByLabel('Pallet Spaces').fill('4');
    await dialog.getByRole('button', { name: 'Add Pallet', exact: true }).click();
    await expect(dialog.getByRole('alert')).toHaveText(shelfSpaceMessage(4, 3));
    await expect(
      dialog.getByText(
        'Shelf does not have enough space for this. Please increase Shelf capacity. Shelf capacity is currently 4; 3 spaces are free.',
      ),
    ).toBeVisible();

    // the rack disappears while the form is open
    await removeRack(rack.id);
    await dialog.getByLabel('Pallet Spaces').fill('1');
    await dialog.getByRole('button', { name: 'Add Pallet', exact: true }).click();
    await expect(dialog.getByRole('alert')).toHaveText(SHELF_NOT_FOUND);
    await expect(dialog.getByText('Shelf not found. Please select a valid shelf.')).toBeVisible();
  });

  test('racks are coloured by fill, and a search greys out what does not match', async ({
    signedIn: page,
    account,
  }) => {
    const { w, rack } = await setup(account.companyId, 'Search Depot');
    const db = e2eDatabase().db;
    const other = await buildRack(db, {
      companyId: account.companyId,
      warehouseId: w.id,
      name: 'Other Rack',
      x: 20,
      y: 2,
      shelves: 1,
      capacity: 1,
    });
    await buildPallet(db, {
      companyId: account.companyId,
      shelfId: other.shelfIds[0]!,
      customer: 'ZANG',
      slotIndex: 0,
    });
    await buildPallet(db, {
      companyId: account.companyId,
      shelfId: rack.shelfIds[0]!,
      customer: 'ZANG',
      slotIndex: 1,
    });
    await openRackView(page, w.slug);
    const shelving = floorPlan(page).getByRole('button', { name: 'Rack Shelving' });
    const otherRack = floorPlan(page).getByRole('button', { name: 'Rack Other Rack' });
    // 2 of 8 slots used is under half; 1 of 1 is full
    await expect(shelving).toHaveClass(/bg-success/);
    await expect(otherRack).toHaveClass(/bg-full/);
    await expect(otherRack).toHaveText('Other Rack');

    await shelving.click();
    await page.getByRole('combobox', { name: 'Search' }).fill('kno');
    await page.getByRole('option', { name: /^KNOX/ }).click();
    await expect(otherRack).toHaveClass(/opacity-40/);
    await expect(shelving).not.toHaveClass(/opacity-40/);
    await expect(shelf(page, 1).getByRole('button', { name: /^Pallet KNOX/ })).not.toHaveClass(/opacity-40/);
    await expect(shelf(page, 1).getByRole('button', { name: /^Pallet ZANG/ })).toHaveClass(/opacity-40/);

    await page.getByRole('button', { name: 'Clear search' }).click();
    await expect(otherRack).not.toHaveClass(/opacity-40/);
    await expect(shelf(page, 1).getByRole('button', { name: /^Pallet ZANG/ })).not.toHaveClass(/opacity-40/);
  });
});
