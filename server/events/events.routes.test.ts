import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, signIn, startTestApp, testEngines } from '../test/test-app';
import { recordEvent } from './event-log.repo';

interface Stream {
  frames: string[];
  waitFor(predicate: (frames: string[]) => boolean): Promise<void>;
  close(): void;
}

function openStream(port: number, cookie: string, lastEventId?: number): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { cookie };
    if (lastEventId !== undefined) headers['last-event-id'] = String(lastEventId);
    const req = http.get({ host: '127.0.0.1', port, path: '/api/events', headers }, (res) => {
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/event-stream');
      const frames: string[] = [];
      let waiters: (() => void)[] = [];
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        frames.push(...chunk.split('\n\n').filter(Boolean));
        for (const w of waiters) w();
      });
      resolve({
        frames,
        waitFor: (predicate) =>
          new Promise<void>((done, fail) => {
            const timer = setTimeout(
              () => fail(new Error(`no matching frame in: ${frames.join(' | ')}`)),
              5000,
            );
            const check = () => {
              if (predicate(frames)) {
                clearTimeout(timer);
                waiters = waiters.filter((w) => w !== check);
                done();
              }
            };
            waiters.push(check);
            check();
          }),
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
  });
}

describe.each(testEngines())('live events on %s', (engine) => {
  let ctx: TestContext;
  let port: number;
  beforeAll(async () => {
    ctx = await startTestApp(engine);
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    port = (ctx.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('refuses a signed-out caller', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/events' });
    expect(res.statusCode).toBe(401);
  });

  it("delivers a company's events to its own streams only", async () => {
    const a = await signIn(ctx);
    const b = await signIn(ctx);
    const streamA = await openStream(port, a.cookie);
    const streamB = await openStream(port, b.cookie);
    await streamA.waitFor((f) => f.some((x) => x.includes('event: ready')));
    await streamB.waitFor((f) => f.some((x) => x.includes('event: ready')));

    await recordEvent(ctx.database.db, {
      companyId: a.companyId,
      userId: a.userId,
      kind: 'vault.added',
      entityType: 'vault',
      entityId: 7,
      warehouseId: 3,
    });
    await recordEvent(ctx.database.db, {
      companyId: b.companyId,
      userId: b.userId,
      kind: 'pallet.deleted',
      entityType: 'pallet',
      entityId: 9,
    });

    await streamA.waitFor((f) => f.some((x) => x.includes('"kind":"vault.added"')));
    await streamB.waitFor((f) => f.some((x) => x.includes('"kind":"pallet.deleted"')));
    expect(streamA.frames.join()).not.toContain('pallet.deleted');
    expect(streamB.frames.join()).not.toContain('vault.added');
    const frame = streamA.frames.find((x) => x.includes('vault.added'))!;
    expect(frame).toMatch(/^id: \d+\nevent: change\ndata: /);
    expect(JSON.parse(frame.split('data: ')[1]!)).toMatchObject({
      kind: 'vault.added',
      entityType: 'vault',
      entityId: 7,
      warehouseId: 3,
    });
    streamA.close();
    streamB.close();
  });

  it('catches a reconnecting browser up from its Last-Event-ID', async () => {
    const a = await signIn(ctx);
    await recordEvent(ctx.database.db, {
      companyId: a.companyId,
      userId: a.userId,
      kind: 'vault.moved',
      entityType: 'vault',
      entityId: 1,
    });
    const rows = await ctx.database.db
      .selectFrom('events')
      .select('id')
      .where('company_id', '=', a.companyId)
      .orderBy('id')
      .execute();
    const seen = rows[0]!.id;
    await recordEvent(ctx.database.db, {
      companyId: a.companyId,
      userId: a.userId,
      kind: 'vault.staged',
      entityType: 'vault',
      entityId: 1,
    });
    const stream = await openStream(port, a.cookie, seen);
    await stream.waitFor((f) => f.some((x) => x.includes('vault.staged')));
    expect(stream.frames.join()).not.toContain('vault.moved');
    stream.close();
  });
});
