import { placeholderKind } from './placeholders';

const kindWords: Record<string, string> = {
  vault: 'vault',
  liftvan: 'liftvan',
  t2: 'T2',
  couchbox: 'couchbox',
};

/**
 * How people name a vault: its number, or for a placeholder without one its kind and field ('Empty vault in B4'),
 * never its internal id.
 */
export function vaultTitle(
  vault: { name: string | null; customer_name: string },
  fieldName: string | null,
): string {
  if (vault.name) return `Vault ${vault.name}`;
  const where = fieldName ? ` in ${fieldName}` : '';
  const kind = placeholderKind(vault.customer_name);
  if (kind) return `Empty ${kindWords[kind] ?? kind}${where}`;
  return `Vault of ${vault.customer_name}${where}`;
}

/** 'a' or 'an' before a word, by its first letter: 'an EMPTY VAULT', 'a T2'. */
export function withArticle(words: string): string {
  return `${/^[aeiou]/i.test(words) ? 'an' : 'a'} ${words}`;
}
