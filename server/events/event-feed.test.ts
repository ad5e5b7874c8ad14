import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotificationListener } from '../db/notification-listener';
import { buildAccount } from '../factories';
import { testEngines } from '../test/test-app';
import { useTestApp } from '../test/use-test-app';
import { EventFeed, type LiveEvent } from './event-feed';
import { latestEventId, recordEvent } from './event-log.repo';

async function eventually(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const until = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`gave up waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.each(testEngines())('the event feed on %s', (engine) => {
  const { ctx } = useTestApp(engine, { users: 0 });
  let feed: EventFeed;
  let listener: NotificationListener | undefined;
  beforeAll(async () => {
    const url = ctx.database.postgresUrl;
    listener = url ? new NotificationListener(url) : undefined;
    feed = new EventFeed(ctx.database, listener);
    listener?.start();
    feed.start();
  });
  afterAll(async () => {
    await feed.stop();
    await listener?.stop();
  });

  it('keeps up with the log while nobody subscribes, so a new subscriber is sent news only, not a backlog', async () => {
    const account = await buildAccount(ctx.database.db);
    const record = (entityId: number) =>
      recordEvent(ctx.database.db, {
        companyId: account.companyId,
        userId: account.userId,
        kind: 'vault.added',
        entityType: 'vault',
        entityId,
      });
    for (let i = 1; i <= 30; i++) await record(i);
    const latest = await latestEventId(ctx.database.db);
    await eventually(async () => (await feed.latestId()) === latest, 'the feed knows the latest event');

    const received: LiveEvent[] = [];
    const unsubscribe = feed.subscribe(account.companyId, (event) => received.push(event));
    await record(1000);
    await eventually(() => received.some((e) => e.entityId === 1000), 'the new event');
    expect(received.map((e) => e.entityId)).toEqual([1000]);
    unsubscribe();
  });

  it.runIf(engine === 'postgres')(
    'delivers an event that commits after a later one, once, without reading the window again each time',
    async () => {
      const account = await buildAccount(ctx.database.db);
      const record = (db: typeof ctx.database.db, entityId: number) =>
        recordEvent(db, {
          companyId: account.companyId,
          userId: account.userId,
          kind: 'vault.added',
          entityType: 'vault',
          entityId,
        });
      const received: LiveEvent[] = [];
      const unsubscribe = feed.subscribe(account.companyId, (event) => received.push(event));
      let commitLate!: () => void;
      const gate = new Promise<void>((resolve) => (commitLate = resolve));
      let recordedLate!: () => void;
      const recorded = new Promise<void>((resolve) => (recordedLate = resolve));
      // the first event takes its id in a transaction that stays open while a second one commits
      const late = ctx.database.db.transaction().execute(async (trx) => {
        await record(trx, 1);
        recordedLate();
        await gate;
      });
      await recorded;
      await record(ctx.database.db, 2);
      await eventually(() => received.some((e) => e.entityId === 2), 'the later event');
      commitLate();
      await late;
      await record(ctx.database.db, 3);
      await eventually(() => received.some((e) => e.entityId === 3), 'the event after both');
      await eventually(() => received.some((e) => e.entityId === 1), 'the event that committed late');
      expect(received.map((e) => e.entityId).sort()).toEqual([1, 2, 3]);
      unsubscribe();
    },
  );
});
