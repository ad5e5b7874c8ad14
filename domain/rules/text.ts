// one fixed locale so the server and every browser sort alike; numeric so "Warehouse 2" < "Warehouse 10"
const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/**
 * The natural order of names (warehouses, customers, orders, stickers): numbers by value, case and accents aside,
 * then by code units so that two different names never tie.
 */
export function naturalCompare(a: string, b: string): number {
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

/** Cuts text to `max` characters and marks the cut with an ellipsis. */
export function truncate(text: string | null | undefined, max: number): string {
  const value = text ?? '';
  return value.length > max ? `${value.slice(0, max)}...` : value;
}

/** Warehouse names appear in URLs lower-cased, with each run of whitespace as one hyphen. */
export function warehouseSlug(name: string): string {
  return name.trim().toLowerCase().replace(/\s+/g, '-');
}

/** The warehouse name (a slug) of a `/warehouse/{slug}` address, undefined on other pages and for a broken escape. */
export function warehouseSlugInPath(pathname: string): string | undefined {
  const found = /^\/warehouse\/([^/]+)/.exec(pathname);
  if (!found) return undefined;
  try {
    return decodeURIComponent(found[1]!);
  } catch {
    return undefined;
  }
}

/** The checklist path `/{slug}-checklist` names a warehouse with hyphens standing for spaces. */
export function warehouseNameFromChecklistSlug(slug: string): string {
  return slug.replace(/-/g, ' ').trim();
}

/** Two names are the same warehouse for a checklist lookup when they match ignoring case and hyphens. */
export function sameChecklistWarehouse(a: string, b: string): boolean {
  const norm = (s: string) => s.replace(/-/g, ' ').replace(/\s+/g, ' ').trim().toLowerCase();
  return norm(a) === norm(b);
}

// C0 and C1 control characters (NUL, escape, ...) and the invisible marks that reorder text on screen
// (LRM/RLM, embeddings and overrides U+202A-U+202E, isolates U+2066-U+2069): `invoice\u202Efdp.exe` shows as
// `invoiceexe.pdf`.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex
const CONTROL_EXCEPT_LINE_BREAKS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const DIRECTION_MARKS = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/**
 * What is wrong with a name (warehouse, customer, rack, pallet, file, person...), or null: no control characters,
 * no text-direction marks, and not `.` or `..` (which a path cannot name).
 */
export function nameProblem(label: string, value: string): string | null {
  if (CONTROL_CHARACTERS.test(value) || DIRECTION_MARKS.test(value))
    return `${label} cannot contain control characters or text-direction marks.`;
  if (value.trim() === '.' || value.trim() === '..') return `${label} cannot be "." or "..".`;
  return null;
}

/** What is wrong with free text (notes, descriptions, reasons), or null: line breaks and tabs are fine. */
export function freeTextProblem(label: string, value: string): string | null {
  if (CONTROL_EXCEPT_LINE_BREAKS.test(value) || DIRECTION_MARKS.test(value))
    return `${label} cannot contain control characters or text-direction marks.`;
  return null;
}
