import crypto from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ActivityPageDto } from '@domain/schemas/activity.schema';
import type { ApiTokenDto, CreatedApiTokenDto } from '@domain/schemas/api-access.schema';
import { buildApp } from '../../app';
import { TOKEN_INVALID, TOKEN_NOT_ACCEPTED } from '../../auth/session.plugin';
import { environmentWith, loadConfig } from '../../config';
import { buildAccount, buildWarehouse } from '../../factories';
import { type SignedIn, signIn, testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';

describe.each(testEngines())('API tokens on %s', (engine) => {
  const { ctx, user: boss, other } = useTestApp(engine);
  let warehouseId: number;
  let fieldId: number;

  const createToken = async (who: SignedIn, payload: object) => {
    const res = await who.request({ method: 'POST', url: '/api/api-tokens', payload });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as CreatedApiTokenDto;
  };
  const withToken = (secret: string, options: InjectOptions) =>
    ctx.app.inject({ ...options, headers: { ...options.headers, authorization: `Bearer ${secret}` } });

  beforeAll(async () => {
    const warehouse = await buildWarehouse(ctx.database.db, {
      companyId: boss.companyId,
      name: 'Token Depot',
      rows: 2,
      cols: 2,
    });
    warehouseId = warehouse.id;
    fieldId = warehouse.field('A1').id;
  });

  it('shows the secret once, keeps only its hash, and lists the token with its role and no secret', async () => {
    const { token, secret } = await createToken(boss, { name: 'Dispatch sync', role: 'floor' });
    expect(secret).toMatch(/^wmt_[A-Za-z0-9_-]{43}$/);
    expect(token).toMatchObject({
      name: 'Dispatch sync',
      role: 'floor',
      status: 'active',
      last_used_at: null,
    });
    expect(token.hint).toBe(secret.slice(-4));
    const listed = await boss.request({ method: 'GET', url: '/api/api-tokens' });
    expect(listed.body).not.toContain(secret);
    expect((listed.json() as ApiTokenDto[]).map((t) => t.name)).toContain('Dispatch sync');
    const row = await ctx.database.db
      .selectFrom('api_tokens')
      .selectAll()
      .where('id', '=', token.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(secret.slice(4));
    expect(row.secret_hash).toBe(crypto.createHash('sha256').update(secret).digest('hex'));
  });

  it("acts with the token's role in its company, and notes when it was last used", async () => {
    const viewer = await createToken(boss, { name: 'Read only', role: 'viewer' });
    const read = await withToken(viewer.secret, { method: 'GET', url: `/api/warehouse/${warehouseId}` });
    expect(read.statusCode, read.body).toBe(200);
    const write = await withToken(viewer.secret, {
      method: 'POST',
      url: '/api/vaults/',
      payload: { vault_id: 'T-1', customer_name: 'Tia', field_id: fieldId, position: 3 },
    });
    expect(write.statusCode).toBe(403);
    // the other company's warehouse is not there for this token
    const otherWarehouse = await buildWarehouse(ctx.database.db, {
      companyId: other.companyId,
      rows: 1,
      cols: 1,
    });
    expect(
      (await withToken(viewer.secret, { method: 'GET', url: `/api/warehouse/${otherWarehouse.id}` }))
        .statusCode,
    ).toBe(404);
    const listed = (await boss.request({ method: 'GET', url: '/api/api-tokens' })).json() as ApiTokenDto[];
    expect(listed.find((t) => t.id === viewer.token.id)!.last_used_at).not.toBeNull();
  });

  it('records changes made through a token in the history as "<member> via token <name>"', async () => {
    const floor = await createToken(boss, { name: 'Floor robot', role: 'floor' });
    const added = await withToken(floor.secret, {
      method: 'POST',
      url: '/api/vaults/',
      payload: { vault_id: 'T-2', customer_name: 'Tom', order_name: 'T-ORD', field_id: fieldId, position: 3 },
    });
    expect(added.statusCode, added.body).toBe(201);
    const page = (await boss.request({ method: 'GET', url: '/api/activity' })).json() as ActivityPageDto;
    const entry = page.items.find((item) => item.kind === 'vault.added' && item.subject === 'T-2');
    expect(entry?.actor).toBe(`${boss.email.split('@')[0]} via token Floor robot`);
    // a session's change names the member alone
    const own = page.items.find((item) => item.kind === 'api-token.created');
    expect(own?.actor).toBe(boss.email.split('@')[0]);
  });

  it('refuses a revoked token at once, on every server process of the database', async () => {
    const { token, secret } = await createToken(boss, { name: 'Short lived', role: 'viewer' });
    // a second server process on the same database
    const second = await buildApp({
      config: loadConfig(environmentWith({ WEBHOOK_POLL_SECONDS: '0' })),
      database: ctx.database,
      logger: false,
    });
    await second.ready();
    try {
      const asked = (options: InjectOptions) =>
        second.inject({ ...options, headers: { authorization: `Bearer ${secret}` } });
      expect((await asked({ method: 'GET', url: '/api/stage/vaults' })).statusCode).toBe(200);
      const revoked = await boss.request({ method: 'DELETE', url: `/api/api-tokens/${token.id}` });
      expect(revoked.statusCode).toBe(200);
      expect((revoked.json() as ApiTokenDto).status).toBe('revoked');
      for (const app of [second, ctx.app]) {
        const res = await app.inject({
          method: 'GET',
          url: '/api/stage/vaults',
          headers: { authorization: `Bearer ${secret}` },
        });
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual({ errors: [TOKEN_INVALID] });
      }
    } finally {
      await second.close();
    }
  });

  it('refuses an expired token, and an expiry in the past', async () => {
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const { token, secret } = await createToken(boss, {
      name: 'Until tomorrow',
      role: 'viewer',
      expires_on: tomorrow,
    });
    expect(token.expires_at).toBe(`${tomorrow}T23:59:59.999Z`);
    expect((await withToken(secret, { method: 'GET', url: '/api/stage/vaults' })).statusCode).toBe(200);
    await ctx.database.db
      .updateTable('api_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', token.id)
      .execute();
    expect((await withToken(secret, { method: 'GET', url: '/api/stage/vaults' })).statusCode).toBe(401);
    const listed = (await boss.request({ method: 'GET', url: '/api/api-tokens' })).json() as ApiTokenDto[];
    expect(listed.find((t) => t.id === token.id)!.status).toBe('expired');
    const past = await boss.request({
      method: 'POST',
      url: '/api/api-tokens',
      payload: { name: 'Yesterday', role: 'viewer', expires_on: '2001-01-01' },
    });
    expect(past.statusCode).toBe(400);
    expect(past.json()).toEqual({ errors: ['Expiry must be today or later.'] });
  });

  it('never opens sign-in, who-am-I, profile, one-time link or live stream routes', async () => {
    const { secret } = await createToken(boss, { name: 'Manager robot', role: 'manager' });
    for (const [method, url, payload] of [
      ['GET', '/api/auth/', undefined],
      ['POST', '/api/auth/login', { email: boss.email, password: boss.password }],
      ['POST', '/api/auth/logout', undefined],
      ['PATCH', '/api/profile', { name: 'Robot' }],
      ['POST', '/api/team/link', { token: 'x' }],
      ['POST', '/api/team/link/accept', { token: 'x', password: 'correct horse battery staple' }],
      ['GET', '/api/events', undefined],
    ] as const) {
      const res = await withToken(secret, { method, url, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json()).toEqual({ errors: [TOKEN_NOT_ACCEPTED] });
    }
    // the same token works on the API
    expect((await withToken(secret, { method: 'GET', url: '/api/team' })).statusCode).toBe(200);
  });

  it('refuses made-up tokens, and a token whose Manager is no longer a Manager', async () => {
    for (const header of ['Bearer ', 'Bearer wmt_made-up', `Bearer ${'x'.repeat(300)}`]) {
      const res = await ctx.app.inject({
        method: 'GET',
        url: '/api/stage/vaults',
        headers: { authorization: header },
      });
      expect(res.statusCode, header).toBe(401);
    }
    const second = await signIn(ctx, await buildAccount(ctx.database.db, { company: boss.companyName }));
    const { secret } = await createToken(second, { name: 'Of a demoted manager', role: 'viewer' });
    expect((await withToken(secret, { method: 'GET', url: '/api/stage/vaults' })).statusCode).toBe(200);
    const members = (await boss.request({ method: 'GET', url: '/api/team' })).json() as {
      members: { id: number; email: string }[];
    };
    const secondId = members.members.find((m) => m.email === second.email)!.id;
    const demoted = await boss.request({
      method: 'PATCH',
      url: `/api/team/members/${secondId}`,
      payload: { role: 'viewer' },
    });
    expect(demoted.statusCode, demoted.body).toBe(200);
    expect((await withToken(secret, { method: 'GET', url: '/api/stage/vaults' })).statusCode).toBe(401);
  });

  it('refuses bad input with a readable message, and leaves the other company its own tokens', async () => {
    for (const payload of [
      { role: 'viewer' },
      { name: 'X', role: 'owner' },
      { name: 'X', role: 'viewer', expires_on: 'soon' },
    ]) {
      const res = await boss.request({ method: 'POST', url: '/api/api-tokens', payload });
      expect(res.statusCode).toBe(400);
      expect((res.json() as { errors: string[] }).errors.length).toBeGreaterThan(0);
    }
    const { token } = await createToken(boss, { name: 'Alpha only', role: 'viewer' });
    expect((await other.request({ method: 'DELETE', url: `/api/api-tokens/${token.id}` })).statusCode).toBe(
      404,
    );
    const theirs = (await other.request({ method: 'GET', url: '/api/api-tokens' })).json() as ApiTokenDto[];
    expect(theirs.map((t) => t.name)).not.toContain('Alpha only');
  });
});
