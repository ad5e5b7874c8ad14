import type { FastifyReply } from 'fastify';
import { z } from 'zod';

/**
 * The declaration of an answer that is a file (a PDF, a CSV, a spreadsheet, an image), decision 045: the document
 * names its content type; the serializer is never asked for it, since a string, buffer or stream is sent as it is.
 */
export function fileAnswer(contentType: string, description: string) {
  return {
    description,
    content: { [contentType]: { schema: z.string().describe(`the file (${contentType})`) } },
  };
}

/** Sends file bytes from a route whose answer is declared with `fileAnswer` (its typed reply expects a string). */
export function sendBytes(reply: FastifyReply, bytes: Uint8Array | NodeJS.ReadableStream): FastifyReply {
  return reply.send(
    bytes instanceof Uint8Array && !Buffer.isBuffer(bytes)
      ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
      : bytes,
  );
}
