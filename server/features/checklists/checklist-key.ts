import crypto from 'node:crypto';
import { warehouseSlug } from '@domain/rules/text';

/** 18 random bytes (144 bits) as URL-safe text: the secret a checklist's public fill-in link carries. */
export function newChecklistKey(): string {
  return crypto.randomBytes(18).toString('base64url');
}

const digest = (text: string) => crypto.createHash('sha256').update(text).digest();

/** Whether a caller's key is the checklist's, compared in constant time (digests have one length). */
export function keyMatches(stored: string | null, given: string | undefined): boolean {
  if (!stored || !given || given.length > 200) return false;
  return crypto.timingSafeEqual(digest(stored), digest(given));
}

/** The fill-in page's address within this site: `/{warehouse-slug}-checklist?key=...`. */
export function fillInPath(warehouseName: string, key: string | null): string | null {
  if (!key) return null;
  return `/${encodeURIComponent(warehouseSlug(warehouseName))}-checklist?key=${encodeURIComponent(key)}`;
}
