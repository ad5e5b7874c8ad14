import { describe, expect, it } from 'vitest';
import { buildAccount } from '../factories';
import { testEngines } from '../test/test-app';
import { useTestApp } from '../test/use-test-app';
import { emailDelaySeconds, tooManyForEmail } from './auth.service';

// Finding 5: anyone could lock any account out (five wrong passwords, 15 minutes, again and again), and ten
// sign-ins a minute per address, successes included, locked out an office behind one shared address.
describe.each(testEngines())('sign-in limits on %s', (engine) => {
  // the shipped default: 100 failures per address per 15 minutes
  const { ctx } = useTestApp(engine, { env: { LOGIN_RATE_LIMIT: '100' }, users: 0 });

  const login = (email: string, password: string, ip = '192.0.2.10') =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: ip,
      payload: { email, password },
    });
  /** moves the e-mail's failures into the past, as if the caller had waited */
  const wait = (email: string, seconds: number) =>
    ctx.database.db
      .updateTable('login_failures')
      .set({ created_at: new Date(Date.now() - seconds * 1000).toISOString() })
      .where('email', '=', email)
      .execute();
  const failures = async (email: string) =>
    (await ctx.database.db.selectFrom('login_failures').select('id').where('email', '=', email).execute())
      .length;

  it('waits grow 1 s, 2 s, 4 s ... after five failures and stop at 60 s', () => {
    expect([0, 4, 5, 6, 7, 8, 10, 11, 12, 50].map(emailDelaySeconds)).toEqual([
      0, 0, 1, 2, 4, 8, 32, 60, 60, 60,
    ]);
  });

  it('five failures by a stranger cost the owner a second, not 15 minutes; an early attempt is 429 and not counted', async () => {
    const owner = await buildAccount(ctx.database.db);
    for (let i = 0; i < 5; i++)
      expect((await login(owner.email, `guess-${i}`, `198.51.100.${i}`)).statusCode).toBe(401);
    const early = await login(owner.email, owner.password);
    expect(early.statusCode).toBe(429);
    expect(early.json()).toEqual({ errors: [tooManyForEmail(1)] });
    expect(await failures(owner.email)).toBe(5);

    await wait(owner.email, 2);
    const ok = await login(owner.email, owner.password);
    expect(ok.statusCode, ok.body).toBe(200);
    // a success clears the e-mail's failures: the next mistake starts from nothing
    expect(await failures(owner.email)).toBe(0);
    expect((await login(owner.email, 'typo')).statusCode).toBe(401);
  });

  it('each further failure doubles the wait, and the answer says how long', async () => {
    const owner = await buildAccount(ctx.database.db);
    for (let i = 0; i < 5; i++) expect((await login(owner.email, `guess-${i}`)).statusCode).toBe(401);
    for (const seconds of [1, 2, 4, 8]) {
      const early = await login(owner.email, 'another-guess');
      expect(early.json()).toEqual({ errors: [tooManyForEmail(seconds)] });
      await wait(owner.email, seconds + 1);
      expect((await login(owner.email, `guess-after-${seconds}`)).statusCode).toBe(401);
    }
    await ctx.database.db
      .insertInto('login_failures')
      .values(
        Array.from({ length: 30 }, () => ({
          email: owner.email,
          ip: '203.0.113.1',
          created_at: new Date().toISOString(),
        })),
      )
      .execute();
    expect((await login(owner.email, owner.password)).json()).toEqual({ errors: [tooManyForEmail(60)] });
  });

  // 30 accounts and 90 sign-ins each hash a password: seconds of CPU, more on a busy machine
  it(
    'thirty staff behind one address sign in (and mistype once each) without being turned away',
    { timeout: 120_000 },
    async () => {
      const staff = [];
      for (let i = 0; i < 30; i++) staff.push(await buildAccount(ctx.database.db));
      const officeIp = '192.0.2.77';
      for (const person of staff) {
        expect((await login(person.email, 'caps-lock-was-on', officeIp)).statusCode).toBe(401);
        expect((await login(person.email, person.password, officeIp)).statusCode).toBe(200);
        expect((await login(person.email, person.password, officeIp)).statusCode).toBe(200);
      }
    },
  );

  it('counts failures in the database, so every server process sees them', async () => {
    const owner = await buildAccount(ctx.database.db);
    for (let i = 0; i < 3; i++) expect((await login(owner.email, `guess-${i}`)).statusCode).toBe(401);
    const rows = await ctx.database.db
      .selectFrom('login_failures')
      .select(['email', 'ip'])
      .where('email', '=', owner.email)
      .execute();
    expect(rows).toEqual(Array.from({ length: 3 }, () => ({ email: owner.email, ip: '192.0.2.10' })));
  });
});
