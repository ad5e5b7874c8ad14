import { describe, expect, it } from 'vitest';
import { dayOf, isoOf, monthStart, nextMonthStart } from '@domain/billing/days';
import type {
  AccountSummaryDto,
  AgingDto,
  BillingOverviewDto,
  BillingSettingsDto,
  HoldsDto,
  InvoiceDto,
  PaymentDto,
} from '@domain/schemas/billing.schema';
import type { VaultDto } from '@domain/schemas/warehouse.schema';
import { testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';
import { seedDemoRacks } from '../racks/racks.demo';
import { seedDemoWarehouses } from '../warehouses/warehouses.demo';
import { listNotBilled, today } from '../accounts/accounts.service';
import { seedDemoBilling } from './billing.demo';
import { dryRun } from './billing-run.service';
import { listRates } from './billing.service';

describe.each(testEngines())('the demo company billing on %s', (engine) => {
  const { ctx, user } = useTestApp(engine);
  const get = async <T>(url: string): Promise<T> => {
    const res = await user.request({ method: 'GET', url });
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return res.json<T>();
  };

  it('puts the demo orders on accounts (one SIT paid by an agency), leaves three not billed, and has rates to run', async () => {
    const db = ctx.database.db;
    const warehouseIds = await seedDemoWarehouses(db, user.companyId);
    await seedDemoRacks(db, user.companyId, warehouseIds);
    const before = await listNotBilled(db, user.companyId);
    await seedDemoBilling(db, { companyId: user.companyId, userId: user.userId });

    const accounts = await get<AccountSummaryDto[]>('/api/storage-accounts');
    expect(accounts).toHaveLength(before.length - 3);
    expect(accounts.filter((a) => a.kind === 'sit')).toHaveLength(1);
    expect(await listNotBilled(db, user.companyId)).toHaveLength(3);
    const rates = await listRates(db, user.companyId);
    expect(
      rates
        .filter((r) => r.kind === 'storage')
        .map((r) => r.unit_type)
        .sort(),
    ).toEqual(['couchbox', 'liftvan', 'pallet', 't2', 'vault']);
    // this month's dry run bills every account still holding units; the month of the latest move-in has its handling in
    const run = await dryRun(db, user.companyId, today().slice(0, 7));
    expect(run.invoices.length).toBeGreaterThan(0);
    expect(run.total).toBeGreaterThan(0);
    const latest = accounts
      .map((a) => a.move_in!)
      .sort()
      .at(-1)!;
    const latestRun = await dryRun(db, user.companyId, latest.slice(0, 7));
    expect(latestRun.invoices.flatMap((i) => i.lines).some((l) => l.kind === 'handling-in')).toBe(true);
  });

  it('has a past: units moved in over months, two months invoiced and paid but for one account, overdue and on hold', async () => {
    const day = dayOf(today());
    const monthOf = (d: string) => d.slice(0, 7);
    const lastMonth = isoOf(monthStart(monthStart(day) - 1));
    const monthBefore = isoOf(monthStart(dayOf(lastMonth) - 1));

    // move-ins: spread over at least four months of the last half year, none in the future
    const accounts = await get<AccountSummaryDto[]>('/api/storage-accounts');
    const moveIns = accounts.map((a) => a.move_in!);
    expect(new Set(moveIns.map(monthOf)).size).toBeGreaterThanOrEqual(4);
    expect(moveIns.filter((d) => d === today()).length).toBeLessThan(moveIns.length);
    expect(Math.min(...moveIns.map(dayOf))).toBeLessThan(day - 120);
    expect(Math.max(...moveIns.map(dayOf))).toBeLessThanOrEqual(day);
    expect(Math.min(...moveIns.map(dayOf))).toBeGreaterThanOrEqual(day - 200);
    // the vaults not billed and the pallets (no account reads them) moved in over months as well
    const db = ctx.database.db;
    for (const table of ['vaults', 'pallets'] as const) {
      const rows = await db
        .selectFrom(table)
        .select('created_at')
        .where('company_id', '=', user.companyId)
        .execute();
      expect(new Set(rows.map((r) => monthOf(r.created_at))).size, table).toBeGreaterThanOrEqual(4);
      expect(rows.every((r) => dayOf(r.created_at) <= day)).toBe(true);
    }

    // invoices for each of the two previous months, issued on the month's first day or on the day an account opened
    // during the month (as the daily billing job bills it), due per the terms; every account in by then billed
    const settings = await get<BillingSettingsDto>('/api/billing/settings');
    const invoices = (await get<InvoiceDto[]>('/api/invoices')).filter((i) => i.kind === 'invoice');
    for (const month of [monthBefore, lastMonth]) {
      const ofMonth = invoices.filter((i) => i.period_start === month);
      expect(ofMonth.length, month).toBeGreaterThan(1);
      for (const i of ofMonth) {
        const opened = accounts.find((a) => a.id === i.account_id)!.move_in!;
        expect(i.issue_date).toBe(opened > month ? opened : month);
        expect(i.due_date).toBe(isoOf(dayOf(i.issue_date!) + settings.payment_terms_days));
      }
      const nextMonth = isoOf(nextMonthStart(dayOf(month)));
      const billed = new Set(ofMonth.map((i) => i.account_id));
      for (const a of accounts)
        if (a.move_in !== null && a.move_in < nextMonth) expect(billed.has(a.id), a.customer_name).toBe(true);
    }
    expect(invoices.every((i) => i.period_start !== null && i.period_start <= lastMonth)).toBe(true);

    // the payments leave exactly one account's balance open, and all of it overdue
    const payments = await get<PaymentDto[]>('/api/payments');
    expect(payments.length).toBeGreaterThan(0);
    expect(payments.every((p) => dayOf(p.paid_on) < day)).toBe(true);
    const owing = accounts.filter((a) => a.balance !== 0);
    expect(owing).toHaveLength(1);
    const overdue = owing[0]!;
    const open = invoices.filter((i) => i.open > 0);
    expect(open.length).toBeGreaterThanOrEqual(2);
    expect(open.every((i) => i.account_id === overdue.id)).toBe(true);
    expect(overdue.balance).toBe(open.reduce((s, i) => s + i.open, 0));
    const oldestDue = Math.min(...open.map((i) => dayOf(i.due_date!)));
    expect(day - oldestDue).toBeGreaterThan(settings.hold_after_days);

    // that account is on hold, and its units carry the badge
    expect(accounts.filter((a) => a.on_hold).map((a) => a.id)).toEqual([overdue.id]);
    const holds = await get<HoldsDto>('/api/holds');
    expect(holds.vault_ids.length + holds.pallet_ids.length).toBe(overdue.units);
    expect(overdue.units).toBeGreaterThan(0);
    for (const id of holds.vault_ids) {
      const vault = await get<VaultDto>(`/api/vaults/${id}`);
      expect(overdue.orders).toContain(vault.order_name);
    }

    // aging: the whole balance is past due, in the buckets after "current"
    const aging = await get<AgingDto>('/api/billing/aging');
    expect(aging.rows.map((r) => r.account_id)).toEqual([overdue.id]);
    expect(aging.totals.current).toBe(0);
    expect(aging.total).toBe(overdue.balance);
    expect(aging.total).toBeGreaterThan(0);

    // the SIT account ends within 30 days, on the dashboard's card
    const overview = await get<BillingOverviewDto>('/api/billing/overview');
    const sit = accounts.find((a) => a.kind === 'sit')!;
    expect(dayOf(sit.conversion_date!) - day).toBeGreaterThan(0);
    expect(dayOf(sit.conversion_date!) - day).toBeLessThanOrEqual(30);
    expect(overview.upcoming_conversions.map((c) => c.account_id)).toEqual([sit.id]);
    expect(overview.on_hold).toBe(1);
    expect(overview.overdue_total).toBe(overdue.balance);
  });
});
