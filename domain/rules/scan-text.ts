import { parseFieldName } from './field-names';

/**
 * What a scanned text names (issue 15): the app's own label links, or the words of an older Code-128 label (a vault
 * number, a field name such as "B4", or a warehouse name followed by a field name).
 */
export type ScanTarget =
  | { kind: 'vault-code'; code: string }
  | { kind: 'field-link'; warehouseSlug: string; field: string }
  | { kind: 'words'; text: string };

export const MAX_SCAN_TEXT = 300;
const VAULT_PATH = /^\/v\/([A-Za-z0-9_-]{16})\/?$/;
const WAREHOUSE_PATH = /^\/warehouse\/([^/]+)\/?$/;

/** The vault label's link path. */
export const vaultLinkPath = (code: string) => `/v/${code}`;

/** The field label's link path: the field chosen on its warehouse page. */
export const fieldLinkPath = (warehouseSlug: string, field: string) =>
  `/warehouse/${encodeURIComponent(warehouseSlug)}?field=${encodeURIComponent(field)}`;

/** Reads a scanned text; null when it is empty, too long or a link that is not one of ours. */
export function parseScanText(raw: string): ScanTarget | null {
  const text = raw.trim();
  if (text === '' || text.length > MAX_SCAN_TEXT) return null;
  const isLink = /^https?:\/\//i.test(text) || text.startsWith('/');
  if (!isLink) return { kind: 'words', text: text.replace(/\s+/g, ' ') };
  let url: URL;
  try {
    url = new URL(text, 'http://scan.invalid');
  } catch {
    return null;
  }
  const vault = VAULT_PATH.exec(url.pathname);
  if (vault) return { kind: 'vault-code', code: vault[1]! };
  const warehouse = WAREHOUSE_PATH.exec(url.pathname);
  const field = url.searchParams.get('field');
  if (warehouse && field && parseFieldName(field)) {
    let slug: string;
    try {
      slug = decodeURIComponent(warehouse[1]!);
    } catch {
      return null;
    }
    return { kind: 'field-link', warehouseSlug: slug, field: field.trim().toUpperCase() };
  }
  return null;
}

/** "Main Depot B4" -> warehouse words and field name; null when the last word is no field name. */
export function splitWarehouseAndField(text: string): { warehouse: string; field: string } | null {
  const at = text.lastIndexOf(' ');
  if (at <= 0) return null;
  const field = text.slice(at + 1);
  if (!parseFieldName(field)) return null;
  return { warehouse: text.slice(0, at).trim(), field: field.toUpperCase() };
}

/** A scanned number several vaults in store carry (409): the scan screen then lists them to choose from. */
export const severalVaults = (text: string) =>
  `Several vaults are numbered "${text}": choose the one you mean.`;
