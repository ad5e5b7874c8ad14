import type { Readable } from 'node:stream';
import { z } from 'zod';

/** What a file route's handler sends: Fastify writes a string, buffer or stream as it is. */
type FileBody = string | Buffer | Readable;

/**
 * A route's file answer (a download: a spreadsheet, an archive), declared with its content types (decision 045).
 * No serializer and no answer check is asked for a string, buffer or stream, so the schema only describes the file
 * in the OpenAPI document: a string of that media type.
 */
export function fileAnswer(contentTypes: readonly string[], description: string) {
  return {
    description,
    content: Object.fromEntries(
      contentTypes.map((type) => [
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
