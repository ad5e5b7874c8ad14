// Not useTestApp: the test migrates a raw database step by step (openUnmigratedDatabase); an app would migrate it at once.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openUnmigratedDatabase, testEngines } from '../../test/test-app';
import type { DatabaseHandle } from '../database';
import { buildAccount } from '../../factories';
import { recordEvent } from '../../events/event-log.repo';
import { indexEventTail } from '../../events/event-search.repo';
import { migrateToLatest } from '../migrate';

// A log written before 0019 keeps its search keys; the mark starts at the highest indexed event, and on PostgreSQL the
// events' ids go on after every id the old identity handed out (rolled-back ones included), no trigger left.
describe.each(testEngines())('migration 0019 (the indexed mark) on %s', (engine) => {
  let database: DatabaseHandle;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ database, close } = await openUnmigratedDatabase(engine));
  });
  afterAll(async () => {
    await close();
  });

  it('starts the mark at the last indexed event and lets ids go on above every one taken', async () => {
    const { db } = database;
    await migrateToLatest(db, '0018-field-row-versions');
    const account = await buildAccount(db);
    const record = (subject: string) =>
      db.transaction().execute((trx) =>
        recordEvent(trx, {
          companyId: account.companyId,
          userId: account.userId,
          kind: 'vault.edited',
          entityType: 'vault',
          entityId: 1,
          subject,
        }),
      );
    for (let i = 0; i < 3; i += 1) await record(`OLD-${i}`);
    // the trigger of 0017 indexed them on PostgreSQL
    if (engine === 'sqlite') await indexEventTail(db);
    const indexed = await db
      .selectFrom('event_search')
      .select((eb) => eb.fn.max('event_id').as('id'))
      .executeTakeFirstOrThrow();
    // an id taken by a transaction that rolled back: never handed out again
    await expect(
      db.transaction().execute(async (trx) => {
        await recordEvent(trx, {
          companyId: account.companyId,
          userId: null,
          kind: 'x.y',
          entityType: 'vault',
          entityId: 1,
        });
        throw new Error('undone');
      }),
    ).rejects.toThrow('undone');
    const taken = await db
      .selectFrom('events')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirstOrThrow();

    await migrateToLatest(db);
    const progress = await db.selectFrom('event_search_progress').selectAll().execute();
    expect(progress).toEqual([
      { id: 1, indexed_through: indexed.id, pending_through: null, pending_xid: null },
    ]);
    await record('NEW-1');
    const fresh = await db
      .selectFrom('events')
      .select('id')
      .where('subject', '=', 'NEW-1')
      .executeTakeFirstOrThrow();
    expect(fresh.id).toBeGreaterThan(Number(taken.id) + (engine === 'postgres' ? 1 : 0));
    if (engine === 'postgres') {
      // off the write's path: the new event is not indexed until a catch-up or a read
      const triggers = await sql<{ n: number }>`select count(*)::integer as n from pg_trigger
        where tgrelid = 'events'::regclass and tgname = 'events_searchable'`.execute(db);
      expect(triggers.rows[0]!.n).toBe(0);
      expect(
        await db.selectFrom('event_search').select('event_id').where('event_id', '=', fresh.id).execute(),
      ).toEqual([]);
    }
    expect(await indexEventTail(db)).toBe(1);
  });
});
