import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { FILE_TOO_LARGE, MAX_UPLOAD_BYTES } from '@domain/rules/capacity';
import type { CustomerDto, PortalLinkDto } from '@domain/schemas/customer.schema';
import type { InventoryCodeDto, InventoryDto, PortalInventoryDto } from '@domain/schemas/inventory.schema';
import { buildAccount, buildVault, buildWarehouse } from '../../factories';
import { multipartBody } from '../../test/multipart-body';
import { type SignedIn, signIn, testEngines } from '../../test/test-app';
import { jpegImage, pngImage } from '../../test/test-images';
import { useTestApp } from '../../test/use-test-app';
import {
  ITEM_NOT_FOUND,
  NOT_A_PHOTO,
  NOT_A_SIGNATURE,
  SIGNED_AT_PICKUP,
  UNIT_NOT_FOUND,
  alreadySigned,
  codeInUseMessage,
  duplicateSticker,
} from './inventory.service';

const run = promisify(execFile);
const errorsOf = (res: { json(): unknown }) => (res.json() as { errors: string[] }).errors;

/** What poppler reads out of a PDF: its text (pdftotext) and its images (pdfimages -list). */
async function readPdf(pdf: Buffer): Promise<{ text: string; images: string[][] }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inventory-pdf-'));
  try {
    const file = path.join(dir, 'inventory.pdf');
    fs.writeFileSync(file, pdf);
    const text = (await run('pdftotext', ['-layout', file, '-'])).stdout;
    const list = (await run('pdfimages', ['-list', file])).stdout;
    // skip the two heading lines; each row: page num type width height color ...
    const images = list
      .trim()
      .split('\n')
      .slice(2)
      .map((line) => line.trim().split(/\s+/));
    return { text, images };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe.each(testEngines())('condition inventories on %s', (engine) => {
  const { ctx, user, other } = useTestApp(engine);
  let floor: SignedIn;
  let viewer: SignedIn;
  let vaultId: number;
  let jpeg: Buffer;

  beforeAll(async () => {
    const db = ctx.database.db;
    floor = await signIn(ctx, await buildAccount(db, { company: user.companyName, role: 'floor' }));
    viewer = await signIn(ctx, await buildAccount(db, { company: user.companyName, role: 'viewer' }));
    const warehouse = await buildWarehouse(db, {
      companyId: user.companyId,
      name: 'Inventory Depot',
      rows: 2,
      cols: 2,
    });
    vaultId = (
      await buildVault(db, {
        companyId: user.companyId,
        fieldId: warehouse.field('A1').id,
        customerName: 'INVENTORY HOLMES',
        orderName: 'IH-1',
        name: 'IH-V1',
      })
    ).id;
    jpeg = await jpegImage(320);
  });

  const inventoryUrl = (id = vaultId) => `/api/vaults/${id}/inventory`;
  const addItem = (who: SignedIn, payload: object, id = vaultId) =>
    who.request({ method: 'POST', url: `${inventoryUrl(id)}/items`, payload });
  const upload = (who: SignedIn, url: string, fields: Record<string, string | number>, files: object) =>
    who.request({ method: 'POST', url, ...multipartBody(fields, files as never) });
  const photo = (content: Buffer, fileName = 'photo.jpg', contentType = 'image/jpeg') => ({
    photo: { fileName, contentType, content },
  });

  it('keeps numbered items with condition codes, refuses a sticker number twice, and ticks items off', async () => {
    const empty = (await viewer.request({ method: 'GET', url: inventoryUrl() })).json() as InventoryDto;
    expect(empty).toMatchObject({ id: null, items: [], pickup: null, vault: { number: 'IH-V1' } });
    expect(empty.codes.map((c) => c.code)).toEqual(['BR', 'SC', 'D', 'MI', 'W']);

    const first = await addItem(floor, {
      sticker: '10',
      description: 'Oak dresser',
      room: 'Bedroom',
      codes: 'sc, d',
      high_value: false,
    });
    expect(first.statusCode).toBe(201);
    const second = await addItem(floor, {
      sticker: '2',
      description: 'Grandfather clock',
      codes: ['BR'],
      high_value: true,
    });
    expect(second.statusCode).toBe(201);
    const inventory = second.json() as InventoryDto;
    // stickers in the order movers read them: 2 before 10
    expect(inventory.items.map((i) => [i.sticker, i.description, i.room, i.codes, i.high_value])).toEqual([
      ['2', 'Grandfather clock', null, ['BR'], true],
      ['10', 'Oak dresser', 'Bedroom', ['SC', 'D'], false],
    ]);
    expect(inventory.created_by).toBeTruthy();

    const twice = await addItem(floor, { sticker: '10', description: 'Another chair' });
    expect(twice.statusCode).toBe(409);
    expect(errorsOf(twice)).toEqual([duplicateSticker('10')]);
    const unknown = await addItem(floor, { sticker: '11', description: 'Lamp', codes: 'BR ZZ' });
    expect(unknown.statusCode).toBe(400);
    expect(errorsOf(unknown).join(' ')).toMatch(/Unknown condition code: ZZ/);
    const blank = await addItem(floor, { sticker: ' ', description: '' });
    expect(blank.statusCode).toBe(400);
    expect(errorsOf(blank)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/Sticker number is required/),
        expect.stringMatching(/Description is required/),
      ]),
    );
    const byViewer = await addItem(viewer, { sticker: '12', description: 'Mirror' });
    expect(byViewer.statusCode).toBe(403);

    const clock = inventory.items[0]!;
    const renumbered = await floor.request({
      method: 'PATCH',
      url: `/api/inventory-items/${clock.id}`,
      payload: { sticker: '10' },
    });
    expect(renumbered.statusCode).toBe(409);
    const ticked = await floor.request({
      method: 'PATCH',
      url: `/api/inventory-items/${clock.id}`,
      payload: { delivered: true, codes: ['BR', 'W'] },
    });
    expect(ticked.statusCode).toBe(200);
    expect(ticked.json()).toMatchObject({ item: { codes: ['BR', 'W'], delivered_by: expect.any(String) } });
    expect(Date.parse((ticked.json() as { item: { delivered_at: string } }).item.delivered_at)).not.toBeNaN();

    const extra = (await addItem(floor, { sticker: '99', description: 'Spare box' })).json() as InventoryDto;
    const spare = extra.items.find((i) => i.sticker === '99')!;
    expect(
      (await floor.request({ method: 'DELETE', url: `/api/inventory-items/${spare.id}` })).statusCode,
    ).toBe(200);
    const gone = await floor.request({ method: 'DELETE', url: `/api/inventory-items/${spare.id}` });
    expect(gone.statusCode).toBe(404);
    expect(errorsOf(gone)).toEqual([ITEM_NOT_FOUND]);
    const after = (await viewer.request({ method: 'GET', url: inventoryUrl() })).json() as InventoryDto;
    expect(after.items.map((i) => i.sticker)).toEqual(['2', '10']);
  });

  it("lets a Manager add the company's own codes, which only that company's items may carry", async () => {
    const byFloor = await floor.request({
      method: 'POST',
      url: '/api/inventory-codes',
      payload: { code: 'CH', meaning: 'Chipped' },
    });
    expect(byFloor.statusCode).toBe(403);
    const added = await user.request({
      method: 'POST',
      url: '/api/inventory-codes',
      payload: { code: 'ch', meaning: 'Chipped' },
    });
    expect(added.statusCode).toBe(201);
    const codes = added.json() as InventoryCodeDto[];
    const chipped = codes.find((c) => c.code === 'CH')!;
    expect(chipped).toMatchObject({ meaning: 'Chipped', standard: false });
    const again = await user.request({
      method: 'POST',
      url: '/api/inventory-codes',
      payload: { code: 'CH', meaning: 'Cracked' },
    });
    expect(again.statusCode).toBe(409);
    const standard = await user.request({
      method: 'POST',
      url: '/api/inventory-codes',
      payload: { code: 'BR', meaning: 'Bent' },
    });
    expect(standard.statusCode).toBe(400);

    // the other company neither sees nor may use it
    const theirs = (
      await other.request({ method: 'GET', url: '/api/inventory-codes' })
    ).json() as InventoryCodeDto[];
    expect(theirs.map((c) => c.code)).not.toContain('CH');
    const otherWarehouse = await buildWarehouse(ctx.database.db, {
      companyId: other.companyId,
      rows: 1,
      cols: 1,
    });
    const otherVault = await buildVault(ctx.database.db, {
      companyId: other.companyId,
      fieldId: otherWarehouse.field('A1').id,
    });
    const refused = await addItem(other, { sticker: '1', description: 'Vase', codes: ['CH'] }, otherVault.id);
    expect(refused.statusCode).toBe(400);

    const used = await addItem(floor, { sticker: '3', description: 'China cabinet', codes: ['CH', 'SC'] });
    expect(used.statusCode).toBe(201);
    const inUse = await user.request({ method: 'DELETE', url: `/api/inventory-codes/${chipped.id}` });
    expect(inUse.statusCode).toBe(409);
    expect(errorsOf(inUse)).toEqual([codeInUseMessage('CH')]);
  });

  it("refuses another company's unit, item, photo and code as if they did not exist", async () => {
    const inventory = (await viewer.request({ method: 'GET', url: inventoryUrl() })).json() as InventoryDto;
    const item = inventory.items[0]!;
    for (const res of [
      await other.request({ method: 'GET', url: inventoryUrl() }),
      await other.request({ method: 'GET', url: `${inventoryUrl()}.pdf` }),
      await addItem(other, { sticker: '50', description: 'Taken over' }),
      await upload(other, `${inventoryUrl()}/photos`, {}, photo(jpeg)),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(errorsOf(res)).toEqual([UNIT_NOT_FOUND]);
    }
    const patch = await other.request({
      method: 'PATCH',
      url: `/api/inventory-items/${item.id}`,
      payload: { delivered: true },
    });
    expect(patch.statusCode).toBe(404);
    const codes = (
      await user.request({ method: 'GET', url: '/api/inventory-codes' })
    ).json() as InventoryCodeDto[];
    const own = codes.find((c) => !c.standard)!;
    expect(
      (await other.request({ method: 'DELETE', url: `/api/inventory-codes/${own.id}` })).statusCode,
    ).toBe(404);
    const unchanged = (await viewer.request({ method: 'GET', url: inventoryUrl() })).json() as InventoryDto;
    expect(unchanged.items).toEqual(inventory.items);
  });

  it('stores photos and signatures as attachments of the unit, refusing other files and files over the limit', async () => {
    const before = (await viewer.request({ method: 'GET', url: inventoryUrl() })).json() as InventoryDto;
    const dresser = before.items.find((i) => i.sticker === '10')!;
    const whole = await upload(floor, `${inventoryUrl()}/photos`, {}, photo(jpeg, 'load.jpg'));
    expect(whole.statusCode).toBe(201);
    const ofItem = await upload(
      floor,
      `${inventoryUrl()}/photos`,
      { item_id: dresser.id },
      photo(pngImage(240, 160), 'dresser.png', 'image/png'),
    );
    expect(ofItem.statusCode).toBe(201);
    const photos = (ofItem.json() as InventoryDto).photos;
    expect(photos.map((p) => [p.file_name, p.item_id])).toEqual([
      ['load.jpg', null],
      ['dresser.png', dresser.id],
    ]);
    // the photo is read like any attachment of the company, by every member
    const shown = await viewer.request({ method: 'GET', url: `/api/attachments/${photos[0]!.id}` });
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['content-type']).toBe('image/jpeg');
    expect(shown.rawPayload.equals(jpeg)).toBe(true);
    // ...but not listed, nor removable, among the unit's own attachments
    const vault = (await viewer.request({ method: 'GET', url: `/api/vaults/${vaultId}` })).json() as {
      attachments?: { id: number }[];
    };
    expect((vault.attachments ?? []).map((a) => a.id)).not.toContain(photos[0]!.id);
    expect(
      (await floor.request({ method: 'DELETE', url: `/api/attachments/${photos[0]!.id}` })).statusCode,
    ).toBe(404);

    const text = await upload(
      floor,
      `${inventoryUrl()}/photos`,
      {},
      photo(Buffer.from('not an image'), 'note.jpg'),
    );
    expect(text.statusCode).toBe(400);
    expect(errorsOf(text)).toEqual([NOT_A_PHOTO]);
    const big = Buffer.concat([jpeg, Buffer.alloc(MAX_UPLOAD_BYTES, 7)]);
    const tooLarge = await upload(floor, `${inventoryUrl()}/photos`, {}, photo(big, 'huge.jpg'));
    expect(tooLarge.statusCode).toBe(413);
    expect(errorsOf(tooLarge)).toEqual([FILE_TOO_LARGE]);
    const byViewer = await upload(viewer, `${inventoryUrl()}/photos`, {}, photo(jpeg));
    expect(byViewer.statusCode).toBe(403);
    const after = (await viewer.request({ method: 'GET', url: inventoryUrl() })).json() as InventoryDto;
    expect(after.photos).toHaveLength(2);

    const signature = (content: Buffer) => ({
      signature: { fileName: 'signature.png', contentType: 'image/png', content },
    });
    const notPng = await upload(
      floor,
      `${inventoryUrl()}/signatures`,
      { kind: 'pickup', signer: 'Ann Holmes' },
      signature(jpeg),
    );
    expect(notPng.statusCode).toBe(400);
    expect(errorsOf(notPng)).toEqual([NOT_A_SIGNATURE]);
    const noName = await upload(
      floor,
      `${inventoryUrl()}/signatures`,
      { kind: 'pickup', signer: ' ' },
      signature(pngImage(300, 100)),
    );
    expect(noName.statusCode).toBe(400);
    const signed = await upload(
      floor,
      `${inventoryUrl()}/signatures`,
      { kind: 'pickup', signer: 'Ann Holmes' },
      signature(pngImage(300, 100, [255, 255, 255], [20, 20, 20])),
    );
    expect(signed.statusCode).toBe(201);
    expect((signed.json() as InventoryDto).pickup).toMatchObject({
      signer: 'Ann Holmes',
      attachment_id: expect.any(Number),
    });
    const twice = await upload(
      floor,
      `${inventoryUrl()}/signatures`,
      { kind: 'pickup', signer: 'Ann Holmes' },
      signature(pngImage(30, 10)),
    );
    expect(twice.statusCode).toBe(409);
    expect(errorsOf(twice)).toEqual([alreadySigned('pickup')]);
    // signed at pickup: the list is what the customer signed; only the delivery ticks may change
    const late = await addItem(floor, { sticker: '40', description: 'Late addition' });
    expect(late.statusCode).toBe(409);
    expect(errorsOf(late)).toEqual([SIGNED_AT_PICKUP]);
    const edit = await floor.request({
      method: 'PATCH',
      url: `/api/inventory-items/${dresser.id}`,
      payload: { description: 'Pine dresser' },
    });
    expect(edit.statusCode).toBe(409);
    const tick = await floor.request({
      method: 'PATCH',
      url: `/api/inventory-items/${dresser.id}`,
      payload: { delivered: true },
    });
    expect(tick.statusCode).toBe(200);
  });

  it('prints the inventory as a PDF with items, codes, legend, photos and signature (pdftotext, pdfimages)', async () => {
    const res = await viewer.request({ method: 'GET', url: `${inventoryUrl()}.pdf?tz=Europe/Berlin` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain('inventory-IH-V1.pdf');
    const { text, images } = await readPdf(res.rawPayload);
    expect(text).toContain('Condition inventory - unit IH-V1');
    expect(text).toContain('INVENTORY HOLMES');
    for (const words of [
      'Grandfather clock',
      'Oak dresser',
      'China cabinet',
      'Bedroom',
      'BR W',
      'SC D',
      'CH SC',
    ])
      expect(text).toContain(words);
    // the legend: standard codes and the company's own
    for (const entry of [
      'BR Broken',
      'SC Scratched',
      'D Dented',
      'MI Missing',
      'W Water damage',
      'CH Chipped',
    ])
      expect(text).toContain(entry);
    expect(text).toMatch(/At pickup: Ann Holmes, \d\d?\/\d\d?\/20\d\d, .* \(Europe\/Berlin\)/);
    expect(text).toContain('At delivery: not signed');
    expect(text).not.toContain('could not be read');
    expect(text).not.toContain('could not be read');
    // two photos (a JPEG, a PNG) and the signature (PNG), at their own sizes
    const kinds = images.map((row) => [row[2], row[3], row[4]]);
    expect(kinds).toEqual(
      expect.arrayContaining([
        ['image', '320', '240'],
        ['image', '240', '160'],
        ['image', '300', '100'],
      ]),
    );
    expect(images.filter((row) => row[2] === 'image')).toHaveLength(3);
  });

  it("shows a portal customer their own unit's inventory and photos, and nobody else's", async () => {
    const db = ctx.database.db;
    const warehouse = await buildWarehouse(db, { companyId: user.companyId, rows: 1, cols: 1 });
    const neighbour = await buildVault(db, {
      companyId: user.companyId,
      fieldId: warehouse.field('A1').id,
      customerName: 'INVENTORY WATSON',
    });
    expect(
      (await addItem(floor, { sticker: '1', description: 'Watson desk' }, neighbour.id)).statusCode,
    ).toBe(201);

    const portalCookie = async (name: string, email: string) => {
      const added = await user.request({ method: 'POST', url: '/api/customers', payload: { name, email } });
      expect(added.statusCode).toBe(201);
      const link = await user.request({
        method: 'POST',
        url: `/api/customers/${(added.json() as CustomerDto).id}/portal-link`,
      });
      const signedIn = await ctx.app.inject({
        method: 'POST',
        url: '/api/portal/sign-in',
        payload: { token: (link.json() as PortalLinkDto).url.split('#')[1] },
      });
      expect(signedIn.statusCode).toBe(200);
      return `wm_portal=${signedIn.cookies.find((c) => c.name === 'wm_portal')!.value}`;
    };
    const holmes = await portalCookie('Inventory Holmes', 'holmes@example.test');
    const asPortal = (url: string, cookie = holmes) =>
      ctx.app.inject({ method: 'GET', url, headers: { cookie } });

    const own = await asPortal(`/api/portal/units/${vaultId}/inventory`);
    expect(own.statusCode).toBe(200);
    const seen = own.json() as PortalInventoryDto;
    expect(seen.unit.number).toBe('IH-V1');
    expect(seen.items.map((i) => [i.sticker, i.description, i.codes])).toEqual([
      ['2', 'Grandfather clock', ['BR', 'W']],
      ['3', 'China cabinet', ['CH', 'SC']],
      ['10', 'Oak dresser', ['SC', 'D']],
    ]);
    expect(seen.pickup).toMatchObject({ signer: 'Ann Holmes' });
    expect(seen.codes.map((c) => c.code)).toContain('CH');
    expect(JSON.stringify(seen)).not.toContain('delivered_by');
    const picture = await asPortal(`/api/portal/inventory-photos/${seen.photos[0]!.id}`);
    expect(picture.statusCode).toBe(200);
    expect(picture.rawPayload.equals(jpeg)).toBe(true);

    // another customer's unit of the same company, and a unit of nobody, answer alike
    const neighbours = await asPortal(`/api/portal/units/${neighbour.id}/inventory`);
    const nobodys = await asPortal('/api/portal/units/2000000001/inventory');
    expect(neighbours.statusCode).toBe(404);
    expect(neighbours.json()).toEqual(nobodys.json());
    const watson = await portalCookie('Inventory Watson', 'watson@example.test');
    expect((await asPortal(`/api/portal/units/${vaultId}/inventory`, watson)).statusCode).toBe(404);
    expect((await asPortal(`/api/portal/inventory-photos/${seen.photos[0]!.id}`, watson)).statusCode).toBe(
      404,
    );
    // a staff cookie is no portal session
    expect(
      (await user.request({ method: 'GET', url: `/api/portal/units/${vaultId}/inventory` })).statusCode,
    ).toBe(401);
  });
});
