import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { MemberLinkDto, TeamDto } from '@domain/schemas/team.schema';
import { guardRoutesByRole } from '../../auth/route-roles';
import { ACCOUNT_DEACTIVATED, INVALID_CREDENTIALS } from '../../auth/auth.service';
import { buildAccount, buildStagedVault, buildWarehouse } from '../../factories';
import { signIn, testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';
import { EMAIL_TOO_LONG } from '@domain/schemas/form-values';
import {
  ALREADY_A_MEMBER,
  DEACTIVATED_MEMBER,
  LAST_MANAGER,
  LINK_NOT_FOUND,
  LINK_NOT_OPEN,
  LINK_UNUSABLE,
  WRONG_PASSWORD,
} from './team.service';

const STRONG = 'orbit-lantern-pebble-42';
const tokenOf = (link: MemberLinkDto) => link.path.split('#')[1]!;

describe('a route without a role declaration', () => {
  it('stops the server at start-up, by name', async () => {
    const app = Fastify();
    guardRoutesByRole(app);
    expect(() => app.get('/api/nobody-declared-me', async () => ({}))).toThrow(
      'GET /api/nobody-declared-me declares no role',
    );
    await app.close();
  });
});

describe.each(testEngines())('team, roles and one-time links on %s', (engine) => {
  const { ctx, user: boss } = useTestApp(engine, { users: 1 });

  const invite = async (email: string, role: string) => {
    const res = await boss.request({ method: 'POST', url: '/api/team/invites', payload: { email, role } });
    expect(res.statusCode).toBe(201);
    return res.json() as MemberLinkDto;
  };
  const accept = (token: string, name: string, password = STRONG) =>
    ctx.app.inject({ method: 'POST', url: '/api/team/link/accept', payload: { token, name, password } });
  const cookieOf = (res: { cookies: { name: string; value: string }[] }) =>
    `wm_session=${res.cookies.find((c) => c.name === 'wm_session')!.value}`;
  const as = (
    cookie: string,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
  ) => ctx.app.inject({ method, url, headers: { cookie }, ...(payload && { payload }) });
  const team = async () => (await boss.request({ method: 'GET', url: '/api/team' })).json() as TeamDto;
  const join = async (role: string) => {
    const email = `${role}-${Math.random().toString(36).slice(2)}@example.test`;
    const res = await accept(tokenOf(await invite(email, role)), `New ${role}`);
    expect(res.statusCode).toBe(200);
    return { email, cookie: cookieOf(res), id: (res.json() as { id: number }).id };
  };

  it('the first user of a company is a Manager, and GET /api/auth/ names the role', async () => {
    const me = await boss.request({ method: 'GET', url: '/api/auth/' });
    expect(me.json()).toMatchObject({ id: boss.userId, role: 'manager' });
  });

  it('invites by a one-time link: only its hash is stored, it works once and signs the new member in', async () => {
    const email = 'floor.member@example.test';
    const link = await invite(email, 'floor');
    expect(link.path).toMatch(/^\/join#[\w-]{40,}$/);
    expect(Date.parse(link.expiresAt)).toBeGreaterThan(Date.now() + 6 * 24 * 3_600_000);
    const stored = await ctx.database.db.selectFrom('member_links').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(tokenOf(link));
    expect((await team()).invites.map((i) => i.email)).toContain(email);

    const info = await ctx.app.inject({
      method: 'POST',
      url: '/api/team/link',
      payload: { token: tokenOf(link) },
    });
    expect(info.json()).toEqual({ kind: 'invite', email, company: boss.companyName, name: null });

    const weak = await accept(tokenOf(link), 'Fran Floor', 'password1234');
    expect(weak.statusCode).toBe(400);
    const joined = await accept(tokenOf(link), 'Fran Floor');
    expect(joined.statusCode).toBe(200);
    expect(joined.json()).toMatchObject({
      email,
      username: 'Fran Floor',
      role: 'floor',
      companyId: boss.companyId,
    });
    const me = await as(cookieOf(joined), 'GET', '/api/auth/');
    expect(me.json()).toMatchObject({ email, role: 'floor' });

    const again = await accept(tokenOf(link), 'Mallory');
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ errors: [LINK_UNUSABLE] });
    const members = (await team()).members;
    expect(members.find((m) => m.email === email)).toMatchObject({
      role: 'floor',
      active: true,
      name: 'Fran Floor',
    });
    // joining signs the member in: the team page shows when (issue 34)
    expect(members.find((m) => m.email === email)!.lastSignInAt).not.toBeNull();
    expect((await team()).invites.map((i) => i.email)).not.toContain(email);
  });

  it('refuses an expired link and an invitation for an email that already has an account', async () => {
    const link = await invite('late@example.test', 'viewer');
    await ctx.database.db
      .updateTable('member_links')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('email', '=', 'late@example.test')
      .execute();
    expect((await accept(tokenOf(link), 'Late')).statusCode).toBe(404);
    const taken = await boss.request({
      method: 'POST',
      url: '/api/team/invites',
      payload: { email: boss.email, role: 'floor' },
    });
    expect(taken.statusCode).toBe(409);
  });

  it('inviting an address again renews its invitation: listed once, only the new link works, gone once joined', async () => {
    const email = `twice-${Math.random().toString(36).slice(2)}@example.test`;
    const first = await invite(email, 'viewer');
    const second = await invite(email.toUpperCase(), 'floor');
    const open = (await team()).invites.filter((i) => i.email === email);
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({ id: second.id, role: 'floor', expiresAt: second.expiresAt });
    // the earlier link stops working: only the newest one reaches the person
    expect((await accept(tokenOf(first), 'Old Link')).statusCode).toBe(404);

    const joined = await accept(tokenOf(second), 'Twice Invited');
    expect(joined.statusCode).toBe(200);
    expect(joined.json()).toMatchObject({ email, role: 'floor' });
    const after = await team();
    expect(after.invites.map((i) => i.email)).not.toContain(email);
    expect(after.members.filter((m) => m.email === email)).toHaveLength(1);
    // the member is on the team now: a further invitation is refused in words
    const again = await boss.request({
      method: 'POST',
      url: '/api/team/invites',
      payload: { email, role: 'viewer' },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ errors: [ALREADY_A_MEMBER] });
  });

  it('renews an invitation once when two requests invite the same address at once', async () => {
    const email = `together-${Math.random().toString(36).slice(2)}@example.test`;
    const results = await Promise.all(
      [1, 2, 3].map(() =>
        boss.request({ method: 'POST', url: '/api/team/invites', payload: { email, role: 'viewer' } }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual([201, 201, 201]);
    expect((await team()).invites.filter((i) => i.email === email)).toHaveLength(1);
  });

  it("refuses a member's own address in words, and says how a deactivated member comes back", async () => {
    const active = await boss.request({
      method: 'POST',
      url: '/api/team/invites',
      payload: { email: boss.email, role: 'floor' },
    });
    expect(active.statusCode).toBe(409);
    expect(active.json()).toEqual({ errors: [ALREADY_A_MEMBER] });

    const member = await join('viewer');
    await boss.request({
      method: 'PATCH',
      url: `/api/team/members/${member.id}`,
      payload: { active: false },
    });
    const inactive = await boss.request({
      method: 'POST',
      url: '/api/team/invites',
      payload: { email: member.email, role: 'viewer' },
    });
    expect(inactive.statusCode).toBe(409);
    expect(inactive.json()).toEqual({ errors: [DEACTIVATED_MEMBER] });
    expect((await team()).invites.map((i) => i.email)).not.toContain(member.email);
  });

  it('refuses an address longer than 254 characters in words, and takes one of exactly 254', async () => {
    const domain = `${'d'.repeat(60)}.${'e'.repeat(60)}.${'f'.repeat(60)}.example.test`;
    const address = (length: number) => `${'a'.repeat(length - domain.length - 1)}@${domain}`;
    const long = await boss.request({
      method: 'POST',
      url: '/api/team/invites',
      payload: { email: address(300), role: 'viewer' },
    });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toEqual({ errors: [`email: ${EMAIL_TOO_LONG}`] });
    const longest = await boss.request({
      method: 'POST',
      url: '/api/team/invites',
      payload: { email: address(254), role: 'viewer' },
    });
    expect(longest.statusCode, longest.body).toBe(201);
    expect((await team()).invites.map((i) => i.email)).toContain(address(254));
  });

  it('Floor moves vaults but changes no layout; a Viewer changes nothing; each refusal is a 403 in words', async () => {
    const floor = await join('floor');
    const viewer = await join('viewer');
    const warehouse = await buildWarehouse(ctx.database.db, { companyId: boss.companyId, rows: 2, cols: 2 });
    const staged = await buildStagedVault(ctx.database.db, {
      companyId: boss.companyId,
      customerName: 'ROLE TEST',
    });
    // a new warehouse's fields hold two placeholders each (as in the isolation matrix): slot 3 is the next free one
    const move = { vaultId: staged.id, fieldId: warehouse.field('A1').id, position: 3 };

    const refused = await as(viewer.cookie, 'PUT', '/api/vaults/move', move);
    expect(refused.statusCode).toBe(403);
    expect((refused.json() as { errors: string[] }).errors[0]).toMatch(/can only view/);
    expect((await as(viewer.cookie, 'GET', `/api/vaults/${staged.id}`)).json()).toMatchObject({
      field_id: null,
    });

    const moved = await as(floor.cookie, 'PUT', '/api/vaults/move', move);
    expect(moved.statusCode, moved.body).toBe(200);
    const layout = await as(floor.cookie, 'PATCH', `/api/warehouse/${warehouse.id}/edit-dimensions`, {
      field_capacity: 9,
      length: 10,
      width: 10,
    });
    expect(layout.statusCode).toBe(403);
    expect(layout.json()).toEqual({ errors: ['Only a Manager can do this. Ask a Manager of your company.'] });
    expect((await as(floor.cookie, 'GET', '/api/team')).statusCode).toBe(403);
    expect((await as(viewer.cookie, 'GET', `/api/warehouse/${warehouse.id}`)).statusCode).toBe(200);
  });

  it('changes a role at once, and keeps at least one active Manager even when both Managers step down together', async () => {
    const other = await join('manager');
    const demote = (cookie: string, id: number) =>
      as(cookie, 'PATCH', `/api/team/members/${id}`, { role: 'viewer' });
    // each Manager demotes the other at the same moment: exactly one may win
    const [first, second] = await Promise.all([
      demote(boss.cookie, other.id),
      demote(other.cookie, boss.userId),
    ]);
    const statuses = [first.statusCode, second.statusCode].sort();
    expect(statuses).toContain(200);
    const managers = (await ctx.database.db
      .selectFrom('users')
      .select('id')
      .where('company_id', '=', boss.companyId)
      .where('role', '=', 'manager')
      .where('active', '=', 1)
      .execute()) as { id: number }[];
    expect(managers.length).toBeGreaterThanOrEqual(1);
    // put things back: whoever is still a Manager restores the other
    const survivor = managers.some((m) => m.id === boss.userId) ? boss.cookie : other.cookie;
    const restore = await as(
      survivor,
      'PATCH',
      `/api/team/members/${managers.some((m) => m.id === boss.userId) ? other.id : boss.userId}`,
      { role: 'manager' },
    );
    expect(restore.statusCode).toBe(200);
    // now demote the other for good, then the last Manager cannot leave
    expect((await demote(boss.cookie, other.id)).statusCode).toBe(200);
    const last = await as(boss.cookie, 'PATCH', `/api/team/members/${boss.userId}`, { active: false });
    expect(last.statusCode).toBe(409);
    expect(last.json()).toEqual({ errors: [LAST_MANAGER] });
    expect((await demote(boss.cookie, boss.userId)).statusCode).toBe(409);
    expect((await as(other.cookie, 'GET', '/api/auth/')).json()).toMatchObject({ role: 'viewer' });
  });

  it('deactivating ends the sessions and the open live stream at once; the member cannot sign in again', async () => {
    const member = await join('floor');
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as AddressInfo;
    const frames: string[] = [];
    const ended = new Promise<void>((resolve, reject) => {
      const req = http.get(
        { host: '127.0.0.1', port, path: '/api/events', headers: { cookie: member.cookie } },
        (res) => {
          expect(res.statusCode).toBe(200);
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => frames.push(chunk));
          res.on('end', () => resolve());
        },
      );
      req.on('error', reject);
    });
    await expect.poll(() => frames.join('').includes('event: ready'), { timeout: 10_000 }).toBe(true);

    const res = await boss.request({
      method: 'PATCH',
      url: `/api/team/members/${member.id}`,
      payload: { active: false },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: member.id, active: false });
    await ended;
    expect(frames.join('')).toContain('event: signed-out');
    expect((await as(member.cookie, 'GET', '/api/auth/')).statusCode).toBe(401);
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: member.email, password: STRONG },
    });
    // the right password learns why (issue 34); a wrong one answers as for any wrong password
    expect(login.statusCode).toBe(403);
    expect(login.json()).toEqual({ errors: [ACCOUNT_DEACTIVATED] });
    const wrong = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: member.email, password: `${STRONG}x` },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ errors: [INVALID_CREDENTIALS] });
    // the history stays, and the member is still listed as inactive
    expect((await team()).members.find((m) => m.id === member.id)).toMatchObject({ active: false });
  });

  it('a reset link sets a new password once and signs the member out everywhere', async () => {
    const member = await join('viewer');
    const res = await boss.request({ method: 'POST', url: `/api/team/members/${member.id}/reset-link` });
    expect(res.statusCode).toBe(201);
    const token = tokenOf(res.json() as MemberLinkDto);
    const info = await ctx.app.inject({ method: 'POST', url: '/api/team/link', payload: { token } });
    expect(info.json()).toMatchObject({ kind: 'reset', email: member.email, name: 'New viewer' });
    const NEW = 'granite-willow-harbor-73';
    const used = await ctx.app.inject({
      method: 'POST',
      url: '/api/team/link/accept',
      payload: { token, password: NEW },
    });
    expect(used.statusCode).toBe(200);
    expect((await as(member.cookie, 'GET', '/api/auth/')).statusCode).toBe(401);
    const login = (password: string) =>
      ctx.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: member.email, password } });
    expect((await login(STRONG)).statusCode).toBe(401);
    expect((await login(NEW)).statusCode).toBe(200);
    expect(
      (
        await ctx.app.inject({
          method: 'POST',
          url: '/api/team/link/accept',
          payload: { token, password: NEW },
        })
      ).statusCode,
    ).toBe(404);
  });

  it('a Manager revokes an open invitation: the link stops working at once, the history says who revoked it', async () => {
    const email = `revoked-${Math.random().toString(36).slice(2)}@example.test`;
    const link = await invite(email, 'floor');
    const pending = (await team()).invites.find((i) => i.email === email)!;
    expect(pending).toMatchObject({ role: 'floor' });
    expect(Date.parse(pending.expiresAt)).toBeGreaterThan(Date.now());

    const revoked = await boss.request({ method: 'DELETE', url: `/api/team/links/${pending.id}` });
    expect(revoked.statusCode, revoked.body).toBe(204);
    expect((await team()).invites.map((i) => i.email)).not.toContain(email);
    const info = await ctx.app.inject({
      method: 'POST',
      url: '/api/team/link',
      payload: { token: tokenOf(link) },
    });
    expect(info.statusCode).toBe(404);
    expect(info.json()).toEqual({ errors: [LINK_UNUSABLE] });
    const used = await accept(tokenOf(link), 'Too Late');
    expect(used.statusCode).toBe(404);
    expect(
      await ctx.database.db.selectFrom('users').select('id').where('email', '=', email).execute(),
    ).toEqual([]);

    // revoking twice, or a link that is not there, changes nothing and says why
    const twice = await boss.request({ method: 'DELETE', url: `/api/team/links/${pending.id}` });
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toEqual({ errors: [LINK_NOT_OPEN] });
    const missing = await boss.request({ method: 'DELETE', url: '/api/team/links/2000000001' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ errors: [LINK_NOT_FOUND] });

    const me = (await boss.request({ method: 'GET', url: '/api/auth/' })).json() as { username: string };
    const history = await boss.request({ method: 'GET', url: '/api/activity?kind=member' });
    const items = (history.json() as { items: { kind: string; actor: string; details: unknown }[] }).items;
    expect(items.find((i) => i.kind === 'member.invite-revoked')).toMatchObject({
      actor: me.username,
      details: { email, role: 'floor' },
    });
  });

  it('a Manager revokes a password link: it is listed with the member until then, and no longer works', async () => {
    const member = await join('floor');
    const made = await boss.request({ method: 'POST', url: `/api/team/members/${member.id}/reset-link` });
    const token = tokenOf(made.json() as MemberLinkDto);
    const open = (await team()).resets.find((r) => r.memberId === member.id)!;
    expect(open.expiresAt).toBe((made.json() as MemberLinkDto).expiresAt);

    expect((await boss.request({ method: 'DELETE', url: `/api/team/links/${open.id}` })).statusCode).toBe(
      204,
    );
    expect((await team()).resets.map((r) => r.memberId)).not.toContain(member.id);
    const used = await ctx.app.inject({
      method: 'POST',
      url: '/api/team/link/accept',
      payload: { token, password: 'granite-willow-harbor-73' },
    });
    expect(used.statusCode).toBe(404);
    // the member's session and password are untouched
    expect((await as(member.cookie, 'GET', '/api/auth/')).statusCode).toBe(200);
  });

  it('a used or expired link cannot be revoked, and a link and its revocation race with exactly one winner', async () => {
    const usedEmail = `used-${Math.random().toString(36).slice(2)}@example.test`;
    const usedLink = await invite(usedEmail, 'viewer');
    const usedId = (await team()).invites.find((i) => i.email === usedEmail)!.id;
    expect((await accept(tokenOf(usedLink), 'Used Up')).statusCode).toBe(200);
    expect((await boss.request({ method: 'DELETE', url: `/api/team/links/${usedId}` })).statusCode).toBe(409);

    const lateEmail = `expired-${Math.random().toString(36).slice(2)}@example.test`;
    await invite(lateEmail, 'viewer');
    const lateId = (await team()).invites.find((i) => i.email === lateEmail)!.id;
    await ctx.database.db
      .updateTable('member_links')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', lateId)
      .execute();
    expect((await boss.request({ method: 'DELETE', url: `/api/team/links/${lateId}` })).statusCode).toBe(409);

    const raceEmail = `race-${Math.random().toString(36).slice(2)}@example.test`;
    const raceLink = await invite(raceEmail, 'floor');
    const raceId = (await team()).invites.find((i) => i.email === raceEmail)!.id;
    const [revoked, joined] = await Promise.all([
      boss.request({ method: 'DELETE', url: `/api/team/links/${raceId}` }),
      accept(tokenOf(raceLink), 'Racer'),
    ]);
    const joinedUser = await ctx.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', raceEmail)
      .execute();
    if (revoked.statusCode === 204) {
      expect(joined.statusCode).toBe(404);
      expect(joinedUser).toHaveLength(0);
    } else {
      expect(revoked.statusCode).toBe(409);
      expect(joined.statusCode).toBe(200);
      expect(joinedUser).toHaveLength(1);
    }
  });

  it('only a Manager revokes links', async () => {
    const floor = await join('floor');
    const email = `kept-${Math.random().toString(36).slice(2)}@example.test`;
    await invite(email, 'viewer');
    const id = (await team()).invites.find((i) => i.email === email)!.id;
    const refused = await as(floor.cookie, 'DELETE', `/api/team/links/${id}`);
    expect(refused.statusCode).toBe(403);
    expect((await team()).invites.map((i) => i.email)).toContain(email);
  });

  it('every member changes their own name and password (the current one first)', async () => {
    const account = await buildAccount(ctx.database.db, { company: boss.companyName, role: 'viewer' });
    const me = await signIn(ctx, account);
    const other = await signIn(ctx, account);
    const wrong = await me.request({
      method: 'PATCH',
      url: '/api/profile',
      payload: { currentPassword: 'not-it', newPassword: 'harbor-granite-willow-37' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ errors: [WRONG_PASSWORD] });
    const ok = await me.request({
      method: 'PATCH',
      url: '/api/profile',
      payload: {
        name: 'Vera Viewer',
        currentPassword: account.password,
        newPassword: 'harbor-granite-willow-37',
      },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ name: 'Vera Viewer', role: 'viewer' });
    expect((await me.request({ method: 'GET', url: '/api/auth/' })).json()).toMatchObject({
      username: 'Vera Viewer',
    });
    expect((await other.request({ method: 'GET', url: '/api/auth/' })).statusCode).toBe(401);
  });

  it("a Manager sets the company's locale: every member's session shows it; others may not, and nonsense is refused", async () => {
    const floor = await join('floor');
    const outsider = await signIn(ctx);
    const before = await as(floor.cookie, 'GET', '/api/auth/');
    expect(before.json()).toMatchObject({ company: { locale: 'en-US' } });

    const changed = await boss.request({
      method: 'PATCH',
      url: '/api/company',
      payload: { locale: 'de-DE' },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({ id: boss.companyId, name: expect.any(String), locale: 'de-DE' });
    expect((await as(floor.cookie, 'GET', '/api/auth/')).json()).toMatchObject({
      company: { locale: 'de-DE' },
    });
    // another company keeps its own
    expect((await outsider.request({ method: 'GET', url: '/api/auth/' })).json()).toMatchObject({
      company: { locale: 'en-US' },
    });

    const refused = await as(floor.cookie, 'PATCH', '/api/company', { locale: 'fr-FR' });
    expect(refused.statusCode).toBe(403);
    for (const payload of [{ locale: 'xx-YY' }, { locale: 42 }, {}, { locale: 'en-US; drop table' }]) {
      const bad = await boss.request({ method: 'PATCH', url: '/api/company', payload });
      expect(bad.statusCode).toBe(400);
      expect((bad.json() as { errors: string[] }).errors.join(' ')).toMatch(/Choose one of the listed/);
    }
    const stored = await ctx.database.db
      .selectFrom('companies')
      .select('locale')
      .where('id', '=', boss.companyId)
      .executeTakeFirstOrThrow();
    expect(stored.locale).toBe('de-DE');
    await boss.request({ method: 'PATCH', url: '/api/company', payload: { locale: 'en-US' } });
  });
});
