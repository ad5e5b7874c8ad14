import { z } from 'zod';
import { freeTextProblem, nameProblem } from '../rules/text';

// Forms post strings; JSON posts numbers and booleans. These accept both and say clearly what is wrong.
export const intFrom = (label: string, min: number, max: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
    z
      .number({ error: `${label} must be a whole number.` })
      .int(`${label} must be a whole number.`)
      .min(min, `${label} must be at least ${min}.`)
      .max(max, `${label} must be at most ${max}.`),
  );

/** The largest id a row can have (a 32-bit integer column on PostgreSQL). */
export const MAX_ROW_ID = 2_147_483_647;

/** A row's id, as a form or JSON sends it. */
export const rowId = (label: string) => intFrom(label, 1, MAX_ROW_ID);

export const decimalFrom = (label: string, min: number, max: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
    z
      .number({ error: `${label} must be a number.` })
      .refine(Number.isFinite, `${label} must be a number.`)
      .min(min, `${label} must be at least ${min}.`)
      .max(max, `${label} must be at most ${max}.`),
  );

/** A key a form sends blank (empty, only spaces, or null) when it has no choice to make: read as absent. */
export const blankAsAbsent = (v: unknown) =>
  v === '' || v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v;

/** Optional text: trimmed, with blank read as absent. */
export const optionalText = (label: string, max: number) =>
  z.preprocess(
    (v) => (v === null || v === undefined ? undefined : typeof v === 'string' ? v.trim() : v),
    z
      .string({ error: `${label} must be text.` })
      .max(max, `${label} must be at most ${max} characters.`)
      .optional(),
  );

/** Adds the shared name rule (domain/rules/text.ts) to a string schema. */
export const safeName = <S extends z.ZodType<string | undefined>>(label: string, schema: S) =>
  schema.superRefine((value, ctx) => {
    const problem = typeof value === 'string' ? nameProblem(label, value) : null;
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** Adds the shared free-text rule (line breaks allowed) to a string schema. */
export const safeText = <S extends z.ZodType<string | undefined>>(label: string, schema: S) =>
  schema.superRefine((value, ctx) => {
    const problem = typeof value === 'string' ? freeTextProblem(label, value) : null;
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** A customer's name on a vault or a pallet: required, at most 100 characters, stored in capitals. */
export const customerName = safeName(
  'Customer name',
  z
    .string({ error: 'Customer name is required.' })
    .trim()
    .min(1, 'Customer name is required.')
    .max(100, 'Customer name must be at most 100 characters.')
    .transform((s) => s.toUpperCase()),
);

/** The longest e-mail address that can be delivered (RFC 5321's 256-character path less its angle brackets). */
export const EMAIL_MAX_LENGTH = 254;
export const EMAIL_TOO_LONG = `Email must be at most ${EMAIL_MAX_LENGTH} characters.`;

/** An e-mail address a member or a new account is known by: trimmed, at most 254 characters, stored in lower case. */
export const emailAddress = z
  .string({ error: 'A valid email is required.' })
  .trim()
  .max(EMAIL_MAX_LENGTH, EMAIL_TOO_LONG)
  .pipe(z.email('A valid email is required.'))
  .transform((email) => email.toLowerCase());
