/**
 * Dig-out count (issue 16): a stack is taken from the top (position 1 is the top slot), so reaching a vault means
 * first moving every vault that stands above it, at a lower position of the same field.
 */
export function digOutCount(position: number, positionsInField: readonly number[]): number {
  let above = 0;
  for (const p of positionsInField) if (p < position) above++;
  return above;
}

/** Dig-out counts of every vault of one field at once, keyed by vault id. */
export function digOutCounts(
  vaults: readonly { id: number; position: number | null }[],
): Map<number, number> {
  const positions = vaults.map((v) => v.position).filter((p): p is number => typeof p === 'number');
  const counts = new Map<number, number>();
  for (const vault of vaults) {
    if (typeof vault.position === 'number') counts.set(vault.id, digOutCount(vault.position, positions));
  }
  return counts;
}
