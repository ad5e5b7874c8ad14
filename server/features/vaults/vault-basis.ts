import { conflict } from '../../http/errors';
import type { VaultBasis } from '@domain/schemas/vault.schema';
import { placeOf } from './vault-history';
import type { VaultRow } from './vaults.repo';

/** The refusal of a change whose vault is no longer where the tablet saw it (issue 30). */
export function movedMeanwhile(vault: VaultRow): string {
  const place = placeOf(vault);
  const now = place ? `in ${place.warehouse} ${place.field}, slot ${place.position}` : 'on the stage';
  const name = vault.name ? `Vault ${vault.name}` : 'This vault';
  return `${name} was moved by someone else meanwhile: it is now ${now}. Nothing was changed.`;
}

/**
 * A change decided on a tablet (perhaps offline, sent later from its queue) names where it saw the vault: its field
 * and slot, or the stage. When the vault is elsewhere now, the change is refused with 409 rather than applied to a
 * vault in a place nobody looked at. Without a basis (a change made online, on the screen that shows the vault now)
 * nothing is checked.
 */
export function checkVaultBasis(vault: VaultRow, basis: VaultBasis | undefined): void {
  if (!basis) return;
  if (vault.field_id === basis.fieldId && vault.position === basis.position) return;
  throw conflict(movedMeanwhile(vault));
}
