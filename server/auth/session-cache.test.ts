import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemberLinkDto } from '@domain/schemas/team.schema';
import { buildApp } from '../app';
import { environmentWith, loadConfig } from '../config';
import type { ChannelHandlers, NotificationListener } from '../db/notification-listener';
import { testEngines } from '../test/test-app';
import { useTestApp } from '../test/use-test-app';
import { SESSIONS_CHANNEL, SessionCache, type SessionRow, forgetMember } from './session-cache';

const STRONG = 'orbit-lantern-pebble-42';

/** The channel handlers a cache registers, driven by the test instead of a connection. */
function cacheWithHandlers(): { cache: SessionCache; line: ChannelHandlers } {
  let line: ChannelHandlers | undefined;
  const listener = {
    listen: (channel: string, handlers: ChannelHandlers) => {
      if (channel === SESSIONS_CHANNEL) line = handlers;
    },
  } as unknown as NotificationListener;
  const cache = new SessionCache(listener);
  return { cache, line: line! };
}

const row = (userId: number, expiresAt = '2999-01-01T00:00:00.000Z'): SessionRow => ({
  created_at: '2026-01-01T00:00:00.000Z',
  expires_at: expiresAt,
  id: userId,
  email: `m${userId}@example.test`,
  username: `Member ${userId}`,
  role: 'floor',
  company_id: 1,
  company_name: 'Movers',
  company_locale: 'en-US',
});
const NOW = '2026-06-01T00:00:00.000Z';
const STARTED_AFTER = '2025-06-01T00:00:00.000Z';

describe('the session cache', () => {
  it('keeps nothing until its LISTEN connection is up, and forgets everything when it is lost', () => {
    const { cache, line } = cacheWithHandlers();
    cache.keep('a', row(1), cache.mark());
    expect(cache.get('a', NOW, STARTED_AFTER)).toBeUndefined();
    line.connected();
    cache.keep('a', row(1), cache.mark());
    expect(cache.get('a', NOW, STARTED_AFTER)?.id).toBe(1);
    line.lost();
    expect(cache.get('a', NOW, STARTED_AFTER)).toBeUndefined();
    cache.keep('a', row(1), cache.mark());
    expect(cache.get('a', NOW, STARTED_AFTER)).toBeUndefined();
  });

  it("forgets a member's sessions when told, and a lookup that ran across the change keeps nothing", () => {
    const { cache, line } = cacheWithHandlers();
    line.connected();
    cache.keep('a', row(1), cache.mark());
    cache.keep('b', row(1), cache.mark());
    cache.keep('c', row(2), cache.mark());
    const mark = cache.mark();
    line.notified('1');
    expect(cache.get('a', NOW, STARTED_AFTER)).toBeUndefined();
    expect(cache.get('b', NOW, STARTED_AFTER)).toBeUndefined();
    expect(cache.get('c', NOW, STARTED_AFTER)?.id).toBe(2);
    // read before the change was heard: possibly the old state
    cache.keep('a', row(1), mark);
    expect(cache.get('a', NOW, STARTED_AFTER)).toBeUndefined();
    // an empty notice (a company renamed) forgets everyone
    line.notified('');
    expect(cache.get('c', NOW, STARTED_AFTER)).toBeUndefined();
  });

  it('a change made in this process is forgotten by every cache at once, before any notice', () => {
    const { cache, line } = cacheWithHandlers();
    cache.open();
    try {
      line.connected();
      cache.keep('a', row(7), cache.mark());
      forgetMember(7);
      expect(cache.get('a', NOW, STARTED_AFTER)).toBeUndefined();
    } finally {
      cache.close();
    }
  });

  it('never answers with a session past its expiry or its absolute lifetime', () => {
    const { cache, line } = cacheWithHandlers();
    line.connected();
    cache.keep('a', row(1, '2026-05-31T23:59:59.000Z'), cache.mark());
    expect(cache.get('a', NOW, STARTED_AFTER)).toBeUndefined();
    cache.keep('b', row(1), cache.mark());
    expect(cache.get('b', NOW, '2026-02-01T00:00:00.000Z')).toBeUndefined();
  });
});

// Two app instances on one PostgreSQL database, as two server processes behind a load balancer: a change made
// through one (or by hand in the database) reaches the other's cache through the notification.
describe.each(testEngines().filter((engine) => engine === 'postgres'))(
  'sessions on %s with two server processes',
  (engine) => {
    const { ctx, user: boss } = useTestApp(engine, { users: 1 });
    let other: FastifyInstance;
    beforeAll(async () => {
      other = await buildApp({
        config: loadConfig(environmentWith({ LOGIN_RATE_LIMIT: '1000' })),
        database: ctx.database,
        logger: false,
      });
      await other.ready();
    });
    afterAll(async () => {
      await other?.close();
    });

    /** A new member of the boss's company, signed in; the session is looked up (and kept) by both processes. */
    const join = async (role: string) => {
      const email = `${role}-${Math.random().toString(36).slice(2)}@example.test`;
      const link = (
        await boss.request({ method: 'POST', url: '/api/team/invites', payload: { email, role } })
      ).json() as MemberLinkDto;
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/team/link/accept',
        payload: { token: link.path.split('#')[1], name: `New ${role}`, password: STRONG },
      });
      expect(res.statusCode).toBe(200);
      const cookie = `wm_session=${res.cookies.find((c) => c.name === 'wm_session')!.value}`;
      const member = { id: (res.json() as { id: number }).id, cookie };
      for (const app of [ctx.app, other]) expect((await statusOn(app, member.cookie)).auth).toBe(200);
      return member;
    };
    const statusOn = async (app: FastifyInstance, cookie: string) => {
      const auth = await app.inject({ method: 'GET', url: '/api/auth/', headers: { cookie } });
      const team = await app.inject({ method: 'GET', url: '/api/team', headers: { cookie } });
      return {
        auth: auth.statusCode,
        team: team.statusCode,
        role: auth.statusCode === 200 ? auth.json().role : null,
      };
    };

    it('a deactivated member is signed out at once on the process that did it, and on the other one', async () => {
      const member = await join('floor');
      const res = await boss.request({
        method: 'PATCH',
        url: `/api/team/members/${member.id}`,
        payload: { active: false },
      });
      expect(res.statusCode).toBe(200);
      expect((await statusOn(ctx.app, member.cookie)).auth).toBe(401);
      await expect.poll(async () => (await statusOn(other, member.cookie)).auth).toBe(401);
    });

    it('a new role holds on both processes: a Manager made Viewer loses the team page there', async () => {
      const member = await join('manager');
      expect((await statusOn(other, member.cookie)).team).toBe(200);
      const res = await boss.request({
        method: 'PATCH',
        url: `/api/team/members/${member.id}`,
        payload: { role: 'viewer' },
      });
      expect(res.statusCode).toBe(200);
      expect(await statusOn(ctx.app, member.cookie)).toEqual({ auth: 200, team: 403, role: 'viewer' });
      await expect
        .poll(() => statusOn(other, member.cookie))
        .toEqual({ auth: 200, team: 403, role: 'viewer' });
    });

    it('signing out on one process ends the session on the other', async () => {
      const member = await join('viewer');
      const res = await other.inject({
        method: 'POST',
        url: '/api/auth/logout',
        headers: { cookie: member.cookie },
      });
      expect(res.statusCode).toBeLessThan(400);
      expect((await statusOn(other, member.cookie)).auth).toBe(401);
      await expect.poll(async () => (await statusOn(ctx.app, member.cookie)).auth).toBe(401);
    });

    it('a change made in the database by hand (as the command line does) reaches both processes', async () => {
      const member = await join('floor');
      await sql`update users set active = 0 where id = ${member.id}`.execute(ctx.database.db);
      await expect.poll(async () => (await statusOn(ctx.app, member.cookie)).auth).toBe(401);
      await expect.poll(async () => (await statusOn(other, member.cookie)).auth).toBe(401);
      // a company renamed shows at once in every session of it, also one the other process had kept
      const named = async () =>
        (await other.inject({ method: 'GET', url: '/api/auth/', headers: { cookie: boss.cookie } })).json()
          .company.name;
      expect(await named()).toBe(boss.companyName);
      const renamed = `Renamed Movers ${Math.random().toString(36).slice(2)}`;
      await sql`update companies set name = ${renamed} where id = ${boss.companyId}`.execute(ctx.database.db);
      await expect.poll(named).toBe(renamed);
    });
  },
);
