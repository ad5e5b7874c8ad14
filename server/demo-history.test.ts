import { describe, expect, it } from 'vitest';
import { dayOf, isoOf, monthStart } from '@domain/billing/days';
import type { ActivityPageDto } from '@domain/schemas/activity.schema';
import { DEMO_LOGIN, seedDemoIfEmpty } from './demo-seed';
import { today } from './features/accounts/accounts.service';
import { signIn, startTestApp, testEngines } from './test/test-app';

describe.each(testEngines())("the demo's history on %s", (engine) => {
  it('tells the past on the days it happened, in time order, and the date filter finds it there', async () => {
    const ctx = await startTestApp(engine);
    try {
      await seedDemoIfEmpty(ctx.database.db);
      const events = await ctx.database.db
        .selectFrom('events')
        .select(['id', 'kind', 'created_at'])
        .orderBy('id')
        .execute();
      const at = events.map((e) => new Date(e.created_at).toISOString());
      // the log is in time order again, and nothing happened later than now
      expect(at).toEqual([...at].sort());
      expect(at.at(-1)! <= new Date().toISOString()).toBe(true);

      const user = await ctx.database.db
        .selectFrom('users')
        .select(['id', 'company_id'])
        .where('email', '=', DEMO_LOGIN.email)
        .executeTakeFirstOrThrow();
      const demo = await signIn(ctx, {
        ...DEMO_LOGIN,
        companyId: user.company_id,
        companyName: 'the demo company',
        userId: user.id,
      });
      const activity = async (query: string) =>
        (await demo.request({ method: 'GET', url: `/api/activity?${query}` })).json<ActivityPageDto>().items;
      // the month before last was billed on its first day: its invoices show on that day, not today
      const firstRun = isoOf(monthStart(monthStart(monthStart(dayOf(today())) - 1) - 1));
      const thatDay = await activity(`from=${firstRun}&to=${firstRun}&kind=invoice.issued`);
      expect(thatDay.length).toBeGreaterThan(0);
      expect(thatDay.every((e) => e.at.startsWith(firstRun))).toBe(true);
      const todays = await activity(`from=${today()}&to=${today()}`);
      expect(
        todays.filter((e) => e.kind === 'invoice.issued' && e.at.slice(0, 7) !== today().slice(0, 7)),
      ).toEqual([]);
      expect(todays.map((e) => e.kind)).toContain('request.requested');
      // the units came in over the months before: their adds are spread over many days
      const adds = events
        .filter((e) => e.kind === 'vault.added')
        .map((e) => new Date(e.created_at).toISOString().slice(0, 10));
      expect(new Set(adds).size).toBeGreaterThan(3);
    } finally {
      await ctx.close();
    }
  });
});
