import { type Db, nowIso } from './db/database';
import { indexEventTail, SEARCH_COLUMNS } from './events/event-search.repo';

// The demo's past (decision 052) is seeded in one go today, so every event of it is written now, in the order the
// seeding wrote it: the Activity page would show two months of invoices and payments as made a minute ago. This dates
// each event to the day it tells of and puts the log back in time order, which the page's date filter relies on (it
// reads a range of days as a range of ids: activity.repo's idRangeOf).

type EventRow = Awaited<ReturnType<typeof readEvents>>[number];

const readEvents = (db: Db, companyId: number) =>
  db.selectFrom('events').selectAll().where('company_id', '=', companyId).orderBy('id').execute();

/** A timestamp or a day as the engine answers it (text, or a Date on PostgreSQL), as ISO text. */
const isoText = (value: unknown): string => (value instanceof Date ? value.toISOString() : String(value));

/** The moments the demo's rows tell of: a vault's move-in, an invoice's issue and the payment that settled it. */
async function toldTimes(db: Db, companyId: number) {
  const [vaults, invoices, payments] = await Promise.all([
    db.selectFrom('vaults').select(['id', 'created_at']).where('company_id', '=', companyId).execute(),
    db
      .selectFrom('invoices')
      .select(['id', 'issue_date'])
      .where('company_id', '=', companyId)
      .where('issue_date', 'is not', null)
      .execute(),
    db
      .selectFrom('payment_allocations')
      .innerJoin('payments', 'payments.id', 'payment_allocations.payment_id')
      .select(['payment_allocations.invoice_id', 'payments.paid_on'])
      .where('payments.company_id', '=', companyId)
      .execute(),
  ]);
  const dayAt = (day: unknown, time: string) => `${isoText(day).slice(0, 10)}T${time}`;
  const paid = new Map<number, string>();
  for (const p of payments) {
    const at = dayAt(p.paid_on, '15:30:00.000Z');
    if (at > (paid.get(p.invoice_id) ?? '')) paid.set(p.invoice_id, at);
  }
  return {
    vault: new Map(vaults.map((v) => [v.id, isoText(v.created_at)])),
    issued: new Map(invoices.map((i) => [i.id, dayAt(i.issue_date, '09:00:00.000Z')])),
    paid,
  };
}

/**
 * When each event happened in the demo's story: a vault's events on its move-in, an invoice's issue on its issue
 * day, its settling on the day it was paid. An event without a day of its own (a field made full among the move-ins)
 * takes that of the event written before it, the first ones the earliest day; those after the last dated one (today's
 * requests) keep their time. Nothing is dated after `now`.
 */
function storyTimes(
  events: readonly Pick<EventRow, 'kind' | 'entity_type' | 'entity_id' | 'created_at'>[],
  told: Awaited<ReturnType<typeof toldTimes>>,
  now: string,
): string[] {
  const own = events.map((e) => {
    if (e.entity_id === null) return undefined;
    if (e.entity_type === 'vault') return told.vault.get(e.entity_id);
    if (e.kind === 'invoice.issued') return told.issued.get(e.entity_id);
    if (e.kind === 'invoice.paid') return told.paid.get(e.entity_id);
    return undefined;
  });
  const lastDated = own.findLastIndex((t) => t !== undefined);
  let previous = own.filter((t) => t !== undefined).sort()[0];
  return events.map((e, i) => {
    if (i > lastDated) return isoText(e.created_at);
    previous = own[i] ?? previous;
    const at = previous ?? isoText(e.created_at);
    return at < now ? at : now;
  });
}

/** Dates the demo company's events to its story and rewrites the log, and its search keys, in that order. */
export async function dateDemoHistory(db: Db, companyId: number): Promise<void> {
  // every event has its search keys first, so the catch-up finds nothing of the company's left to index
  await indexEventTail(db);
  await db.transaction().execute(async (trx) => {
    const events = await readEvents(trx, companyId);
    const at = storyTimes(events, await toldTimes(trx, companyId), nowIso());
    const order = events
      .map((_, i) => i)
      .sort((a, b) => (at[a]! < at[b]! ? -1 : at[a]! > at[b]! ? 1 : a - b));
    // the ids stay, in their order; each takes the event that comes at its place in time
    for (const [slot, from] of order.entries()) {
      const { id: _id, ...event } = events[from]!;
      await trx
        .updateTable('events')
        .set({ ...event, created_at: at[from]! })
        .where('company_id', '=', companyId)
        .where('id', '=', events[slot]!.id)
        .execute();
    }
    await trx.deleteFrom('event_search').where('company_id', '=', companyId).execute();
    await trx
      .insertInto('event_search')
      .columns(['event_id', ...SEARCH_COLUMNS])
      .expression(
        trx
          .selectFrom('events')
          .select(['id', ...SEARCH_COLUMNS])
          .where('company_id', '=', companyId),
      )
      .execute();
  });
}
