import { dayOf } from '@domain/billing/days';
import { daysOverdueByAccount, mayHold } from '@domain/billing/holds';
import { type BillingUnitType, UNIT_TYPES } from '@domain/billing/rates';
import { recurringRevenue } from '@domain/billing/revenue';
import type { BillingOverviewDto } from '@domain/schemas/billing.schema';
import type { Db } from '../../db/database';
import { findAccounts, findAccountUnits } from '../accounts/accounts.repo';
import { conversionDateOf, convertDueSitAccounts, today } from '../accounts/accounts.service';
import { findBillingSettings } from '../accounts/billing-settings.repo';
import { findOpenDues, findRates } from './billing.repo';
import { toRateRow } from './billing-run.service';
import { naturalCompare } from '@domain/rules/text';

// Issue 28: what the dashboard's billing card and the statistics' revenue show, for the Office role and Managers.

/** How far ahead the dashboard lists SIT conversions. */
export const CONVERSION_WINDOW_DAYS = 30;

const unitType = (type: string): BillingUnitType =>
  (UNIT_TYPES as readonly string[]).includes(type) ? (type as BillingUnitType) : 'vault';

/** GET /api/billing/overview */
export async function billingOverview(
  db: Db,
  companyId: number,
  asOf = today(),
): Promise<BillingOverviewDto> {
  await convertDueSitAccounts(db, companyId, asOf);
  const [settings, accounts, units, rateRows, invoices, warehouses] = await Promise.all([
    findBillingSettings(db, companyId),
    findAccounts(db, companyId),
    findAccountUnits(db, companyId),
    findRates(db, companyId),
    findOpenDues(db, companyId),
    db
      .selectFrom('warehouses')
      .where('company_id', '=', companyId)
      .select(['id', 'name'])
      .orderBy('name')
      .execute(),
  ]);
  const day = dayOf(asOf);

  const upcoming = accounts
    .filter((a) => a.kind === 'sit')
    .map((a) => ({ account: a, date: conversionDateOf(a, settings.sit_days_default) }))
    .filter((c): c is typeof c & { date: string } => c.date !== null)
    .map((c) => ({
      account_id: c.account.id,
      customer_name: c.account.customer_name,
      conversion_date: c.date,
      days_left: dayOf(c.date) - day,
    }))
    .filter((c) => c.days_left >= 0 && c.days_left <= CONVERSION_WINDOW_DAYS)
    .sort((a, b) => a.days_left - b.days_left || naturalCompare(a.customer_name, b.customer_name));

  const overdueTotal = invoices.filter((i) => i.dueDay < day).reduce((sum, i) => sum + i.open, 0);
  const overdueDays = daysOverdueByAccount(invoices, day);
  const onHold = new Set(accounts.filter((a) => a.on_hold).map((a) => a.id));

  const rates = rateRows.map(toRateRow);
  const stored = units
    .filter((u) => u.released_at === null && dayOf(u.created_at) <= day)
    .map((u) => ({ accountId: u.account_id, unitType: unitType(u.type), warehouseId: u.warehouse_id }));
  const revenue = new Map(recurringRevenue(stored, rates, day).map((r) => [r.warehouseId, r]));
  const names = new Map(warehouses.map((w) => [w.id, w.name]));

  return {
    as_of: asOf,
    currency: settings.currency,
    upcoming_conversions: upcoming,
    overdue_total: overdueTotal,
    overdue_accounts: [...overdueDays.values()].filter((d) => d > 0).length,
    on_hold: onHold.size,
    may_hold: [...overdueDays].filter(([id, d]) => !onHold.has(id) && mayHold(d, settings.hold_after_days))
      .length,
    hold_after_days: settings.hold_after_days,
    // every warehouse, with or without billed units, then the stage when units wait there
    revenue: [...warehouses.map((w) => w.id), ...(revenue.has(null) ? [null] : [])].map((id) => {
      const r = revenue.get(id);
      return {
        warehouse_id: id,
        warehouse_name: id === null ? null : (names.get(id) ?? null),
        units: r?.units ?? 0,
        monthly: r?.monthly ?? 0,
        unrated: r?.unrated ?? 0,
      };
    }),
  };
}
