import type { Db } from '../../db/database';
import { notFound } from '../../http/errors';
import { digOutCount } from '@domain/rules/dig-out';
import type { VaultDto } from '@domain/schemas/warehouse.schema';
import { findAttachmentsOfVaults } from './attachments.repo';
import { attachmentsByVault, presentVault } from './vaults.presenter';
import { findVault, occupiedPositions } from './vaults.repo';

/** One vault as the API answers it, and the messages of the vault writes (each write's file imports them from here). */

export const VAULT_NOT_FOUND = 'Vault not found';
export const VAULT_CHANGED = 'This vault was changed by someone else. Please reload it and try again.';
export const ONLY_TOPMOST_STAGED = 'Only the topmost vault can be staged.';
export const ONLY_TOPMOST_MOVED = 'Only the topmost vault of a field can be moved.';
export const ALREADY_STAGED = 'This vault is already staged.';
export const VAULT_RELEASED = 'This vault was released and has left the warehouse.';

export async function loadVault(db: Db, companyId: number, vaultId: number): Promise<VaultDto> {
  const row = await findVault(db, companyId, vaultId);
  if (!row) throw notFound(VAULT_NOT_FOUND);
  const files = attachmentsByVault(await findAttachmentsOfVaults(db, companyId, [vaultId]));
  const inField = row.field_id === null ? [] : await occupiedPositions(db, companyId, row.field_id);
  const digOut =
    row.position === null
      ? null
      : digOutCount(
          Number(row.position),
          inField.map((v) => v.position),
        );
  return presentVault(row, files.get(vaultId), digOut);
}
