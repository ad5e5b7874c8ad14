import { type Db, nowIso } from '../../db/database';
import { isPostgres } from '../../db/locks';
import type { InventoryRole, SignatureKind } from '@domain/rules/inventory';

// All SQL of condition inventories (issue 29, decision 049). Every function takes the company and filters by it.

/** The unit an inventory is of: number, customer and order; undefined when it is not the company's. */
export async function findInventoryUnit(db: Db, companyId: number, vaultId: number) {
  return db
    .selectFrom('vaults')
    .innerJoin('customers', 'customers.id', 'vaults.customer_id')
    .leftJoin('orders', 'orders.id', 'vaults.order_id')
    .select([
      'vaults.id',
      'vaults.name',
      'vaults.customer_id',
      'customers.name as customer',
      'orders.name as order_name',
    ])
    .where('vaults.company_id', '=', companyId)
    .where('vaults.id', '=', vaultId)
    .executeTakeFirst();
}

export async function findInventoryOfVault(db: Db, companyId: number, vaultId: number) {
  return db
    .selectFrom('inventories')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('vault_id', '=', vaultId)
    .executeTakeFirst();
}

/**
 * The unit's inventory row, made when it has none, and held for this transaction: on PostgreSQL the unit's row is
 * locked first (as a vault delete takes it), then the inventory's, so writes to one inventory take turns.
 */
export async function lockInventoryOfVault(
  trx: Db,
  companyId: number,
  vaultId: number,
  createdBy: string,
): Promise<{ id: number; pickup_signed_at: string | null; delivery_signed_at: string | null }> {
  const pg = isPostgres(trx);
  if (pg)
    await trx
      .selectFrom('vaults')
      .select('id')
      .where('company_id', '=', companyId)
      .where('id', '=', vaultId)
      .forUpdate()
      .execute();
  await trx
    .insertInto('inventories')
    .values({ company_id: companyId, vault_id: vaultId, created_by: createdBy, created_at: nowIso() })
    .onConflict((oc) => oc.column('vault_id').doNothing())
    .execute();
  let query = trx
    .selectFrom('inventories')
    .select(['id', 'pickup_signed_at', 'delivery_signed_at'])
    .where('company_id', '=', companyId)
    .where('vault_id', '=', vaultId);
  if (pg) query = query.forUpdate();
  return query.executeTakeFirstOrThrow();
}

export async function listItems(db: Db, companyId: number, inventoryId: number) {
  return db
    .selectFrom('inventory_items')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('inventory_id', '=', inventoryId)
    .execute();
}

/** An item with the unit its inventory is of. */
export async function findItem(db: Db, companyId: number, itemId: number) {
  return db
    .selectFrom('inventory_items')
    .innerJoin('inventories', 'inventories.id', 'inventory_items.inventory_id')
    .select(['inventory_items.id', 'inventory_items.inventory_id', 'inventories.vault_id'])
    .where('inventory_items.company_id', '=', companyId)
    .where('inventory_items.id', '=', itemId)
    .executeTakeFirst();
}

export async function findItemBySticker(db: Db, companyId: number, inventoryId: number, sticker: string) {
  return db
    .selectFrom('inventory_items')
    .select('id')
    .where('company_id', '=', companyId)
    .where('inventory_id', '=', inventoryId)
    .where('sticker', '=', sticker)
    .executeTakeFirst();
}

export interface ItemValues {
  sticker: string;
  description: string;
  room: string | null;
  codes: string;
  high_value: number;
}

export async function insertItem(
  db: Db,
  companyId: number,
  inventoryId: number,
  values: ItemValues,
  createdBy: string,
) {
  return db
    .insertInto('inventory_items')
    .values({
      company_id: companyId,
      inventory_id: inventoryId,
      ...values,
      created_by: createdBy,
      created_at: nowIso(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

export async function updateItem(
  db: Db,
  companyId: number,
  itemId: number,
  values: Partial<ItemValues> & { delivered_by?: string | null; delivered_at?: string | null },
) {
  await db
    .updateTable('inventory_items')
    .set(values)
    .where('company_id', '=', companyId)
    .where('id', '=', itemId)
    .execute();
}

export async function deleteItem(db: Db, companyId: number, itemId: number) {
  await db
    .deleteFrom('inventory_items')
    .where('company_id', '=', companyId)
    .where('id', '=', itemId)
    .execute();
}

/** The inventory's photos and signature drawings, without their bytes. */
export async function listInventoryFiles(db: Db, companyId: number, inventoryId: number) {
  return db
    .selectFrom('attachments')
    .select(['id', 'file_name', 'inventory_item_id', 'inventory_role'])
    .where('company_id', '=', companyId)
    .where('inventory_id', '=', inventoryId)
    .orderBy('id')
    .execute();
}

/** The inventory's photos and signatures with their bytes (the PDF embeds them). */
export async function listInventoryFileContents(db: Db, companyId: number, inventoryId: number) {
  return db
    .selectFrom('attachments')
    .select(['id', 'inventory_item_id', 'inventory_role', 'content_type', 'content'])
    .where('company_id', '=', companyId)
    .where('inventory_id', '=', inventoryId)
    .orderBy('id')
    .execute();
}

export async function insertInventoryFile(
  db: Db,
  file: {
    companyId: number;
    vaultId: number;
    inventoryId: number;
    itemId: number | null;
    role: InventoryRole;
    fileName: string;
    contentType: string;
    content: Buffer;
  },
) {
  return db
    .insertInto('attachments')
    .values({
      company_id: file.companyId,
      vault_id: file.vaultId,
      inventory_id: file.inventoryId,
      inventory_item_id: file.itemId,
      inventory_role: file.role,
      file_name: file.fileName,
      content_type: file.contentType,
      size: file.content.length,
      content: file.content,
      created_at: nowIso(),
    })
    .returning(['id', 'file_name', 'inventory_item_id'])
    .executeTakeFirstOrThrow();
}

/** A photo of an inventory, with the unit it belongs to. */
export async function findPhoto(db: Db, companyId: number, attachmentId: number) {
  return db
    .selectFrom('attachments')
    .select(['id', 'vault_id', 'inventory_id'])
    .where('company_id', '=', companyId)
    .where('id', '=', attachmentId)
    .where('inventory_role', '=', 'photo')
    .executeTakeFirst();
}

export async function deleteInventoryFile(db: Db, companyId: number, attachmentId: number): Promise<number> {
  const result = await db
    .deleteFrom('attachments')
    .where('company_id', '=', companyId)
    .where('id', '=', attachmentId)
    .where('inventory_id', 'is not', null)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function deleteSignatureFiles(
  db: Db,
  companyId: number,
  inventoryId: number,
  kind: SignatureKind,
) {
  await db
    .deleteFrom('attachments')
    .where('company_id', '=', companyId)
    .where('inventory_id', '=', inventoryId)
    .where('inventory_role', '=', kind)
    .execute();
}

export async function setSignature(
  db: Db,
  companyId: number,
  inventoryId: number,
  kind: SignatureKind,
  signer: string,
  signedAt: string,
) {
  const set =
    kind === 'pickup'
      ? { pickup_signer: signer, pickup_signed_at: signedAt }
      : { delivery_signer: signer, delivery_signed_at: signedAt };
  await db
    .updateTable('inventories')
    .set(set)
    .where('company_id', '=', companyId)
    .where('id', '=', inventoryId)
    .execute();
}

/** A photo the portal may show: of an inventory of one of this customer's units. */
export async function findCustomerPhotoContent(
  db: Db,
  companyId: number,
  customerId: number,
  attachmentId: number,
) {
  return db
    .selectFrom('attachments')
    .innerJoin('vaults', 'vaults.id', 'attachments.vault_id')
    .select(['attachments.id', 'attachments.file_name', 'attachments.content_type', 'attachments.content'])
    .where('attachments.company_id', '=', companyId)
    .where('attachments.id', '=', attachmentId)
    .where('attachments.inventory_role', '=', 'photo')
    .where('vaults.customer_id', '=', customerId)
    .executeTakeFirst();
}

export async function listCompanyCodes(db: Db, companyId: number) {
  return db
    .selectFrom('inventory_codes')
    .select(['id', 'code', 'meaning'])
    .where('company_id', '=', companyId)
    .orderBy('code')
    .execute();
}

export async function insertCompanyCode(
  db: Db,
  companyId: number,
  code: { code: string; meaning: string },
  createdBy: string,
) {
  return db
    .insertInto('inventory_codes')
    .values({ company_id: companyId, ...code, created_by: createdBy, created_at: nowIso() })
    .returning(['id', 'code', 'meaning'])
    .executeTakeFirstOrThrow();
}

export async function findCompanyCode(db: Db, companyId: number, codeId: number) {
  return db
    .selectFrom('inventory_codes')
    .select(['id', 'code'])
    .where('company_id', '=', companyId)
    .where('id', '=', codeId)
    .executeTakeFirst();
}

/** Whether any item of the company carries the code (codes are stored space-separated). */
export async function codeInUse(db: Db, companyId: number, code: string): Promise<boolean> {
  const row = await db
    .selectFrom('inventory_items')
    .select('id')
    .where('company_id', '=', companyId)
    .where((eb) =>
      eb.or([
        eb('codes', '=', code),
        eb('codes', 'like', `${code} %`),
        eb('codes', 'like', `% ${code}`),
        eb('codes', 'like', `% ${code} %`),
      ]),
    )
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function deleteCompanyCode(db: Db, companyId: number, codeId: number) {
  await db
    .deleteFrom('inventory_codes')
    .where('company_id', '=', companyId)
    .where('id', '=', codeId)
    .execute();
}
