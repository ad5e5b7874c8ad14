import { VAULT_TYPES, type VaultType } from '@domain/rules/capacity';

export interface ShipmentLine {
  type: VaultType;
  name?: string;
}

/** Numbers as typed or pasted: one per line, or separated by commas, semicolons, tabs or spaces. */
export function parseNumbers(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((n) => n.trim())
    .filter((n) => n !== '');
}

/**
 * The shipment's vaults in type order: every number given, then vaults without a number up to the count of that type
 * (a count below the numbers given counts for nothing).
 */
export function shipmentLines(
  perType: Record<VaultType, { count: number; numbers: string }>,
): ShipmentLine[] {
  const lines: ShipmentLine[] = [];
  for (const type of VAULT_TYPES) {
    const { count, numbers } = perType[type];
    const names = parseNumbers(numbers);
    for (const name of names) lines.push({ type, name });
    for (let i = names.length; i < count; i++) lines.push({ type });
  }
  return lines;
}
