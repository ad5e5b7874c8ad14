import { describe, expect, it } from 'vitest';
import { testEngines } from '../test/test-app';
import { useTestApp } from '../test/use-test-app';
import { EventIdTokens } from './event-id-token';

describe.each(testEngines())('sealed event ids on %s', (engine) => {
  const { ctx } = useTestApp(engine, { users: 0 });
  const { ctx: other } = useTestApp(engine, { users: 0 });

  it('opens for the company it was sealed for, in every process on the same database, and nowhere else', async () => {
    // two loads stand for two server processes, or one before and after a restart
    const first = await EventIdTokens.load(ctx.database.db);
    const second = await EventIdTokens.load(ctx.database.db);
    const elsewhere = await EventIdTokens.load(other.database.db);
    const token = first.seal(7, 123_456);
    expect(second.open(token, 7)).toBe(123_456);
    expect(first.open(token, 8)).toBeNull();
    expect(elsewhere.open(token, 7)).toBeNull();
    // the same point sealed twice looks different, so equal tokens tell nothing either
    expect(first.seal(7, 123_456)).not.toBe(token);
    expect(first.open(first.seal(7, 0), 7)).toBe(0);
  });

  it('refuses every altered token and anything that is not one', async () => {
    const tokens = await EventIdTokens.load(ctx.database.db);
    const token = tokens.seal(3, 42);
    const bytes = Buffer.from(token, 'base64url');
    for (let i = 0; i < bytes.length; i += 1) {
      const altered = Buffer.from(bytes);
      altered[i] = altered[i]! ^ 0x01;
      expect(tokens.open(altered.toString('base64url'), 3)).toBeNull();
    }
    for (const junk of ['', '42', token.slice(1), `${token}A`, `${token}=`, 'é'.repeat(59), ' '.repeat(59)])
      expect(tokens.open(junk, 3)).toBeNull();
  });

  it('keeps the key in the database: a missing key is made again, and old tokens stop opening', async () => {
    const before = await EventIdTokens.load(other.database.db);
    const token = before.seal(5, 9);
    await other.database.db.deleteFrom('installation_secrets').execute();
    const after = await EventIdTokens.load(other.database.db);
    expect(after.open(token, 5)).toBeNull();
    expect(after.open(after.seal(5, 9), 5)).toBe(9);
    const rows = await other.database.db.selectFrom('installation_secrets').select('name').execute();
    expect(rows).toEqual([{ name: 'event-id-key' }]);
  });
});
