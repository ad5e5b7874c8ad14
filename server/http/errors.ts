import type { z } from 'zod';
import { MAX_ROW_ID as MAX_ID } from '@domain/schemas/form-values';
import { ID_TEXT } from '@domain/schemas/route-params';
import { isLostRace } from '../db/locks';
import { isDatabaseUnavailable, isDiskFull } from '../db/database';

/** A refusal with a status and readable messages; the error handler turns it into `{ errors: [...] }`. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly messages: string[],
  ) {
    super(messages.join(' '));
  }
}

export const badRequest = (...messages: string[]) => new HttpError(400, messages);
export const unauthorized = (message = 'Unauthorized') => new HttpError(401, [message]);
export const forbidden = (message: string) => new HttpError(403, [message]);
export const notFound = (message = 'Not found') => new HttpError(404, [message]);
export const conflict = (message: string) => new HttpError(409, [message]);

export const LOST_RACE =
  'Someone else changed this warehouse at the same moment. Nothing was saved; please try again.';

/** A write that lost a race with another writer (deadlock, serialization failure, ...) is a 409, not a server error. */
export function lostRaceConflict(error: unknown): HttpError | undefined {
  return isLostRace(error) ? conflict(LOST_RACE) : undefined;
}

export const DATABASE_UNREACHABLE =
  'The database is not reachable right now. Nothing was saved; please try again.';
export const DISK_FULL = "The server's disk is full. Nothing was saved; please tell your administrator.";

/**
 * A database fault no client can fix, answered in words instead of a bare 500: 503 while the database is down or
 * restarting (trying again later works), 507 when its disk is full. Undefined for any other error.
 */
export function databaseFault(error: unknown): HttpError | undefined {
  if (isDiskFull(error)) return new HttpError(507, [DISK_FULL]);
  if (isDatabaseUnavailable(error)) return new HttpError(503, [DATABASE_UNREACHABLE]);
  return undefined;
}

/** One readable line per zod problem: `field: message`, or the message alone for the whole input. */
export function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return `${where}${issue.message}`;
}

/** Validates input with a domain schema; a mismatch answers 400 with one message per problem. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (!result.success) throw new HttpError(400, result.error.issues.map(describeIssue));
  return result.data;
}

/** A path id that is not a plain positive decimal integer cannot name anything of the caller's: 404. */
export function parseId(raw: unknown, what = 'Not found'): number {
  const text = typeof raw === 'number' ? String(raw) : raw;
  if (typeof text !== 'string' || !ID_TEXT.test(text)) throw notFound(what);
  const id = Number(text);
  if (id > MAX_ID) throw notFound(what);
  return id;
}
