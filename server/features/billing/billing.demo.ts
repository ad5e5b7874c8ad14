import { dayOf, type DayNumber, isoOf, monthStart, nextMonthStart } from '@domain/billing/days';
import { mayHold } from '@domain/billing/holds';
import type { BillingUnitType } from '@domain/billing/rates';
import type { NotBilledOrderDto } from '@domain/schemas/billing.schema';
import type { Actor } from '../../auth/actor';
import type { Db } from '../../db/database';
import {
  accountDaysOverdue,
  createAccount,
  createAccountsInBulk,
  listAccounts,
  listNotBilled,
  today,
} from '../accounts/accounts.service';
import { putOnHold } from '../accounts/holds.service';
import { setAccountOpened } from '../accounts/past.repo';
import { issueRun } from './billing-run.service';
import { addRate, getSettings, listInvoices, recordPayment, saveSettings } from './billing.service';

// The demo company's storage business (issue 28): the rates a mover would charge, and most orders on accounts, one
// of them SIT paid by an agency, so the billing screens open with something to run. A few orders stay "not billed".
// It has a past (decision 052): each of the two months before the seeding was billed on its first day, as the
// billing day does, with the accounts of the units that had come in by then, and an account opened later on its own
// day; every invoice was paid but one customer's, whose account is on hold, so invoices, payments, aging, statements
// and the hold badge show something.

/** Monthly storage per unit, in cents. */
const STORAGE_RATES: Record<BillingUnitType, number> = {
  vault: 9_500,
  liftvan: 12_500,
  t2: 6_500,
  couchbox: 4_500,
  pallet: 3_500,
};
const HANDLING_IN = 2_500;
const HANDLING_OUT = 2_500;
/** orders left without an account, so the "not billed" list shows what it is for */
const LEFT_NOT_BILLED = 3;
/** the customer who stopped paying: both invoices open, the account on hold */
const OVERDUE_CUSTOMER = 'WASHINGTON';
/** Net 15, and a hold once an invoice is 30 days past due: the oldest open invoice is always past that */
const PAYMENT_TERMS_DAYS = 15;
const HOLD_AFTER_DAYS = 30;
/** nothing is mailed for the past: its invoices went out back then */
const NO_MAIL = { on: false, portalUrl: null };

const PAYMENT_METHODS = ['check', 'transfer', 'card'] as const;

export async function seedDemoBilling(db: Db, actor: Actor, seedDay = today()): Promise<void> {
  const day = dayOf(seedDay);
  // the rates have been in force since before the first unit came in
  const from = isoOf(monthStart(day - 200));
  for (const [unit, amount] of Object.entries(STORAGE_RATES) as [BillingUnitType, number][]) {
    await addRate(db, actor, { kind: 'storage', unit_type: unit, amount, effective_from: from });
    await addRate(db, actor, {
      kind: 'handling-in',
      unit_type: unit,
      amount: HANDLING_IN,
      effective_from: from,
    });
    await addRate(db, actor, {
      kind: 'handling-out',
      unit_type: unit,
      amount: HANDLING_OUT,
      effective_from: from,
    });
  }
  await addRate(db, actor, { kind: 'valuation', amount: 60, effective_from: from });
  const settings = await getSettings(db, actor.companyId);
  await saveSettings(db, actor.companyId, {
    ...settings,
    payment_terms_days: PAYMENT_TERMS_DAYS,
    hold_after_days: HOLD_AFTER_DAYS,
  });

  const orders = await listNotBilled(db, actor.companyId);
  const [sit, ...rest] = orders.slice(0, Math.max(0, orders.length - LEFT_NOT_BILLED));
  if (!sit) return;
  const opened = new Set<number>();
  /** Opens the accounts of the orders that had come in by `by` (all when omitted), as the office did back then. */
  const openAccounts = async (by?: DayNumber) => {
    const due = (o: NotBilledOrderDto) =>
      !opened.has(o.order_id) && (by === undefined || dayOf(o.move_in) <= by);
    if (due(sit)) {
      opened.add(sit.order_id);
      // a household in transit, stored from the day it came in: its carrier pays the first 90 days
      await createAccount(db, actor, {
        order_ids: [sit.order_id],
        kind: 'sit',
        sit_authorization: 'SIT-24-0117',
        sit_payer: 'agency',
        agency_name: 'Atlas Relocation Network',
        agency_reference: 'ARN-55812',
        sit_start: sit.move_in,
        sit_days_allowed: 90,
        declared_value: 2_500_000,
      });
    }
    const permanent = rest.filter(due);
    for (const o of permanent) opened.add(o.order_id);
    if (permanent.length > 0)
      await createAccountsInBulk(db, actor, { order_ids: permanent.map((o) => o.order_id) });
  };

  // the two previous months, each billed on its first day (a calendar month is billed at its start), and an account
  // opened during a month billed for it on the day it opened, as the daily billing job does (decision 051)
  const lastMonth = monthStart(monthStart(day) - 1);
  for (const first of [monthStart(lastMonth - 1), lastMonth]) {
    const month = isoOf(first).slice(0, 7);
    const openedIn = orders
      .map((o) => dayOf(o.move_in))
      .filter((d) => d > first && d < nextMonthStart(first));
    for (const billingDay of [first, ...new Set(openedIn.sort((a, b) => a - b))]) {
      await openAccounts(billingDay);
      await issueRun(db, actor, month, { asOf: isoOf(billingDay), mail: NO_MAIL });
    }
  }
  await openAccounts();
  // each account's history starts the day its units came in
  for (const account of await listAccounts(db, actor.companyId))
    if (account.move_in)
      await setAccountOpened(db, actor.companyId, account.id, `${account.move_in}T16:00:00.000Z`);

  // every invoice paid within two weeks of its issue, but those of the overdue customer
  const open = (await listInvoices(db, actor.companyId, { status: 'issued' }))
    .filter((i) => i.kind === 'invoice' && i.open > 0)
    .sort((a, b) => (a.number ?? 0) - (b.number ?? 0));
  for (const [index, invoice] of open.entries()) {
    if (invoice.customer_name === OVERDUE_CUSTOMER) continue;
    const method = PAYMENT_METHODS[index % PAYMENT_METHODS.length]!;
    await recordPayment(db, actor, {
      account_id: invoice.account_id,
      paid_on: isoOf(Math.min(dayOf(invoice.issue_date ?? seedDay) + 5 + (index % 9), day)),
      amount: invoice.open,
      method,
      reference: method === 'check' ? `CHK ${4100 + index}` : undefined,
      allocations: [{ invoice_id: invoice.id, amount: invoice.open }],
    });
  }
  const overdue = open.find((i) => i.customer_name === OVERDUE_CUSTOMER);
  if (
    overdue &&
    mayHold(await accountDaysOverdue(db, actor.companyId, overdue.account_id, seedDay), HOLD_AFTER_DAYS)
  )
    await putOnHold(db, actor, overdue.account_id);
}
