import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { environmentWith, loadConfig } from '../config';
import { nowIso } from '../db/database';
import { type SignedIn, signIn, testEngines } from '../test/test-app';
import { useTestApp } from '../test/use-test-app';
import type { LiveEventDto } from '@domain/schemas/live-event.schema';
import type { WarehouseDto } from '@domain/schemas/warehouse.schema';
import { buildVault, buildWarehouse } from '../factories';
import { EVENTS_CHANNEL, recordEvent } from './event-log.repo';
import { CATCH_UP_LIMIT, TOO_MANY_STREAMS } from './events.routes';
import { MAX_STREAMS_PER_SESSION, checkOpenStreams, endUserStreams } from './live-streams';

interface Frame {
  id?: string;
  event?: string;
  data?: string;
  comment?: string;
}

function parseFrame(text: string): Frame {
  const frame: Frame = {};
  for (const line of text.split('\n')) {
    if (line.startsWith(':')) frame.comment = line.slice(1).trim();
    const match = /^(id|event|data): ?(.*)$/.exec(line);
    if (match) frame[match[1] as 'id' | 'event' | 'data'] = match[2];
  }
  return frame;
}

interface Stream {
  status: number;
  body: string;
  frames: Frame[];
  ended: boolean;
  waitFor(predicate: (frames: Frame[]) => boolean, what?: string): Promise<void>;
  waitForEnd(): Promise<void>;
  close(): void;
}

/** Opens GET /api/events over a real socket and collects its frames as they come. */
function openStream(port: number, cookie: string, lastEventId?: string, query = ''): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { cookie };
    if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
    const req = http.get({ host: '127.0.0.1', port, path: `/api/events${query}`, headers }, (res) => {
      let buffer = '';
      let waiters: (() => void)[] = [];
      const notify = () => {
        for (const w of waiters) w();
      };
      const stream: Stream = {
        status: res.statusCode ?? 0,
        body: '',
        frames: [],
        ended: false,
        waitFor: (predicate, what = 'a matching frame') =>
          new Promise<void>((done, fail) => {
            const timer = setTimeout(
              () => fail(new Error(`no ${what} in: ${JSON.stringify(stream.frames)}`)),
              5000,
            );
            const check = () => {
              if (predicate(stream.frames)) {
                clearTimeout(timer);
                waiters = waiters.filter((w) => w !== check);
                done();
              }
            };
            waiters.push(check);
            check();
          }),
        waitForEnd: () => stream.waitFor(() => stream.ended, 'end of the stream'),
        close: () => req.destroy(),
      };
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (stream.status !== 200) {
          stream.body += chunk;
          return;
        }
        buffer += chunk;
        const parts = buffer.split('\n\n');
        buffer = parts.pop()!;
        stream.frames.push(...parts.filter(Boolean).map(parseFrame));
        notify();
      });
      res.on('end', () => {
        stream.ended = true;
        notify();
      });
      res.on('close', () => {
        stream.ended = true;
        notify();
      });
      if (stream.status !== 200) res.on('end', () => resolve(stream));
      else resolve(stream);
    });
    req.on('error', reject);
  });
}

const named = (name: string) => (frames: Frame[]) => frames.some((f) => f.event === name);
const changes = (frames: Frame[]) => frames.filter((f) => f.event === 'change');
const kindsOf = (frames: Frame[]) =>
  changes(frames).map((f) => (JSON.parse(f.data!) as { kind: string }).kind);
const sessionIdOf = (cookie: string) =>
  crypto
    .createHash('sha256')
    .update(cookie.slice(cookie.indexOf('=') + 1))
    .digest('hex');

describe.each(testEngines())('live events on %s', (engine) => {
  const { ctx } = useTestApp(engine, { users: 0 });
  let port: number;
  beforeAll(async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    port = (ctx.app.server.address() as AddressInfo).port;
  });

  const record = (who: SignedIn, kind: string, warehouseId: number | null = null) =>
    recordEvent(ctx.database.db, {
      companyId: who.companyId,
      userId: who.userId,
      kind,
      entityType: 'vault',
      entityId: 1,
      warehouseId,
    });

  /** A stream that has seen one change of its own company: the id a browser would echo after a drop. */
  async function tokenAfter(who: SignedIn, kind: string): Promise<string> {
    const stream = await openStream(port, who.cookie);
    await stream.waitFor(named('ready'));
    await record(who, kind);
    await stream.waitFor((f) => kindsOf(f).includes(kind));
    stream.close();
    return changes(stream.frames).at(-1)!.id!;
  }

  it('refuses a signed-out caller', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/events' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ errors: [expect.any(String)] });
  });

  it("delivers a company's events to its own streams only", async () => {
    const a = await signIn(ctx);
    const b = await signIn(ctx);
    const streamA = await openStream(port, a.cookie);
    const streamB = await openStream(port, b.cookie);
    await streamA.waitFor(named('ready'));
    await streamB.waitFor(named('ready'));

    await record(a, 'vault.added', 3);
    await recordEvent(ctx.database.db, {
      companyId: b.companyId,
      userId: b.userId,
      kind: 'pallet.deleted',
      entityType: 'pallet',
      entityId: 9,
    });

    await streamA.waitFor((f) => kindsOf(f).includes('vault.added'));
    await streamB.waitFor((f) => kindsOf(f).includes('pallet.deleted'));
    expect(kindsOf(streamA.frames)).toEqual(['vault.added']);
    expect(kindsOf(streamB.frames)).toEqual(['pallet.deleted']);
    expect(JSON.parse(changes(streamA.frames)[0]!.data!)).toEqual({
      kind: 'vault.added',
      entityType: 'vault',
      entityId: 1,
      warehouseId: 3,
      fieldId: null,
      fromFieldId: null,
      fromWarehouseId: null,
      userId: a.userId,
      at: expect.any(String),
    });
    streamA.close();
    streamB.close();
  });

  it('names the fields of a change and the warehouse a moved vault left, from what the write recorded', async () => {
    const a = await signIn(ctx);
    const stream = await openStream(port, a.cookie);
    await stream.waitFor(named('ready'));
    await recordEvent(ctx.database.db, {
      companyId: a.companyId,
      userId: a.userId,
      kind: 'vault.moved',
      entityType: 'vault',
      entityId: 5,
      warehouseId: 8,
      payload: { fromFieldId: 70, fromWarehouseId: 7, fieldId: 80, position: 1 },
    });
    await stream.waitFor((f) => kindsOf(f).includes('vault.moved'));
    expect(JSON.parse(changes(stream.frames)[0]!.data!)).toMatchObject({
      kind: 'vault.moved',
      entityId: 5,
      warehouseId: 8,
      fieldId: 80,
      fromFieldId: 70,
      fromWarehouseId: 7,
    });
    stream.close();
  });

  // issue 11: a tablet showing the warehouse patches its copy from the frame instead of fetching the warehouse again
  it("carries the new state of a change's fields to the streams that watch its warehouse, and to no other", async () => {
    const a = await signIn(ctx);
    const db = ctx.database.db;
    const one = await buildWarehouse(db, {
      companyId: a.companyId,
      rows: 2,
      cols: 2,
      name: `One ${a.userId}`,
    });
    const two = await buildWarehouse(db, {
      companyId: a.companyId,
      rows: 2,
      cols: 2,
      name: `Two ${a.userId}`,
    });
    const a1 = one.field('A1').id;
    const b1 = two.field('B1').id;
    await buildVault(db, { companyId: a.companyId, fieldId: a1, name: '701' });
    const top = await buildVault(db, { companyId: a.companyId, fieldId: a1, name: '702' });
    const moved = await buildVault(db, { companyId: a.companyId, fieldId: one.field('A2').id, name: '703' });
    const watching = await openStream(port, a.cookie, undefined, `?watch=${one.id},junk,,-4`);
    const watchingTwo = await openStream(port, a.cookie, undefined, `?watch=${two.id}`);
    const plain = await openStream(port, a.cookie);
    for (const stream of [watching, watchingTwo, plain]) await stream.waitFor(named('ready'));
    const frameOf = (stream: Stream, kind: string) =>
      changes(stream.frames)
        .map((f) => JSON.parse(f.data!) as LiveEventDto)
        .find((e) => e.kind === kind)!;
    const warehouse = async (id: number) =>
      (await a.request({ method: 'GET', url: `/api/warehouse/${id}` })).json() as WarehouseDto;
    const all = [watching, watchingTwo, plain];

    // a vault staged from One: its field's new list, as GET /api/warehouse shows it
    expect((await a.request({ method: 'POST', url: `/api/stage/vaults/${top.id}` })).statusCode).toBe(200);
    for (const stream of all) await stream.waitFor((f) => kindsOf(f).includes('vault.staged'));
    const staged = frameOf(watching, 'vault.staged');
    expect(staged.fields).toEqual([(await warehouse(one.id)).fields[a1]]);
    expect(Object.keys(staged.fields![0]!.vaults)).not.toContain(String(top.id));
    expect(frameOf(watchingTwo, 'vault.staged')).not.toHaveProperty('fields');
    expect(frameOf(plain, 'vault.staged')).not.toHaveProperty('fields');

    // a move from One to Two: both fields, to the streams of either warehouse
    const move = await a.request({
      method: 'PUT',
      url: '/api/vaults/move',
      payload: { vaultId: moved.id, fieldId: b1, position: 3 },
    });
    expect(move.statusCode, move.body).toBe(200);
    for (const stream of all) await stream.waitFor((f) => kindsOf(f).includes('vault.moved'));
    const [oneNow, twoNow] = [await warehouse(one.id), await warehouse(two.id)];
    const expected = [twoNow.fields[b1], oneNow.fields[one.field('A2').id]];
    expect(frameOf(watching, 'vault.moved').fields).toEqual(expected);
    expect(frameOf(watchingTwo, 'vault.moved').fields).toEqual(expected);
    expect(twoNow.fields[b1]!.vaults[moved.id]).toBeDefined();
    expect(frameOf(plain, 'vault.moved')).not.toHaveProperty('fields');

    // a field marked full
    const full = await a.request({ method: 'PATCH', url: `/api/fields/${b1}/full`, payload: { full: true } });
    expect(full.statusCode).toBe(200);
    for (const stream of all) await stream.waitFor((f) => kindsOf(f).includes('field.full'));
    expect(frameOf(watchingTwo, 'field.full').fields).toEqual([(await warehouse(two.id)).fields[b1]]);
    expect(frameOf(watchingTwo, 'field.full').fields![0]!.full).toBe(true);
    expect(frameOf(watching, 'field.full')).not.toHaveProperty('fields');
    for (const stream of all) stream.close();
  });

  // finding 9 and finding 5: nothing a company sees counts the installation's events
  it('shows opaque ids only: the ready frame and every change carry no number of the global event log', async () => {
    const a = await signIn(ctx);
    const b = await signIn(ctx);
    const stream = await openStream(port, a.cookie);
    await stream.waitFor(named('ready'));
    await record(a, 'vault.added');
    // another company's activity between two of A's events
    for (let i = 0; i < 3; i += 1) await record(b, 'vault.edited');
    await record(a, 'vault.moved');
    await stream.waitFor((f) => changes(f).length === 2);
    stream.close();

    const ready = stream.frames.find((f) => f.event === 'ready')!;
    expect(ready.data).toBe('{}');
    const ids = [ready, ...changes(stream.frames)].map((f) => f.id!);
    for (const id of ids) {
      expect(id).toMatch(/^[A-Za-z0-9_-]{40,}$/);
      expect(id).not.toMatch(/^\d+$/);
    }
    expect(new Set(ids).size).toBe(ids.length);
    for (const change of changes(stream.frames)) expect(JSON.parse(change.data!)).not.toHaveProperty('id');
  });

  it('starts a new stream at the present: events from before it opened are not replayed', async () => {
    const a = await signIn(ctx);
    await record(a, 'vault.deleted');
    await record(a, 'vault.edited');
    const stream = await openStream(port, a.cookie);
    await stream.waitFor(named('ready'));
    await record(a, 'vault.staged');
    await stream.waitFor((f) => kindsOf(f).includes('vault.staged'));
    expect(kindsOf(stream.frames)).toEqual(['vault.staged']);
    stream.close();
  });

  it('catches a reconnecting browser up from its Last-Event-ID, and only with what came after it', async () => {
    const a = await signIn(ctx);
    const seen = await tokenAfter(a, 'vault.moved');
    await record(a, 'vault.staged');
    await record(a, 'vault.edited');
    const stream = await openStream(port, a.cookie, seen);
    await stream.waitFor((f) => kindsOf(f).includes('vault.edited'));
    expect(kindsOf(stream.frames)).toEqual(['vault.staged', 'vault.edited']);
    expect(stream.frames.some((f) => f.event === 'reset' || f.event === 'ready')).toBe(false);
    // and it goes on live
    await record(a, 'vault.deleted');
    await stream.waitFor((f) => kindsOf(f).includes('vault.deleted'));
    stream.close();
  });

  it('catches a browser up from `last=` when it opens a new stream to watch another warehouse', async () => {
    const a = await signIn(ctx);
    const seen = await tokenAfter(a, 'vault.moved');
    await record(a, 'vault.staged');
    const stream = await openStream(port, a.cookie, undefined, `?watch=5&last=${encodeURIComponent(seen)}`);
    await stream.waitFor((f) => kindsOf(f).includes('vault.staged'));
    expect(kindsOf(stream.frames)).toEqual(['vault.staged']);
    expect(stream.frames.some((f) => f.event === 'reset' || f.event === 'ready')).toBe(false);
    stream.close();
    // a made-up one is unknown: a reset, as for the header
    const unknown = await openStream(port, a.cookie, undefined, '?last=made-up');
    await unknown.waitFor(named('reset'));
    unknown.close();
  });

  it("refuses another company's, an altered or a made-up Last-Event-ID: a reset, and none of the other's events", async () => {
    const a = await signIn(ctx);
    const b = await signIn(ctx);
    const aToken = await tokenAfter(a, 'vault.added');
    await record(a, 'vault.edited');
    await record(b, 'pallet.added');
    const flipped = `${aToken.slice(0, 10)}${aToken[10] === 'A' ? 'B' : 'A'}${aToken.slice(11)}`;
    const bToken = await tokenAfter(b, 'pallet.edited');
    const bFlipped = `${bToken.slice(0, 20)}${bToken[20] === 'x' ? 'y' : 'x'}${bToken.slice(21)}`;

    for (const [who, header] of [
      [b, aToken],
      [a, flipped],
      [b, bFlipped],
      [b, '0'],
      [b, '1'],
      [a, aToken.slice(0, -2)],
    ] as const) {
      const stream = await openStream(port, who.cookie, header);
      await stream.waitFor(named('reset'));
      const reset = stream.frames.find((f) => f.event === 'reset')!;
      expect(reset.id).toMatch(/^[A-Za-z0-9_-]{40,}$/);
      // the reset's id is the caller's own present: from it, only new events follow
      await record(who, 'vault.deleted');
      await stream.waitFor((f) => kindsOf(f).includes('vault.deleted'));
      expect(kindsOf(stream.frames)).toEqual(['vault.deleted']);
      stream.close();
      const again = await openStream(port, who.cookie, changes(stream.frames)[0]!.id);
      await record(who, 'vault.staged');
      await again.waitFor((f) => kindsOf(f).includes('vault.staged'));
      expect(kindsOf(again.frames)).toEqual(['vault.staged']);
      again.close();
    }
  });

  it(`sends up to ${CATCH_UP_LIMIT} missed events, and a reset instead when more were missed`, async () => {
    const a = await signIn(ctx);
    const insertMissed = async (count: number, kind: string) => {
      const rows = Array.from({ length: count }, (_, i) => ({
        company_id: a.companyId,
        user_id: a.userId,
        actor: null,
        kind,
        entity_type: 'vault',
        entity_id: i,
        warehouse_id: null,
        payload: null,
        created_at: nowIso(),
      }));
      for (let i = 0; i < rows.length; i += 100)
        await ctx.database.db
          .insertInto('events')
          .values(rows.slice(i, i + 100))
          .execute();
    };

    const atBound = await tokenAfter(a, 'vault.moved');
    await insertMissed(CATCH_UP_LIMIT, 'vault.edited');
    const full = await openStream(port, a.cookie, atBound);
    await full.waitFor((f) => changes(f).length === CATCH_UP_LIMIT, 'the whole catch-up');
    expect(full.frames.some((f) => f.event === 'reset')).toBe(false);
    full.close();

    const overBound = await tokenAfter(a, 'vault.staged');
    await insertMissed(CATCH_UP_LIMIT + 1, 'vault.added');
    const tooFar = await openStream(port, a.cookie, overBound);
    await tooFar.waitFor(named('reset'));
    await record(a, 'vault.deleted');
    await tooFar.waitFor((f) => kindsOf(f).includes('vault.deleted'));
    expect(kindsOf(tooFar.frames)).toEqual(['vault.deleted']);
    tooFar.close();
  });

  // finding 6: a stream lives no longer than its session
  it('ends the streams of a session at once when it signs out, and no other session', async () => {
    const a = await signIn(ctx);
    const elsewhere = await signIn(ctx, a);
    const first = await openStream(port, a.cookie);
    const second = await openStream(port, a.cookie);
    const other = await openStream(port, elsewhere.cookie);
    for (const s of [first, second, other]) await s.waitFor(named('ready'));

    const out = await a.request({ method: 'GET', url: '/api/auth/logout' });
    expect(out.statusCode).toBe(200);
    for (const s of [first, second]) {
      await s.waitForEnd();
      expect(s.frames.at(-1)!.event).toBe('signed-out');
    }
    await record(a, 'vault.added');
    await other.waitFor((f) => kindsOf(f).includes('vault.added'));
    expect(other.ended).toBe(false);
    expect(kindsOf(first.frames)).toEqual([]);
    const reopened = await openStream(port, a.cookie);
    expect(reopened.status).toBe(401);
    other.close();
  });

  it('ends a stream at the next heartbeat once its session is gone or expired, however it ended', async () => {
    const a = await signIn(ctx);
    const deleted = await signIn(ctx, a);
    const expired = await signIn(ctx, a);
    const streams = {
      live: await openStream(port, a.cookie),
      deleted: await openStream(port, deleted.cookie),
      expired: await openStream(port, expired.cookie),
    };
    for (const s of Object.values(streams)) await s.waitFor(named('ready'));

    // as a password reset or a sign-out through another server process would leave the database
    await ctx.database.db.deleteFrom('sessions').where('id', '=', sessionIdOf(deleted.cookie)).execute();
    await ctx.database.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', sessionIdOf(expired.cookie))
      .execute();
    await checkOpenStreams();

    for (const s of [streams.deleted, streams.expired]) {
      await s.waitForEnd();
      expect(s.frames.at(-1)!.event).toBe('signed-out');
    }
    await streams.live.waitFor((f) => f.some((x) => x.comment === 'keep-alive'));
    await record(a, 'vault.added');
    await streams.live.waitFor((f) => kindsOf(f).includes('vault.added'));
    expect(streams.live.ended).toBe(false);
    expect(kindsOf(streams.deleted.frames)).toEqual([]);
    streams.live.close();
  });

  it("ends every stream of a user on request (password reset, deactivation), and no one else's", async () => {
    const a = await signIn(ctx);
    const again = await signIn(ctx, a);
    const b = await signIn(ctx);
    const mine = [await openStream(port, a.cookie), await openStream(port, again.cookie)];
    const theirs = await openStream(port, b.cookie);
    for (const s of [...mine, theirs]) await s.waitFor(named('ready'));

    endUserStreams(a.userId);
    for (const s of mine) await s.waitForEnd();
    await record(b, 'vault.added');
    await theirs.waitFor((f) => kindsOf(f).includes('vault.added'));
    expect(theirs.ended).toBe(false);
    theirs.close();
  });

  it(`allows ${MAX_STREAMS_PER_SESSION} streams per session; one more is refused with 429 until one closes`, async () => {
    const a = await signIn(ctx);
    const elsewhere = await signIn(ctx, a);
    const open: Stream[] = [];
    for (let i = 0; i < MAX_STREAMS_PER_SESSION; i += 1) {
      const s = await openStream(port, a.cookie);
      expect(s.status).toBe(200);
      open.push(s);
    }
    const refused = await openStream(port, a.cookie);
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toEqual({ errors: [TOO_MANY_STREAMS] });

    // another session of the same user has its own allowance
    const other = await openStream(port, elsewhere.cookie);
    expect(other.status).toBe(200);

    open.shift()!.close();
    await expect
      .poll(
        async () => {
          const s = await openStream(port, a.cookie);
          if (s.status === 200) open.push(s);
          return s.status;
        },
        { timeout: 5000 },
      )
      .toBe(200);
    for (const s of [...open, other]) s.close();
  });

  it('does not count streams whose browser left before they started', async () => {
    const a = await signIn(ctx);
    // each request goes away as soon as it is sent, often while the server still looks the session up
    await Promise.all(
      Array.from(
        { length: MAX_STREAMS_PER_SESSION * 2 },
        () =>
          new Promise<void>((done) => {
            const req = http.get({
              host: '127.0.0.1',
              port,
              path: '/api/events',
              headers: { cookie: a.cookie },
            });
            req.on('error', () => done());
            req.on('close', () => done());
            req.on('finish', () => req.destroy());
          }),
      ),
    );
    await expect
      .poll(
        async () => {
          const streams = await Promise.all(
            Array.from({ length: MAX_STREAMS_PER_SESSION }, () => openStream(port, a.cookie)),
          );
          for (const s of streams) s.close();
          return streams.map((s) => s.status);
        },
        { timeout: 5000 },
      )
      .toEqual(Array.from({ length: MAX_STREAMS_PER_SESSION }, () => 200));
  });
});

// Two app instances on one PostgreSQL database, as two server processes: a process that wrote announces its events
// itself (decision 026); the insert of an event announces nothing.
describe.each(testEngines().filter((engine) => engine === 'postgres'))(
  'live events across server processes on %s',
  (engine) => {
    const { ctx, user } = useTestApp(engine, { users: 1 });
    let other: FastifyInstance;
    let otherPort: number;
    let listener: pg.Client;
    const heard: string[] = [];
    beforeAll(async () => {
      other = await buildApp({
        config: loadConfig(environmentWith({})),
        database: ctx.database,
        logger: false,
      });
      await other.listen({ port: 0, host: '127.0.0.1' });
      otherPort = (other.server.address() as AddressInfo).port;
      listener = new pg.Client({ connectionString: ctx.database.postgresUrl });
      await listener.connect();
      listener.on('notification', (message) => heard.push(message.payload ?? ''));
      await listener.query(`listen ${EVENTS_CHANNEL}`);
    });
    afterAll(async () => {
      await listener?.end();
      await other?.close();
    });

    /** Everything announced until now: a probe of the test's own, which PostgreSQL delivers after earlier ones. */
    const announcedSoFar = async () => {
      const probe = `probe-${Math.random()}`;
      await sql`select pg_notify(${EVENTS_CHANNEL}, ${probe})`.execute(ctx.database.db);
      await expect.poll(() => heard.includes(probe)).toBe(true);
      return heard.splice(0).filter((payload) => payload !== probe);
    };

    it("a write answered by one process is announced, and reaches another process's streams", async () => {
      const warehouse = await buildWarehouse(ctx.database.db, {
        companyId: user.companyId,
        rows: 1,
        cols: 1,
      });
      const vault = await buildVault(ctx.database.db, {
        companyId: user.companyId,
        fieldId: warehouse.field('A1').id,
      });
      await announcedSoFar();
      const announced: string[] = [];
      const stream = await openStream(otherPort, user.cookie);
      await stream.waitFor(named('ready'));
      const res = await user.request({ method: 'POST', url: `/api/stage/vaults/${vault.id}` });
      expect(res.statusCode).toBe(200);
      await stream.waitFor((f) => kindsOf(f).includes('vault.staged'));
      // announced once, by the process that wrote, with its mark
      await expect
        .poll(async () => {
          announced.push(...(await announcedSoFar()));
          return announced;
        })
        .toEqual([expect.stringMatching(/^[0-9a-f]{16}$/)]);
      stream.close();
    });

    it('an event written without a server process announces nothing; the processes still find it', async () => {
      await announcedSoFar();
      const stream = await openStream(otherPort, user.cookie);
      await stream.waitFor(named('ready'));
      await recordEvent(ctx.database.db, {
        companyId: user.companyId,
        userId: user.userId,
        kind: 'vault.edited-by-hand',
        entityType: 'vault',
        entityId: 1,
      });
      expect(await announcedSoFar()).toEqual([]);
      await stream.waitFor((f) => kindsOf(f).includes('vault.edited-by-hand'));
      stream.close();
    });
  },
);
