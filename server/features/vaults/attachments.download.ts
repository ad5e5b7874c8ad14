import type { FastifyReply } from 'fastify';
import type { Db } from '../../db/database';
import { notFound } from '../../http/errors';
import { findAttachmentContent } from './attachments.repo';

export const ATTACHMENT_NOT_FOUND = 'Attachment not found';

// types a browser shows without running anything; everything else downloads as opaque bytes
const INLINE_SAFE_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/pdf',
  'text/plain',
  'text/csv',
]);

export function safeContentType(stored: string): string {
  const base = stored.split(';')[0]!.trim().toLowerCase();
  if (!INLINE_SAFE_TYPES.has(base)) return 'application/octet-stream';
  return base.startsWith('text/') ? `${base}; charset=utf-8` : base;
}

/** RFC 6266 / 5987: an ASCII fallback name plus the exact UTF-8 name, both unable to break out of the header. */
export function contentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

export async function downloadAttachment(
  db: Db,
  companyId: number,
  attachmentId: number,
  reply: FastifyReply,
) {
  const row = await findAttachmentContent(db, companyId, attachmentId);
  if (!row) throw notFound(ATTACHMENT_NOT_FOUND);
  return reply
    .header('Content-Type', safeContentType(row.content_type))
    .header('Content-Disposition', contentDisposition(row.file_name))
    .header('X-Content-Type-Options', 'nosniff')
    .header('Cache-Control', 'private, no-store')
    .send(Buffer.from(row.content));
}
