import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import { nameProblem } from '@domain/rules/text';
import { badRequest } from './errors';

export const UNREADABLE_FORM = 'The form data could not be read.';

export interface UploadedFile {
  fileName: string;
  contentType: string;
  content: Buffer;
}

export interface ReadForm {
  fields: Record<string, unknown>;
  files: Record<string, UploadedFile>;
}

/** A stored file name: no directories, no control characters, never blank. */
/** A file name with a text-direction mark (`invoice\u202Efdp.exe`) is refused, not shown disguised. */
function refuseUnsafeName(raw: string): string {
  const problem = nameProblem('File name', raw);
  if (problem) throw badRequest(problem);
  return raw;
}

export function cleanFileName(raw: string): string {
  const base = path.posix
    .basename(raw.replace(/\\/g, '/'))
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim();
  return (base || 'attachment').slice(0, 200);
}

const readEarly = new WeakMap<FastifyRequest, ReadForm>();

/**
 * Reads a multipart form now (before its route runs) and keeps it for the route's `readForm`: the stream can be read
 * only once, and the Idempotency-Key's fingerprint needs the form's content before the route runs.
 */
export async function readFormEarly(request: FastifyRequest): Promise<ReadForm> {
  const form = await readForm(request);
  readEarly.set(request, form);
  return form;
}

/**
 * Reads a multipart form (text fields and files), or a JSON or urlencoded body, into one shape. Files over the
 * upload limit make the multipart reader throw its 413 error, which the error handler words.
 */
export async function readForm(request: FastifyRequest): Promise<ReadForm> {
  // a multipart form with an Idempotency-Key was read before the route, for its fingerprint (idempotency.ts)
  const early = readEarly.get(request);
  if (early) return early;
  if (!request.isMultipart()) {
    const body = request.body;
    const fields =
      body !== null && typeof body === 'object' && !Array.isArray(body)
        ? (body as Record<string, unknown>)
        : {};
    return { fields, files: {} };
  }
  const form: ReadForm = { fields: {}, files: {} };
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const content = await part.toBuffer();
        // a form posted without choosing a file still carries an empty file part
        if (!part.filename && content.length === 0) continue;
        form.files[part.fieldname] = {
          fileName: cleanFileName(refuseUnsafeName(part.filename ?? '')),
          contentType: (part.mimetype || 'application/octet-stream').slice(0, 100),
          content,
        };
      } else if (typeof part.value === 'string') {
        form.fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    // limits (413) keep their status; the parser's plain errors (no boundary, cut-off body) mean a broken form, not a fault of ours
    if (typeof (error as { statusCode?: unknown }).statusCode === 'number') throw error;
    throw badRequest(UNREADABLE_FORM);
  }
  return form;
}
