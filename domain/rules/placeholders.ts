import { VAULT_TYPES, type VaultType } from './capacity';

const EMPTY = 'EMPTY';

/**
 * The kind of an EMPTY placeholder, or null for a real customer. A bare 'EMPTY' takes its kind
 * from the chosen type, since forms in empty mode may send only the word and the type apart.
 */
export function placeholderKind(customerName: string, requestedType?: string | null): VaultType | null {
  const upper = customerName.trim().toUpperCase();
  if (!upper.includes(EMPTY)) return null;
  const rest = upper.replace(EMPTY, '').trim().toLowerCase();
  if ((VAULT_TYPES as readonly string[]).includes(rest)) return rest as VaultType;
  if (rest === '' && requestedType && (VAULT_TYPES as readonly string[]).includes(requestedType)) {
    return requestedType as VaultType;
  }
  return 'vault';
}

export interface StatsVault {
  customer_name: string;
  type: string;
}

export interface VaultCounts {
  vaultCount: number;
  realVaultCount: number;
  emptyVaultCount: number;
  emptyCouchboxCount: number;
}

/** The statistics counts (spec 2.11, 4.3) over the vaults placed in a warehouse's fields. */
export function countVaults(vaults: Iterable<StatsVault>): VaultCounts {
  const counts: VaultCounts = { vaultCount: 0, realVaultCount: 0, emptyVaultCount: 0, emptyCouchboxCount: 0 };
  for (const vault of vaults) {
    counts.vaultCount += 1;
    const empty = vault.customer_name.toUpperCase().includes(EMPTY);
    if (!empty) counts.realVaultCount += 1;
    else if (vault.type === 'vault') counts.emptyVaultCount += 1;
    else if (vault.type === 'couchbox') counts.emptyCouchboxCount += 1;
  }
  return counts;
}
