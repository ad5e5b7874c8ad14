import { VAULT_TYPES, type VaultType } from './capacity';

export const EMPTY_PREFIX = 'EMPTY';
const EMPTY = EMPTY_PREFIX;

/** 'EMPTY VAULT', 'EMPTY LIFTVAN', ... : the customer name of an empty placeholder of that kind. */
export function emptyCustomerName(kind: VaultType): string {
  return `${EMPTY_PREFIX} ${kind.toUpperCase()}`;
}

/** Placeholder kinds whose vault number is blank (spec 4.2: t2 and liftvan). */
export function vaultNumberDisabled(kind: string | null): boolean {
  return kind === 't2' || kind === 'liftvan';
}

/** Whether a customer name marks an empty placeholder rather than a real customer. */
export function isPlaceholderName(customerName: string): boolean {
  return customerName.toUpperCase().includes(EMPTY);
}

/**
 * The kind of an EMPTY placeholder, or null for a real customer; the one placeholder rule for server and web. A bare
 * 'EMPTY' takes its kind from the chosen type, since forms in empty mode may send only the word and the type apart;
 * without a chosen type it is a vault.
 */
export function placeholderKind(
  customerName: string | null | undefined,
  requestedType?: string | null,
): VaultType | null {
  const upper = (customerName ?? '').trim().toUpperCase();
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
    if (!isPlaceholderName(vault.customer_name)) counts.realVaultCount += 1;
    else if (vault.type === 'vault') counts.emptyVaultCount += 1;
    else if (vault.type === 'couchbox') counts.emptyCouchboxCount += 1;
  }
  return counts;
}

export interface VaultDetailsInput {
  name?: string;
  customer_name: string;
  order_name?: string;
  type?: string;
  note?: string;
}

/** What is stored for a vault's details: blank text as null, names in capitals. */
export interface VaultDetails {
  name: string | null;
  customerName: string;
  orderName: string | null;
  type: string;
  note: string | null;
}

const blankToNull = (text: string | undefined) =>
  text === undefined || text.trim() === '' ? null : text.trim();

/**
 * A vault's details as stored. Placeholders get the 'EMPTY {KIND}' customer, no order, their kind as type and no
 * number for t2/liftvan; a real vault without a type takes `fallbackType`.
 */
export function normaliseDetails(input: VaultDetailsInput & { fallbackType: string }): VaultDetails {
  const kind = placeholderKind(input.customer_name, input.type);
  if (kind) {
    return {
      name: vaultNumberDisabled(kind) ? null : blankToNull(input.name),
      customerName: emptyCustomerName(kind),
      orderName: null,
      type: kind,
      note: blankToNull(input.note),
    };
  }
  return {
    name: blankToNull(input.name),
    customerName: input.customer_name.trim().toUpperCase(),
    orderName: blankToNull(input.order_name),
    type: input.type || input.fallbackType,
    note: blankToNull(input.note),
  };
}
