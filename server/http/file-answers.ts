import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';

/** What a file route's handler sends: Fastify writes a string, buffer or stream as it is. */
type FileBody = string | Buffer | Readable;

/**
 * A route's file answer (a download: a PDF, a CSV, a spreadsheet, an archive, an image), declared with its content
 * types (decision 045). No serializer and no answer check is asked for a string, buffer or stream, so the schema only
 * describes the file in the OpenAPI document: a string of that media type.
 */
export function fileAnswer(contentTypes: string | readonly string[], description: string) {
  return {
    description,
    content: Object.fromEntries(
      [contentTypes].flat().map((type) => [
        type,
        {
          schema: z
            .custom<FileBody>(() => true)
            .meta({ type: 'string', contentMediaType: type, description }),
        },
      ]),
    ),
  };
}

/** The header that makes a browser save the answer as a file named `name`. */
export const attachment = (name: string) => `attachment; filename="${name}"`;

/**
 * Sends a PDF as a download named `name`, never cached (an invoice or a statement changes as it is paid). A finished
 * PDF, or one drawn as it is sent (chunked, no length): by then every check has passed, so the answer is 200; should
 * drawing fail after the first bytes, the connection is cut and the client sees a broken download.
 */
export function sendPdf(
  reply: FastifyReply,
  name: string,
  pdf: Uint8Array | AsyncIterable<Uint8Array>,
): FastifyReply {
  reply
    .type('application/pdf')
    .header('Content-Disposition', attachment(name))
    .header('Cache-Control', 'no-store');
  return sendBytes(reply, pdf instanceof Uint8Array ? pdf : Readable.from(pdf, { objectMode: false }));
}

/** Sends file bytes from a route whose answer is declared with `fileAnswer` (pdf-lib gives a Uint8Array). */
export function sendBytes(reply: FastifyReply, bytes: Uint8Array | NodeJS.ReadableStream): FastifyReply {
  return reply.send(
    bytes instanceof Uint8Array && !Buffer.isBuffer(bytes)
      ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
      : bytes,
  );
}
