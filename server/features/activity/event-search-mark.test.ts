import { sql } from 'kysely';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '../../db/database';
import { type EventRecord, recordEvent } from '../../events/event-log.repo';
import { advanceIndexMark } from '../../events/event-search.repo';
import { testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';
import { buildVault, buildWarehouse } from '../../factories';
import { loadActivity } from './activity.service';

// Decision 021 on PostgreSQL: ids become visible at commit, not in id order. The mark of indexed events may only pass
// an id once the transaction that could still hold it has ended; a read finds every event committed before it, late
// commits with lower ids included. Real concurrency: transactions held open on connections of their own.

const today = () => new Date().toISOString().slice(0, 10);

interface Held {
  id: number;
  commit: () => Promise<void>;
  rollBack: () => Promise<void>;
}

describe.skipIf(!testEngines().includes('postgres'))('the indexed mark on PostgreSQL', () => {
  const { ctx, user: boss } = useTestApp('postgres', { users: 1 });
  let db: Db;
  let depot: Awaited<ReturnType<typeof buildWarehouse>>;

  const event = (subject: string): EventRecord => ({
    companyId: boss.companyId,
    userId: boss.userId,
    kind: 'vault.edited',
    entityType: 'vault',
    entityId: 7,
    // no warehouse: a warehouse's event also moves its revision, in a row of the connection's slot (migration 0016),
    // which another connection may share; a transaction held open here must not hold up the writes beside it
    warehouseId: null,
    subject,
    customer: `CUSTOMER ${subject}`,
  });
  const idOf = async (conn: Db, subject: string) =>
    (await conn.selectFrom('events').select('id').where('subject', '=', subject).executeTakeFirstOrThrow())
      .id;
  const mark = async () =>
    (await db.selectFrom('event_search_progress').select('indexed_through').executeTakeFirstOrThrow())
      .indexed_through;
  /** Events at or below the mark that are not indexed: the mark's promise broken (none ever). */
  const unindexedBelowMark = async () =>
    (
      await sql<{ id: number }>`select e.id from events e
        where e.id <= (select indexed_through from event_search_progress)
          and not exists (select 1 from event_search s where s.event_id = e.id)`.execute(db)
    ).rows.map((row) => row.id);
  const highestId = async () =>
    Number(
      (
        await db
          .selectFrom('events')
          .select((eb) => eb.fn.max('id').as('id'))
          .executeTakeFirstOrThrow()
      ).id,
    );
  const isIndexed = async (id: number) =>
    (await db.selectFrom('event_search').select('event_id').where('event_id', '=', id).executeTakeFirst()) !==
    undefined;

  /** Records an event in a transaction of its own connection that stays open until told to commit or roll back. */
  async function holdOpen(subject: string): Promise<Held> {
    let finish!: (commit: boolean) => void;
    const decided = new Promise<boolean>((resolve) => (finish = resolve));
    let recorded!: (id: number) => void;
    const idTaken = new Promise<number>((resolve) => (recorded = resolve));
    const done = db
      .transaction()
      .execute(async (trx) => {
        await recordEvent(trx, event(subject));
        const id = await idOf(trx, subject);
        // no trigger writes the search keys in the event's transaction any more
        expect(
          await trx.selectFrom('event_search').select('event_id').where('event_id', '=', id).execute(),
        ).toEqual([]);
        recorded(id);
        if (!(await decided)) throw new Error('rolled back on purpose');
      })
      .catch((error: unknown) => {
        if (!(error instanceof Error && error.message === 'rolled back on purpose')) throw error;
      });
    const id = await idTaken;
    return {
      id,
      commit: async () => {
        finish(true);
        await done;
      },
      rollBack: async () => {
        finish(false);
        await done;
      },
    };
  }

  /** Runs the background catch-up until the mark reaches `id` (another one at it answers 'busy'; then again). */
  const advanceTo = (id: number) =>
    vi.waitFor(
      async () => {
        await advanceIndexMark(db);
        expect(await mark()).toBeGreaterThanOrEqual(id);
      },
      { timeout: 10_000, interval: 20 },
    );

  const findBy = async (subject: string) => {
    const filters = [
      { q: subject },
      { q: `customer ${subject}` },
      { kind: 'vault.edited', q: subject },
      { member: boss.userId, q: subject },
      { kind: 'vault', q: subject },
      { from: today(), to: today(), q: subject },
    ];
    const found: number[][] = [];
    for (const filter of filters)
      found.push((await loadActivity(db, boss.companyId, filter)).items.map((item) => item.id));
    return found;
  };

  beforeAll(async () => {
    db = ctx.database.db;
    depot = await buildWarehouse(db, { companyId: boss.companyId, name: 'Mark Depot', rows: 1, cols: 2 });
  });

  it('keeps the mark below a late commit until it ends, and the next read finds the late event by every filter', async () => {
    const late = await holdOpen('LATE-1');
    await recordEvent(db, event('EARLY-2'));
    const early = await idOf(db, 'EARLY-2');
    expect(early).toBeGreaterThan(late.id);
    try {
      for (let i = 0; i < 5; i += 1) {
        expect(['done', 'pending', 'busy']).toContain(await advanceIndexMark(db));
        expect(await mark()).toBeLessThan(late.id);
      }
      // the committed one is found meanwhile, through the read's own catch-up
      expect((await findBy('EARLY-2')).every((ids) => ids.length === 1 && ids[0] === early)).toBe(true);
    } finally {
      await late.commit();
    }
    expect(await findBy('LATE-1')).toEqual(Array.from({ length: 6 }, () => [late.id]));
    const res = await boss.request({ method: 'GET', url: '/api/activity?q=LATE-1' });
    expect((res.json() as { items: { id: number }[] }).items.map((item) => item.id)).toEqual([late.id]);
    await advanceTo(early);
    expect(await unindexedBelowMark()).toEqual([]);
  });

  it('waits also for a transaction whose xid is newer than every ended one (the snapshot xmax alone is not enough)', async () => {
    // U takes its xid first; then T takes a newer xid and the lower event id; then U records and commits. A snapshot
    // now ends (xmax) at U's xid + 1, at or below T's xid, and T is still running.
    let releaseU!: () => void;
    const uMayRecord = new Promise<void>((resolve) => (releaseU = resolve));
    let uHasXid!: () => void;
    const uStarted = new Promise<void>((resolve) => (uHasXid = resolve));
    const u = db.transaction().execute(async (trx) => {
      await sql`select pg_current_xact_id()`.execute(trx);
      uHasXid();
      await uMayRecord;
      await recordEvent(trx, event('OLDER-XID-2'));
    });
    await uStarted;
    const t = await holdOpen('NEWER-XID-1');
    releaseU();
    await u;
    const uId = await idOf(db, 'OLDER-XID-2');
    expect(uId).toBeGreaterThan(t.id);
    try {
      for (let i = 0; i < 5; i += 1) {
        await advanceIndexMark(db);
        expect(await mark()).toBeLessThan(t.id);
      }
    } finally {
      await t.commit();
    }
    expect((await findBy('NEWER-XID-1'))[0]).toEqual([t.id]);
    await advanceTo(uId);
    expect(await unindexedBelowMark()).toEqual([]);
  });

  it('passes the hole a rolled-back event leaves, which no read ever shows', async () => {
    const gone = await holdOpen('GONE-1');
    await recordEvent(db, event('KEPT-2'));
    const kept = await idOf(db, 'KEPT-2');
    await advanceIndexMark(db);
    expect(await mark()).toBeLessThan(gone.id);
    await gone.rollBack();
    await advanceTo(kept);
    expect(await unindexedBelowMark()).toEqual([]);
    expect(await isIndexed(gone.id)).toBe(false);
    expect(await findBy('GONE-1')).toEqual(Array.from({ length: 6 }, () => []));
    expect((await findBy('KEPT-2'))[0]).toEqual([kept]);
  });

  it('lets catch-ups run at once, on connections of their own and beside writes, without an error or a broken mark', async () => {
    const held = await holdOpen('HELD-1');
    let progress: string[] = [];
    try {
      const writes = Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          db.transaction().execute((trx) => recordEvent(trx, event(`BESIDE-${i}`))),
        ),
      );
      const catchUps = Promise.all(
        Array.from({ length: 4 }, async () => {
          const outcomes: string[] = [];
          for (let round = 0; round < 4; round += 1) outcomes.push(await advanceIndexMark(db));
          return outcomes;
        }),
      );
      const [, outcomes] = await Promise.all([writes, catchUps]);
      progress = outcomes.flat();
      expect(await mark()).toBeLessThan(held.id);
      expect(await unindexedBelowMark()).toEqual([]);
    } finally {
      await held.commit();
    }
    expect(progress).toHaveLength(16);
    expect(progress.every((outcome) => ['done', 'pending', 'busy'].includes(outcome))).toBe(true);
    await advanceTo(await highestId());
    expect(await unindexedBelowMark()).toEqual([]);
    expect((await findBy('HELD-1'))[0]).toEqual([held.id]);
  });

  it("moves the mark by itself shortly after writes, the app's background catch-up alone", async () => {
    await recordEvent(db, event('ALONE-1'));
    const id = await idOf(db, 'ALONE-1');
    await vi.waitFor(async () => expect(await mark()).toBeGreaterThanOrEqual(id), { timeout: 10_000 });
    expect(await isIndexed(id)).toBe(true);
    expect(await unindexedBelowMark()).toEqual([]);
    // a vault write records its event inside its one statement, not through recordEvent: the live feed, which hears
    // of every committed event, wakes the catch-up (the mark is at the last event, so nothing else is due)
    const vault = await buildVault(db, {
      companyId: boss.companyId,
      fieldId: depot.field('A1').id,
      name: 'M-1',
    });
    await vi.waitFor(async () => expect(await mark()).toBe(await highestId()), { timeout: 10_000 });
    const res = await boss.request({
      method: 'PUT',
      url: '/api/vaults/move',
      payload: { vaultId: vault.id, fieldId: depot.field('B1').id, position: 3 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const moved = await highestId();
    await vi.waitFor(async () => expect(await mark()).toBeGreaterThanOrEqual(moved), { timeout: 10_000 });
    expect(await isIndexed(moved)).toBe(true);
    expect(await unindexedBelowMark()).toEqual([]);
  });
});
