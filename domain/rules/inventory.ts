// Condition inventories (issue 29, point 5; decision 049): the codes movers write beside an item, and the rules an
// item's codes and sticker number follow, for the server and the tablet's form alike.

/** The codes every company has, as movers write them on an inventory sheet. */
export const STANDARD_CODES = [
  { code: 'BR', meaning: 'Broken' },
  { code: 'SC', meaning: 'Scratched' },
  { code: 'D', meaning: 'Dented' },
  { code: 'MI', meaning: 'Missing' },
  { code: 'W', meaning: 'Water damage' },
] as const;

/** What an attachment of an inventory is: a photo, or the customer's signature at pickup or at delivery. */
export const INVENTORY_ROLES = ['photo', 'pickup', 'delivery'] as const;
export type InventoryRole = (typeof INVENTORY_ROLES)[number];
export const SIGNATURE_KINDS = ['pickup', 'delivery'] as const;
export type SignatureKind = (typeof SIGNATURE_KINDS)[number];

/** A company code: one to four capital letters or digits, starting with a letter ("CH" chipped, "T2" torn). */
export const CODE_PATTERN = /^[A-Z][A-Z0-9]{0,3}$/;
export const MAX_CODES_PER_ITEM = 10;

export const CODE_FORMAT = 'A code is 1 to 4 capital letters or digits, starting with a letter.';
export const codeIsStandard = (code: string) => `${code} is a standard code; every company has it already.`;
export const unknownCodesMessage = (codes: string[]) =>
  `Unknown condition ${codes.length === 1 ? 'code' : 'codes'}: ${codes.join(', ')}. ` +
  'Use a standard code or one a Manager added.';

/** A code as typed: trimmed and in capitals. */
export const normaliseCode = (raw: string) => raw.trim().toUpperCase();

/** The codes of a text such as "br, sc  d" or a list: in capitals, each once, in the order written. */
export function parseCodes(input: string | readonly string[]): string[] {
  const parts = typeof input === 'string' ? input.split(/[\s,;/]+/) : input;
  const seen = new Set<string>();
  for (const part of parts) {
    const code = normaliseCode(part);
    if (code) seen.add(code);
  }
  return [...seen];
}

/** The codes that are neither standard nor among the company's own. */
export function unknownCodes(codes: readonly string[], companyCodes: readonly string[]): string[] {
  const known = new Set<string>([...STANDARD_CODES.map((c) => c.code), ...companyCodes]);
  return codes.filter((code) => !known.has(code));
}

/** A company code's problem before it is saved, or null. */
export function companyCodeProblem(code: string): string | null {
  if (!CODE_PATTERN.test(code)) return CODE_FORMAT;
  if (STANDARD_CODES.some((c) => c.code === code)) return codeIsStandard(code);
  return null;
}

/** The legend of a printed or shown inventory: the standard codes, then the company's, each with its meaning. */
export function codeLegend(
  companyCodes: readonly { code: string; meaning: string }[],
): { code: string; meaning: string; standard: boolean }[] {
  return [
    ...STANDARD_CODES.map((c) => ({ ...c, standard: true })),
    ...[...companyCodes]
      .sort((a, b) => a.code.localeCompare(b.code))
      .map((c) => ({ code: c.code, meaning: c.meaning, standard: false })),
  ];
}

/** The longest signer's name a signature records. */
export const SIGNATURE_NAME_MAX = 100;
