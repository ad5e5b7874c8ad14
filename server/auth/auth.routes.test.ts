import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAccount } from '../factories';
import { type TestContext, signIn, startTestApp, testEngines } from '../test/test-app';
import { useTestApp } from '../test/use-test-app';
import { FREE_FAILURES_PER_EMAIL, INVALID_CREDENTIALS } from './auth.service';

describe.each(testEngines())('auth routes on %s', (engine) => {
  const { ctx } = useTestApp(engine, { users: 0 });

  it('GET /api/auth/ answers 401 with errors when signed out', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/auth/' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ errors: ['Unauthorized'] });
  });

  it('signs in with a lower-cased email and answers the user with companyId', async () => {
    const account = await buildAccount(ctx.database.db);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: account.email.toUpperCase(), password: account.password },
    });
    expect(res.statusCode).toBe(200);
    const user = res.json();
    expect(user).toMatchObject({ id: account.userId, email: account.email, companyId: account.companyId });
    expect(user).not.toHaveProperty('password_hash');
    expect(JSON.stringify(user)).not.toContain('argon2');
    const cookie = res.cookies.find((c) => c.name === 'wm_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });

    const me = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/',
      headers: { cookie: `wm_session=${cookie!.value}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      email: account.email,
      companyId: account.companyId,
      company: { id: account.companyId },
    });
  });

  it('stores only a hash of the session token', async () => {
    const session = await signIn(ctx);
    const token = session.cookie.split('=')[1]!;
    const rows = await ctx.database.db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', session.userId)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).not.toBe(token);
  });

  it('answers 401 with a list of errors for a wrong password or an unknown email', async () => {
    const account = await buildAccount(ctx.database.db);
    const wrong = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: account.email, password: 'nope' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ errors: [INVALID_CREDENTIALS] });
    expect(wrong.cookies.find((c) => c.name === 'wm_session')).toBeUndefined();

    const unknown = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'nobody@example.test', password: 'whatever' },
    });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual({ errors: [INVALID_CREDENTIALS] });
  });

  it('answers 400 naming each missing field', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/api/auth/login', payload: {} });
    expect(res.statusCode).toBe(400);
    const { errors } = res.json() as { errors: string[] };
    expect(errors.some((e) => e.includes('Email is required.'))).toBe(true);
    expect(errors.some((e) => e.includes('Password is required.'))).toBe(true);

    const blank = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: '  ', password: '' },
    });
    expect(blank.statusCode).toBe(400);

    const broken = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toHaveProperty('errors');
  });

  it('rotates the session at login: the old cookie stops working', async () => {
    const first = await signIn(ctx);
    const again = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { cookie: first.cookie },
      payload: { email: first.email, password: first.password },
    });
    expect(again.statusCode).toBe(200);
    const newToken = again.cookies.find((c) => c.name === 'wm_session')!.value;
    expect(`wm_session=${newToken}`).not.toBe(first.cookie);
    expect((await first.request({ method: 'GET', url: '/api/auth/' })).statusCode).toBe(401);
    const fresh = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/',
      headers: { cookie: `wm_session=${newToken}` },
    });
    expect(fresh.statusCode).toBe(200);
  });

  it('logout ends the session on the server', async () => {
    const session = await signIn(ctx);
    const out = await session.request({ method: 'GET', url: '/api/auth/logout' });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ message: 'User logged out' });
    expect((await session.request({ method: 'GET', url: '/api/auth/' })).statusCode).toBe(401);
    const left = await ctx.database.db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', session.userId)
      .execute();
    expect(left).toHaveLength(0);
  });

  it('an expired session no longer signs anyone in', async () => {
    const session = await signIn(ctx);
    await ctx.database.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', session.userId)
      .execute();
    expect((await session.request({ method: 'GET', url: '/api/auth/' })).statusCode).toBe(401);
  });

  it('logout when signed out still answers 200', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/auth/logout' });
    expect(res.statusCode).toBe(200);
  });

  it('slows an email down after repeated failures, even with the right password', async () => {
    const account = await buildAccount(ctx.database.db);
    for (let i = 0; i < FREE_FAILURES_PER_EMAIL; i++) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: account.email, password: `bad-${i}` },
      });
      expect(res.statusCode).toBe(401);
    }
    const early = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: account.email, password: account.password },
    });
    expect(early.statusCode).toBe(429);
    expect(early.json()).toEqual({
      errors: ['Too many failed sign-ins for this e-mail. Try again in 1 second.'],
    });
  });

  it('refuses a write whose Origin is another site', async () => {
    const account = await buildAccount(ctx.database.db);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { origin: 'https://evil.example', host: 'localhost:3000' },
      payload: { email: account.email, password: account.password },
    });
    expect(res.statusCode).toBe(403);
    expect(res.cookies.find((c) => c.name === 'wm_session')).toBeUndefined();
  });

  it('answers unknown API paths with 404 and errors', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/does-not-exist' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ errors: ['Not found'] });
  });
});

describe.each(testEngines())('failed sign-ins per address on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp(engine, { LOGIN_RATE_LIMIT: '3' });
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('answers 429 once an address has used its failures; successes never count; other addresses still get in', async () => {
    const account = await buildAccount(ctx.database.db);
    const attempt = (ip: string, password: string, email = `nobody-${ip}-${password}@example.test`) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: ip,
        payload: { email, password },
      });
    // an office signs in many times from one address
    for (let i = 0; i < 10; i++)
      expect((await attempt('10.1.1.1', account.password, account.email)).statusCode).toBe(200);
    for (let i = 0; i < 3; i++) expect((await attempt('10.1.1.1', `wrong-${i}`)).statusCode).toBe(401);
    const limited = await attempt('10.1.1.1', 'wrong-again');
    expect(limited.statusCode).toBe(429);
    expect((limited.json() as { errors: string[] }).errors[0]).toMatch(
      /^Too many failed sign-ins from this address. Try again in 15 minutes.$/,
    );
    expect((await attempt('10.2.2.2', account.password, account.email)).statusCode).toBe(200);
    // without a trusted proxy in front, a forged X-Forwarded-For does not buy new attempts
    const forged = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: '10.1.1.1',
      headers: { 'x-forwarded-for': '203.0.113.9' },
      payload: { email: 'someone@example.test', password: 'wrong' },
    });
    expect(forged.statusCode).toBe(429);
  });
});
