export const DEFAULT_FIELD_CAPACITY = 3;
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
/** The refusal of a file over MAX_UPLOAD_BYTES, by the server (413) and by the forms before they send it. */
export const FILE_TOO_LARGE = `File size should not exceed ${MAX_UPLOAD_BYTES / 1024 / 1024}MB`;

export const VAULT_TYPES = ['vault', 'liftvan', 't2', 'couchbox'] as const;
export type VaultType = (typeof VAULT_TYPES)[number];

export function isCouchboxField(type: string): boolean {
  return type === 'couchbox-T' || type === 'couchbox';
}

/**
 * Which units a field takes (decision 012, spec 4.2): a couchbox only a couchbox field; every other type only a plain
 * field, except the empty placeholders (vault, liftvan, T2) the field detail offers in a couchbox field too.
 */
export function typeFitsField(vaultType: string, fieldType: string, placeholder: boolean): boolean {
  if (vaultType === 'couchbox') return isCouchboxField(fieldType);
  return placeholder || !isCouchboxField(fieldType);
}

/** Slots of a field: the warehouse's field capacity, one more for a couchbox, none for the hidden bottom half. */
export function fieldSlotCount(fieldType: string, warehouseFieldCapacity: number | null | undefined): number {
  if (fieldType === 'couchbox-B') return 0;
  const base = warehouseFieldCapacity ?? DEFAULT_FIELD_CAPACITY;
  return isCouchboxField(fieldType) ? base + 1 : base;
}

/**
 * Position 1 is the top slot and a field fills from its highest position downward,
 * so the next free slot is the highest-numbered free one (gaps left by deletes fill first).
 */
export function nextFreePosition(occupied: readonly number[], capacity: number): number | null {
  const taken = new Set(occupied);
  for (let p = capacity; p >= 1; p--) if (!taken.has(p)) return p;
  return null;
}

/** The topmost vault is the one at the lowest occupied position; only it can be staged. */
export function topmostPosition(occupied: readonly number[]): number | null {
  return occupied.length === 0 ? null : Math.min(...occupied);
}

export function warehouseCapacity(
  rows: number,
  cols: number,
  fieldCapacity: number | null | undefined,
): number {
  return rows * cols * (fieldCapacity ?? DEFAULT_FIELD_CAPACITY);
}
