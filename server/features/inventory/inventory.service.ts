import type { InventoryDto, InventoryCodeDto, PortalInventoryDto } from '@domain/schemas/inventory.schema';
import type { z } from 'zod';
import { type SignatureKind, unknownCodesMessage, unknownCodes } from '@domain/rules/inventory';
import type {
  InventoryCodeSchema,
  InventoryItemSchema,
  InventoryItemUpdateSchema,
} from '@domain/schemas/inventory.schema';
import type { Actor } from '../../auth/actor';
import { actorName } from '../../auth/users.repo';
import { type Db, isUniqueViolation, nowIso } from '../../db/database';
import { badRequest, conflict, notFound } from '../../http/errors';
import type { UploadedFile } from '../../http/form-reader';
import { presentCodes, presentInventory, presentItem, presentPortalInventory } from './inventory.presenter';
import {
  codeInUse,
  deleteCompanyCode,
  deleteInventoryFile,
  deleteItem,
  deleteSignatureFiles,
  findCompanyCode,
  findInventoryOfVault,
  findInventoryUnit,
  findItem,
  findItemBySticker,
  findPhoto,
  insertCompanyCode,
  insertInventoryFile,
  insertItem,
  listCompanyCodes,
  listInventoryFiles,
  listItems,
  lockInventoryOfVault,
  setSignature,
  updateItem,
} from './inventory.repo';

// Condition inventories (issue 29, point 5; decision 049): a unit's numbered items with condition codes, photos and
// the customer's signatures at pickup and at delivery.

export const UNIT_NOT_FOUND = 'Unit not found';
export const ITEM_NOT_FOUND = 'Inventory item not found';
export const PHOTO_NOT_FOUND = 'Photo not found';
export const CODE_NOT_FOUND = 'Condition code not found';
export const duplicateSticker = (sticker: string) =>
  `Sticker ${sticker} is already on this unit's inventory. Each item needs its own number.`;
export const SIGNED_AT_PICKUP =
  'The customer signed this inventory at pickup: its items can no longer change, only be ticked off at delivery.';
export const SIGNED_AT_DELIVERY =
  'The customer signed this inventory at delivery: the delivery ticks can no longer change.';
export const alreadySigned = (kind: SignatureKind) =>
  `The customer already signed this inventory at ${kind}.`;
export const NO_ITEMS_TO_SIGN = 'Add the items before the customer signs the inventory.';
export const NOT_A_PHOTO = 'A photo must be a JPEG or PNG image.';
export const NOT_A_SIGNATURE = 'The signature must be a PNG image, as the signature pad saves it.';
export const MISSING_PHOTO = 'Please take or choose a photo.';
export const MISSING_SIGNATURE = 'Please draw the signature first.';
export const ITEM_OF_OTHER_UNIT = "That item is not on this unit's inventory.";
export const codeExists = (code: string) => `The code ${code} exists already.`;
export const codeInUseMessage = (code: string) =>
  `The code ${code} is on items of inventories; it stays so that they keep their meaning.`;

const isJpeg = (b: Buffer) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
const isPng = (b: Buffer) =>
  b.length > 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));

async function requireUnit(db: Db, companyId: number, vaultId: number) {
  const unit = await findInventoryUnit(db, companyId, vaultId);
  if (!unit) throw notFound(UNIT_NOT_FOUND);
  return unit;
}

async function checkCodes(db: Db, companyId: number, codes: string[]) {
  if (codes.length === 0) return;
  const own = (await listCompanyCodes(db, companyId)).map((c) => c.code);
  const unknown = unknownCodes(codes, own);
  if (unknown.length > 0) throw badRequest(unknownCodesMessage(unknown));
}

/** GET /api/vaults/{id}/inventory: the unit's inventory, empty while none was taken. */
export async function loadInventory(db: Db, companyId: number, vaultId: number): Promise<InventoryDto> {
  const unit = await requireUnit(db, companyId, vaultId);
  const [inventory, codes] = await Promise.all([
    findInventoryOfVault(db, companyId, vaultId),
    listCompanyCodes(db, companyId),
  ]);
  const [items, files] = inventory
    ? await Promise.all([
        listItems(db, companyId, inventory.id),
        listInventoryFiles(db, companyId, inventory.id),
      ])
    : [[], []];
  return presentInventory(unit, inventory, items, files, codes);
}

function mapStickerClash<T>(sticker: string | undefined, work: () => Promise<T>): Promise<T> {
  return work().catch((error: unknown) => {
    // two tablets adding the same number at once: the unique index decides, the loser is told as if it read first
    if (sticker !== undefined && isUniqueViolation(error)) throw conflict(duplicateSticker(sticker));
    throw error;
  });
}

/** POST /api/vaults/{id}/inventory/items: a new item; the unit's inventory is started with its first item. */
export async function addItem(
  db: Db,
  actor: Actor,
  vaultId: number,
  input: z.output<typeof InventoryItemSchema>,
): Promise<InventoryDto> {
  await mapStickerClash(input.sticker, () =>
    db.transaction().execute(async (trx) => {
      await requireUnit(trx, actor.companyId, vaultId);
      await checkCodes(trx, actor.companyId, input.codes);
      const who = await actorName(trx, actor.userId);
      const inventory = await lockInventoryOfVault(trx, actor.companyId, vaultId, who);
      if (inventory.pickup_signed_at) throw conflict(SIGNED_AT_PICKUP);
      if (await findItemBySticker(trx, actor.companyId, inventory.id, input.sticker))
        throw conflict(duplicateSticker(input.sticker));
      await insertItem(
        trx,
        actor.companyId,
        inventory.id,
        {
          sticker: input.sticker,
          description: input.description,
          room: input.room,
          codes: input.codes.join(' '),
          high_value: input.high_value ? 1 : 0,
        },
        who,
      );
    }),
  );
  return loadInventory(db, actor.companyId, vaultId);
}

/** PATCH /api/inventory-items/{id}: the item's fields (before the pickup signature) or its delivery tick. */
export async function changeItem(
  db: Db,
  actor: Actor,
  itemId: number,
  input: z.output<typeof InventoryItemUpdateSchema>,
) {
  return mapStickerClash(input.sticker, () =>
    db.transaction().execute(async (trx) => {
      const found = await findItem(trx, actor.companyId, itemId);
      if (!found) throw notFound(ITEM_NOT_FOUND);
      const who = await actorName(trx, actor.userId);
      const inventory = await lockInventoryOfVault(trx, actor.companyId, found.vault_id, who);
      const { delivered, ...fields } = input;
      const editsFields = Object.values(fields).some((v) => v !== undefined);
      if (editsFields && inventory.pickup_signed_at) throw conflict(SIGNED_AT_PICKUP);
      if (delivered !== undefined && inventory.delivery_signed_at) throw conflict(SIGNED_AT_DELIVERY);
      if (fields.codes) await checkCodes(trx, actor.companyId, fields.codes);
      if (fields.sticker !== undefined) {
        const clash = await findItemBySticker(trx, actor.companyId, inventory.id, fields.sticker);
        if (clash && clash.id !== itemId) throw conflict(duplicateSticker(fields.sticker));
      }
      await updateItem(trx, actor.companyId, itemId, {
        ...(fields.sticker !== undefined && { sticker: fields.sticker }),
        ...(fields.description !== undefined && { description: fields.description }),
        ...(fields.room !== undefined && { room: fields.room }),
        ...(fields.codes !== undefined && { codes: fields.codes.join(' ') }),
        ...(fields.high_value !== undefined && { high_value: fields.high_value ? 1 : 0 }),
        ...(delivered !== undefined &&
          (delivered
            ? { delivered_by: who, delivered_at: nowIso() }
            : { delivered_by: null, delivered_at: null })),
      });
      const row = (await listItems(trx, actor.companyId, inventory.id)).find((i) => i.id === itemId)!;
      return { item: presentItem(row) };
    }),
  );
}

/** DELETE /api/inventory-items/{id}: the item and its photos, before the pickup signature. */
export async function removeItem(db: Db, actor: Actor, itemId: number) {
  return db.transaction().execute(async (trx) => {
    const found = await findItem(trx, actor.companyId, itemId);
    if (!found) throw notFound(ITEM_NOT_FOUND);
    const inventory = await lockInventoryOfVault(
      trx,
      actor.companyId,
      found.vault_id,
      await actorName(trx, actor.userId),
    );
    if (inventory.pickup_signed_at) throw conflict(SIGNED_AT_PICKUP);
    await deleteItem(trx, actor.companyId, itemId);
    return { ok: true as const };
  });
}

/** POST /api/vaults/{id}/inventory/photos: a photo of the unit's goods, of one item or of the whole load. */
export async function addPhoto(
  db: Db,
  actor: Actor,
  vaultId: number,
  itemId: number | undefined,
  file: UploadedFile | undefined,
): Promise<InventoryDto> {
  if (!file) throw badRequest(MISSING_PHOTO);
  const jpeg = isJpeg(file.content);
  if (!jpeg && !isPng(file.content)) throw badRequest(NOT_A_PHOTO);
  await db.transaction().execute(async (trx) => {
    await requireUnit(trx, actor.companyId, vaultId);
    const who = await actorName(trx, actor.userId);
    const inventory = await lockInventoryOfVault(trx, actor.companyId, vaultId, who);
    if (itemId !== undefined) {
      const item = await findItem(trx, actor.companyId, itemId);
      if (!item || item.inventory_id !== inventory.id) throw badRequest(ITEM_OF_OTHER_UNIT);
    }
    await insertInventoryFile(trx, {
      companyId: actor.companyId,
      vaultId,
      inventoryId: inventory.id,
      itemId: itemId ?? null,
      role: 'photo',
      fileName: file.fileName,
      // the bytes decide, not what the browser claimed
      contentType: jpeg ? 'image/jpeg' : 'image/png',
      content: file.content,
    });
  });
  return loadInventory(db, actor.companyId, vaultId);
}

/** DELETE /api/inventory-photos/{id}. */
export async function removePhoto(db: Db, actor: Actor, photoId: number) {
  return db.transaction().execute(async (trx) => {
    const photo = await findPhoto(trx, actor.companyId, photoId);
    if (!photo) throw notFound(PHOTO_NOT_FOUND);
    await lockInventoryOfVault(trx, actor.companyId, photo.vault_id, await actorName(trx, actor.userId));
    if ((await deleteInventoryFile(trx, actor.companyId, photoId)) === 0) throw notFound(PHOTO_NOT_FOUND);
    return { ok: true as const };
  });
}

/** POST /api/vaults/{id}/inventory/signatures: the customer's signature at pickup or at delivery, once each. */
export async function addSignature(
  db: Db,
  actor: Actor,
  vaultId: number,
  form: { kind: SignatureKind; signer: string },
  file: UploadedFile | undefined,
): Promise<InventoryDto> {
  if (!file) throw badRequest(MISSING_SIGNATURE);
  if (!isPng(file.content)) throw badRequest(NOT_A_SIGNATURE);
  await db.transaction().execute(async (trx) => {
    await requireUnit(trx, actor.companyId, vaultId);
    const who = await actorName(trx, actor.userId);
    const inventory = await lockInventoryOfVault(trx, actor.companyId, vaultId, who);
    const signedAt = form.kind === 'pickup' ? inventory.pickup_signed_at : inventory.delivery_signed_at;
    if (signedAt) throw conflict(alreadySigned(form.kind));
    if ((await listItems(trx, actor.companyId, inventory.id)).length === 0)
      throw badRequest(NO_ITEMS_TO_SIGN);
    await deleteSignatureFiles(trx, actor.companyId, inventory.id, form.kind);
    const signedOn = nowIso();
    await insertInventoryFile(trx, {
      companyId: actor.companyId,
      vaultId,
      inventoryId: inventory.id,
      itemId: null,
      role: form.kind,
      fileName: `signature-${form.kind}-${signedOn.slice(0, 10)}.png`,
      contentType: 'image/png',
      content: file.content,
    });
    await setSignature(trx, actor.companyId, inventory.id, form.kind, form.signer, signedOn);
  });
  return loadInventory(db, actor.companyId, vaultId);
}

/** GET /api/inventory-codes: the standard codes and the company's own. */
export async function loadCodes(db: Db, companyId: number): Promise<InventoryCodeDto[]> {
  return presentCodes(await listCompanyCodes(db, companyId));
}

/** POST /api/inventory-codes (Managers). */
export async function addCode(db: Db, actor: Actor, input: z.output<typeof InventoryCodeSchema>) {
  try {
    await db.transaction().execute(async (trx) => {
      if ((await listCompanyCodes(trx, actor.companyId)).some((c) => c.code === input.code))
        throw conflict(codeExists(input.code));
      await insertCompanyCode(trx, actor.companyId, input, await actorName(trx, actor.userId));
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(codeExists(input.code));
    throw error;
  }
  return loadCodes(db, actor.companyId);
}

/** DELETE /api/inventory-codes/{id} (Managers): only a code no item carries. */
export async function removeCode(db: Db, actor: Actor, codeId: number) {
  await db.transaction().execute(async (trx) => {
    const code = await findCompanyCode(trx, actor.companyId, codeId);
    if (!code) throw notFound(CODE_NOT_FOUND);
    if (await codeInUse(trx, actor.companyId, code.code)) throw conflict(codeInUseMessage(code.code));
    await deleteCompanyCode(trx, actor.companyId, codeId);
  });
  return loadCodes(db, actor.companyId);
}

/** GET /api/portal/units/{id}/inventory: one of the signed-in customer's units, read-only. */
export async function loadPortalInventory(
  db: Db,
  customer: { companyId: number; customerId: number },
  vaultId: number,
): Promise<PortalInventoryDto> {
  const unit = await findInventoryUnit(db, customer.companyId, vaultId);
  // another customer's unit answers as one that does not exist
  if (!unit || unit.customer_id !== customer.customerId) throw notFound(UNIT_NOT_FOUND);
  return presentPortalInventory(await loadInventory(db, customer.companyId, vaultId));
}
