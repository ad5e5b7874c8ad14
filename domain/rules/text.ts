/** Cuts text to `max` characters and marks the cut with an ellipsis. */
export function truncate(text: string | null | undefined, max: number): string {
  const value = text ?? '';
  return value.length > max ? `${value.slice(0, max)}...` : value;
}

/** Warehouse names appear in URLs lower-cased, with each run of whitespace as one hyphen. */
export function warehouseSlug(name: string): string {
  return name.trim().toLowerCase().replace(/\s+/g, '-');
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
