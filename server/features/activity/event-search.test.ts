import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { ActivityPageDto } from '@domain/schemas/activity.schema';
import { buildAccount, buildVault, buildWarehouse } from '../../factories';
import { recordEvent } from '../../events/event-log.repo';
import { indexEventTail } from '../../events/event-search.repo';
import { type SignedIn, type TestContext, signIn, startTestApp, testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';
import { exportCompany, importCompany } from '../../transfer/company-transfer';
import { loadActivity } from './activity.service';

// Decision 021: an event's search keys live in event_search, written after the commit (on PostgreSQL below a mark
// that only passes an id once no transaction can still hold it: event-search-mark.test.ts). Whatever the moment, a
// read of the history finds every event committed before it.

const today = () => new Date().toISOString().slice(0, 10);

/** Events whose search keys are missing or differ from the event (none when the index is complete and true). */
async function unindexedEvents(ctx: TestContext): Promise<number[]> {
  const rows = await ctx.database.db
    .selectFrom('events as e')
    .leftJoin('event_search as s', 's.event_id', 'e.id')
    .select([
      'e.id',
      's.event_id',
      'e.company_id',
      's.company_id as s_company_id',
      'e.warehouse_id',
      's.warehouse_id as s_warehouse_id',
      'e.user_id',
      's.user_id as s_user_id',
      'e.kind',
      's.kind as s_kind',
      'e.entity_type',
      's.entity_type as s_entity_type',
      'e.entity_id',
      's.entity_id as s_entity_id',
      'e.subject',
      's.subject as s_subject',
      'e.customer',
      's.customer as s_customer',
      'e.created_at',
      's.created_at as s_created_at',
    ])
    .execute();
  return rows
    .filter(
      (r) =>
        r.event_id === null ||
        r.company_id !== r.s_company_id ||
        r.warehouse_id !== r.s_warehouse_id ||
        r.user_id !== r.s_user_id ||
        r.kind !== r.s_kind ||
        r.entity_type !== r.s_entity_type ||
        r.entity_id !== r.s_entity_id ||
        r.subject !== r.s_subject ||
        r.customer !== r.s_customer ||
        String(r.created_at) !== String(r.s_created_at),
    )
    .map((r) => r.id);
}

const countRows = async (ctx: TestContext, table: 'events' | 'event_search') =>
  Number(
    (
      await ctx.database.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe.each(testEngines())('the history search keys on %s', (engine) => {
  const { ctx, user: boss, other } = useTestApp(engine);
  let warehouse: Awaited<ReturnType<typeof buildWarehouse>>;
  let vaultId: number;

  const activity = async (who: SignedIn, query: string) => {
    const res = await who.request({ method: 'GET', url: `/api/activity?${query}` });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as ActivityPageDto).items.map((item) => item.id);
  };
  const latestEventId = async () =>
    (
      await ctx.database.db
        .selectFrom('events')
        .select('id')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirstOrThrow()
    ).id;
  /** A warehouse of the company with one vault in A1 (the factories record its 'vault.added'). */
  const depotWithVault = async (companyId: number, depot: string, vault: string, customerName: string) => {
    const built = await buildWarehouse(ctx.database.db, { companyId, name: depot, rows: 2, cols: 2 });
    const placed = await buildVault(ctx.database.db, {
      companyId,
      fieldId: built.field('A1').id,
      name: vault,
      customerName,
    });
    return { warehouse: built, vaultId: placed.id };
  };
  const moveIn = async (who: SignedIn, place: Awaited<ReturnType<typeof depotWithVault>>, to: string) => {
    const res = await who.request({
      method: 'PUT',
      url: '/api/vaults/move',
      payload: { vaultId: place.vaultId, fieldId: place.warehouse.field(to).id, position: 3 },
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const move = (who: SignedIn, to: string) => moveIn(who, { warehouse, vaultId }, to);

  beforeAll(async () => {
    ({ warehouse, vaultId } = await depotWithVault(boss.companyId, 'Search Depot', 'S-21', 'Sam Search'));
  });

  it('finds an event by every filter right after the write that made it, and only in its company', async () => {
    await move(boss, 'B2');
    const id = await latestEventId();
    const filters = [
      '',
      `warehouse=${warehouse.id}`,
      `member=${boss.userId}`,
      'kind=vault.moved',
      'kind=vault',
      'q=S-21',
      'q=sam search',
      `from=${today()}&to=${today()}`,
      `warehouse=${warehouse.id}&member=${boss.userId}&kind=vault.moved&q=S-21&from=${today()}`,
    ];
    for (const filter of filters) {
      expect((await activity(boss, filter))[0], filter).toBe(id);
      expect(await activity(other, filter), filter).not.toContain(id);
    }
    const timeline = await boss.request({ method: 'GET', url: `/api/vaults/${vaultId}/history` });
    expect((timeline.json() as { id: number }[])[0]!.id).toBe(id);
    const csv = await boss.request({ method: 'GET', url: '/api/activity/export?q=S-21&kind=vault.moved' });
    expect(csv.body.split('\n').filter((line) => line.includes('vault.moved'))).toHaveLength(1);
  });

  it('indexes a burst of events completely: by the read that follows it, and shortly after the writes alone', async () => {
    const { db } = ctx.database;
    // more events than one catch-up batch, written in one transaction
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < 2_500; i += 1)
        await recordEvent(trx, {
          companyId: boss.companyId,
          userId: boss.userId,
          kind: 'pallet.edited',
          entityType: 'pallet',
          entityId: i + 1,
          warehouseId: warehouse.id,
          subject: `P-${i}`,
          customer: `BURST ${i % 7}`,
        });
    });
    const page = await loadActivity(db, boss.companyId, { kind: 'pallet', q: 'P-2499' });
    expect(page.items.map((item) => item.subject)).toEqual(['P-2499']);
    expect(await unindexedEvents(ctx)).toEqual([]);
    expect(await indexEventTail(db)).toBe(0);

    // writes and reads at once (moves of one vault: one that loses the race answers 409 and changes nothing)
    const [moves, reads] = await Promise.all([
      Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          boss.request({
            method: 'PUT',
            url: '/api/vaults/move',
            payload: { vaultId, fieldId: warehouse.field(i % 2 === 0 ? 'A1' : 'B1').id, position: 3 },
          }),
        ),
      ),
      Promise.all(Array.from({ length: 6 }, () => activity(boss, 'kind=vault.moved'))),
    ]);
    expect(moves.every((res) => res.statusCode === 200 || res.statusCode === 409)).toBe(true);
    expect(reads.every((ids) => ids.length > 0)).toBe(true);
    expect(await unindexedEvents(ctx).then((ids) => ids.length)).toBeLessThanOrEqual(6);
    // no read after these writes: the catch-up that follows writes indexes them by itself
    await move(boss, 'A2');
    await vi.waitFor(async () => expect(await unindexedEvents(ctx)).toEqual([]), { timeout: 10_000 });
    expect(await countRows(ctx, 'event_search')).toBe(await countRows(ctx, 'events'));
  });

  it('carries the history through a company export and import, findable by its filters there', async () => {
    const company = await buildAccount(ctx.database.db, { company: `Moving Search ${engine}` });
    const movers = await signIn(ctx, company);
    await moveIn(movers, await depotWithVault(movers.companyId, 'Moved Depot', 'T-5', 'Tara Transfer'), 'B1');
    const file = await exportCompany(ctx.database.db, company.companyName);

    const target = await startTestApp(engine);
    try {
      const { companyId } = await importCompany(target.database.db, file);
      const found = await loadActivity(target.database.db, companyId, { q: 'tara transfer', kind: 'vault' });
      expect(found.items.map((item) => [item.kind, item.subject, item.warehouse])).toEqual([
        ['vault.moved', 'T-5', 'Moved Depot'],
        ['vault.added', 'T-5', 'Moved Depot'],
      ]);
      expect(await unindexedEvents(target)).toEqual([]);
    } finally {
      await target.close();
    }
  });
});
