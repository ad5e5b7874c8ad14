import { describe, expect, it } from 'vitest';
import { NewAccountSchema } from './auth.schema';
import { EMAIL_MAX_LENGTH, EMAIL_TOO_LONG } from './form-values';
import { InviteSchema } from './team.schema';

// a domain of 195 characters, so that the address reaches any length with a local part of at most 64
const domain = `${'d'.repeat(60)}.${'e'.repeat(60)}.${'f'.repeat(60)}.example.test`;
const address = (length: number) => `${'a'.repeat(length - domain.length - 1)}@${domain}`;

describe('an e-mail address a member or a new account is known by', () => {
  const schemas = {
    invitation: (email: string) => InviteSchema.safeParse({ email, role: 'floor' }),
    'new account': (email: string) =>
      NewAccountSchema.safeParse({ company: 'Acme Moving', email, password: 'orbit-lantern-pebble-42' }),
  };

  it.each(Object.entries(schemas))('%s: takes 254 characters, refuses 255 and 300 in words', (_, parse) => {
    expect(parse(address(EMAIL_MAX_LENGTH)).success).toBe(true);
    for (const length of [255, 300]) {
      const result = parse(address(length));
      expect(result.success).toBe(false);
      expect(result.error!.issues.map((issue) => issue.message)).toEqual([EMAIL_TOO_LONG]);
    }
  });

  it.each(Object.entries(schemas))('%s: trimmed and stored in lower case', (_, parse) => {
    const result = parse('  Fran.Floor@Example.TEST ');
    expect(result.success && result.data.email).toBe('fran.floor@example.test');
  });
});
