import { z } from 'zod';
import { MAX_ROW_ID } from './form-values';

/** plain decimal digits without sign, spaces, leading zeros, exponent or hex: `4`, never `0x4`, `4e0` or ` 4` */
export const ID_TEXT = /^[1-9][0-9]{0,9}$/;

/**
 * A row id in a path (`/api/vaults/:id`), read as a number. Anything else cannot name a row of the caller's, so the
 * refusal is the resource's not-found message (the server answers it with 404, decision 045).
 */
export const pathId = (notFoundMessage: string) =>
  z
    .string()
    .regex(ID_TEXT, { error: notFoundMessage })
    .refine((text) => Number(text) <= MAX_ROW_ID, { error: notFoundMessage })
    .transform(Number);

/**
 * A name in a path (`/api/checklists/warehouse/:name`): at most `max` characters and no control character (PostgreSQL
 * cannot even compare a text holding NUL). Anything else names nothing, so the refusal is the not-found message.
 */
export const pathName = (notFoundMessage: string, max = 200) =>
  z
    .string()
    .max(max, { error: notFoundMessage })
    // eslint-disable-next-line no-control-regex -- control characters are what it refuses
    .regex(/^[^\u0000-\u001f\u007f]*$/, { error: notFoundMessage });

/** The params of a route with one `:id`. */
export const idParams = (notFoundMessage: string) => z.object({ id: pathId(notFoundMessage) });

/** A route's answer that carries only a confirmation, e.g. `{ ok: true }` or `{ message }`. */
export const OkAnswerSchema = z.object({ ok: z.literal(true) });
export const MessageAnswerSchema = z.object({ message: z.string() });

/** A refusal: one readable message per problem (every 4xx and 5xx answer). */
export const ErrorsAnswerSchema = z.object({ errors: z.array(z.string()) });
