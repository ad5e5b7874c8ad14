import type { Db } from '../../db/database';
import { nowIso } from '../../db/database';

export interface AttachmentRow {
  id: number;
  vault_id: number;
  file_name: string;
}

/** Attachment names of the given vaults; the bytes stay in the database until downloaded. */
export async function findAttachmentsOfVaults(
  db: Db,
  companyId: number,
  vaultIds: number[],
): Promise<AttachmentRow[]> {
  if (vaultIds.length === 0) return [];
  // an inventory's photos and signatures are shown with the inventory (decision 049)
  return db
    .selectFrom('attachments')
    .select(['id', 'vault_id', 'file_name'])
    .where('company_id', '=', companyId)
    .where('vault_id', 'in', vaultIds)
    .where('inventory_id', 'is', null)
    .orderBy('id')
    .execute();
}

export async function findAttachmentsOfWarehouse(
  db: Db,
  companyId: number,
  warehouseId: number,
): Promise<AttachmentRow[]> {
  return db
    .selectFrom('attachments as a')
    .innerJoin('vaults as v', 'v.id', 'a.vault_id')
    .innerJoin('fields as f', 'f.id', 'v.field_id')
    .select(['a.id', 'a.vault_id', 'a.file_name'])
    .where('a.company_id', '=', companyId)
    .where('f.warehouse_id', '=', warehouseId)
    .where('a.inventory_id', 'is', null)
    .orderBy('a.id')
    .execute();
}

export async function insertAttachment(
  db: Db,
  attachment: { companyId: number; vaultId: number; fileName: string; contentType: string; content: Buffer },
): Promise<AttachmentRow> {
  return db
    .insertInto('attachments')
    .values({
      company_id: attachment.companyId,
      vault_id: attachment.vaultId,
      file_name: attachment.fileName,
      content_type: attachment.contentType,
      size: attachment.content.length,
      content: attachment.content,
      created_at: nowIso(),
    })
    .returning(['id', 'vault_id', 'file_name'])
    .executeTakeFirstOrThrow();
}

export async function findAttachmentContent(db: Db, companyId: number, attachmentId: number) {
  return db
    .selectFrom('attachments')
    .select(['id', 'file_name', 'content_type', 'size', 'content'])
    .where('company_id', '=', companyId)
    .where('id', '=', attachmentId)
    .executeTakeFirst();
}

/** One attachment's name and vault, without its bytes; an inventory's are removed with the inventory's own calls. */
export async function findAttachment(
  db: Db,
  companyId: number,
  attachmentId: number,
): Promise<AttachmentRow | undefined> {
  return db
    .selectFrom('attachments')
    .select(['id', 'vault_id', 'file_name'])
    .where('company_id', '=', companyId)
    .where('id', '=', attachmentId)
    .where('inventory_id', 'is', null)
    .executeTakeFirst();
}

export async function deleteAttachmentRow(db: Db, companyId: number, attachmentId: number): Promise<number> {
  const result = await db
    .deleteFrom('attachments')
    .where('company_id', '=', companyId)
    .where('id', '=', attachmentId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function deleteAttachmentsOfVault(db: Db, companyId: number, vaultId: number): Promise<number> {
  const result = await db
    .deleteFrom('attachments')
    .where('company_id', '=', companyId)
    .where('vault_id', '=', vaultId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
