import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import { jpegImage, pngImage } from '../server/test/test-images';
import { buildWarehouse } from './factories';
import { callApi, e2eDatabase, expect, test } from './fixtures';

const run = promisify(execFile);

// The crew takes inventories on a portrait tablet, by touch.
test.use({ viewport: { width: 820, height: 1180 }, hasTouch: true });

test('a crew takes a condition inventory with two photos and a signature; the PDF and the portal show it', async ({
  signedIn: page,
  account,
  browser,
}) => {
  const db = e2eDatabase().db;
  await buildWarehouse(db, {
    companyId: account.companyId,
    name: 'Inventory Hall',
    rows: 1,
    cols: 2,
  });
  // the unit comes in through receiving, and its inventory is taken from the shipment's result
  await page.goto('/receive');
  await page.getByLabel('Customer Name').fill('IVY INVENTORY');
  await page.getByLabel('Order Number').fill('IV-ORD');
  const vaults = page.getByRole('group', { name: 'Vaults' });
  await vaults.getByLabel('Numbers (typed or pasted)').fill('IV-1');
  await vaults.getByLabel('How many').fill('1');
  await page.getByRole('button', { name: 'Propose slots' }).tap();
  await expect(page.getByTestId('proposed-slot')).toHaveCount(1);
  await page.getByRole('button', { name: 'Store 1 vaults' }).tap();
  const received = page.getByTestId('received-vault');
  await expect(received).toContainText('IV-1: Inventory Hall');
  await received.getByRole('link', { name: 'Inventory' }).tap();
  await expect(page.getByRole('heading', { name: 'Inventory of unit IV-1' })).toBeVisible();
  await expect(page.getByText('No items yet')).toBeVisible();

  const form = page.getByRole('form', { name: 'Add an item' });
  await form.getByLabel('Description').fill('Oak dresser');
  await form.getByLabel('Room').fill('Bedroom');
  await form.getByRole('button', { name: /^SC/ }).tap();
  await form.getByRole('button', { name: 'Add item' }).tap();
  await expect(page.getByText('Item 1 added')).toBeVisible();
  await expect(form.getByLabel('Sticker no.')).toHaveValue('2');
  await form.getByLabel('Description').fill('Glass cabinet');
  await form.getByRole('button', { name: /^BR/ }).tap();
  await form.getByRole('switch', { name: 'High value' }).tap();
  await form.getByRole('button', { name: 'Add item' }).tap();
  await expect(page.getByText('Item 2 added')).toBeVisible();
  // an item taken by mistake is removed after a question
  await form.getByLabel('Description').fill('Lamp of the neighbour');
  await form.getByRole('button', { name: 'Add item' }).tap();
  await expect(page.getByText('Item 3 added')).toBeVisible();
  await page.getByRole('button', { name: 'Remove item 3' }).tap();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Remove item' }).tap();
  await expect(page.getByText('Item 3 removed')).toBeVisible();
  const items = page.getByTestId('inventory-item');
  await expect(items).toHaveCount(2);
  await expect(items.nth(1)).toContainText('High value');

  // the fake camera: files handed to the capture input, shrunk by the page before upload
  await page.getByLabel('Photo of').selectOption({ label: 'Item 1: Oak dresser' });
  await page
    .getByTestId('photo-input')
    .setInputFiles({ name: 'camera.jpg', mimeType: 'image/jpeg', buffer: await jpegImage(2400) });
  await expect(page.getByText('Photo added')).toBeVisible();
  await page.getByLabel('Photo of').selectOption({ label: 'The whole load' });
  await page
    .getByTestId('photo-input')
    .setInputFiles({ name: 'load.png', mimeType: 'image/png', buffer: pngImage(640, 480) });
  await expect(page.getByTestId('inventory-photo')).toHaveCount(2);

  const pickup = page.getByTestId('signature-pickup');
  await pickup.getByLabel("Signer's name").fill('Ivy Inventory');
  const pad = pickup.getByTestId('signature-pad');
  await pad.scrollIntoViewIfNeeded();
  const box = (await pad.boundingBox())!;
  await page.mouse.move(box.x + 30, box.y + box.height * 0.7);
  await page.mouse.down();
  for (let step = 1; step <= 12; step++)
    await page.mouse.move(box.x + 30 + step * 25, box.y + box.height * (0.7 - 0.4 * Math.sin(step / 2)));
  await page.mouse.up();
  await pickup.getByRole('button', { name: 'Save signature' }).tap();
  await expect(pickup.getByText(/Signed by Ivy Inventory/)).toBeVisible();
  await expect(pickup.getByRole('img', { name: 'Signature of Ivy Inventory' })).toBeVisible();
  // signed: the list is what the customer signed for
  await expect(form).toHaveCount(0);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download PDF' }).tap();
  const file = await (await download).path();
  const text = (await run('pdftotext', ['-layout', file, '-'])).stdout;
  for (const words of [
    'Condition inventory - unit IV-1',
    'Oak dresser',
    'Glass cabinet',
    'SC Scratched',
    'Ivy Inventory',
  ])
    expect(text).toContain(words);
  const images = (await run('pdfimages', ['-list', file])).stdout
    .trim()
    .split('\n')
    .slice(2)
    .filter((line) => line.trim().split(/\s+/)[2] === 'image');
  // the camera photo shrunk to 1600 px wide, the PNG as it was, and the signature
  expect(images).toHaveLength(3);
  expect(images.some((line) => line.trim().split(/\s+/)[3] === '1600')).toBe(true);
  expect(fs.statSync(file).size).toBeGreaterThan(1000);

  // the customer's portal, on a phone
  const added = await callApi(page, 'POST', '/api/customers', {
    name: 'Ivy Inventory',
    email: 'ivy@example.test',
  });
  expect(added.status).toBe(201);
  const link = await callApi(
    page,
    'POST',
    `/api/customers/${(JSON.parse(added.body) as { id: number }).id}/portal-link`,
  );
  const url = (JSON.parse(link.body) as { url: string }).url;
  const phone = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  try {
    const customer = await phone.newPage();
    await customer.goto(url);
    const inventory = customer.getByTestId('portal-inventory');
    await expect(inventory).toContainText('Unit IV-1');
    await expect(inventory).toContainText('Oak dresser');
    await expect(inventory).toContainText('SC Scratched');
    await expect(inventory).toContainText('Signed at pickup by Ivy Inventory');
    const photos = inventory.getByTestId('portal-inventory-photo');
    await expect(photos).toHaveCount(2);
    await expect
      .poll(() =>
        photos.evaluateAll((imgs) => imgs.every((img) => (img as HTMLImageElement).naturalWidth > 0)),
      )
      .toBe(true);
  } finally {
    await phone.close();
  }
});
