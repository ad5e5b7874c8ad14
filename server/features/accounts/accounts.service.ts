import { conversionDay } from '@domain/billing/charges';
import { dayOf, dayWriter, isoOf } from '@domain/billing/days';
import { daysOverdue, daysOverdueByAccount, mayHold } from '@domain/billing/holds';
import { sitStartProblem } from '@domain/billing/sit';
import type {
  UpdateAccountValues,
  AccountDto,
  AccountSummaryDto,
  AccountTermsValues,
  BulkAccountsInput,
  CreateAccountValues,
  NotBilledOrderDto,
} from '@domain/schemas/billing.schema';
import type { Actor } from '../../auth/actor';
import { actorName } from '../../auth/users.repo';
import { type Db, isUniqueViolation, nowIso } from '../../db/database';
import type { Trx } from '../../db/locks';
import { badRequest, conflict, notFound } from '../../http/errors';
import {
  type AccountRow,
  deleteAccounts,
  findAccountOrders,
  findAccountsOfOrders,
  findAccountsWithoutOrders,
  findAccounts,
  findAccountUnits,
  findBalances,
  findDueConversions,
  findFirstMoveIn,
  findHistory,
  findNotBilledOrders,
  findOrdersForAccounts,
  insertAccount,
  insertAccountOrders,
  insertHistory,
  markConverted,
  updateAccount,
} from './accounts.repo';
import { findOpenDues } from '../billing/billing.repo';
import { findBillingSettings } from './billing-settings.repo';
import { findCompanyForMail } from './account-mails.repo';
import { mailConversions } from './account-mails.service';
import { mailSettingsOf } from '../../mail/mail-settings';

export const ACCOUNT_NOT_FOUND = 'This storage account does not exist or was removed.';
export const ORDER_HAS_ACCOUNT = 'An order is already billed on another account.';

/** Today as the billing calendar sees it (UTC). */
export const today = () => new Date().toISOString().slice(0, 10);

/** A SIT account's conversion date, or null for a Permanent one or one without a start. */
export function conversionDateOf(
  row: Pick<AccountRow, 'sit_start' | 'sit_days_allowed' | 'converted_on'>,
  fallbackDays: number,
) {
  if (row.converted_on) return row.converted_on;
  if (!row.sit_start) return null;
  return isoOf(conversionDay(dayOf(row.sit_start), row.sit_days_allowed ?? fallbackDays));
}

/**
 * Makes every SIT account whose conversion day has come Permanent, by itself, recording the conversion in the
 * account's history on the day it happened and, when mail is on, queuing the customer's mail about it in the same
 * transaction. Runs before accounts are shown or billed and in the billing day's job; two callers at once convert
 * an account once (the update only changes a row that is still SIT), so its mail is queued once.
 */
export async function convertDueSitAccounts(db: Db, companyId: number, asOf = today()): Promise<number> {
  const settings = await findBillingSettings(db, companyId);
  const due = (await findDueConversions(db, companyId)).filter(
    (a) => dayOf(conversionDateOf({ ...a, converted_on: null }, settings.sit_days_default)!) <= dayOf(asOf),
  );
  if (due.length === 0) return 0;
  // one update per conversion day, then the history of what the updates converted
  const byDay = new Map<string, number[]>();
  for (const account of due) {
    const day = conversionDateOf({ ...account, converted_on: null }, settings.sit_days_default)!;
    byDay.set(day, [...(byDay.get(day) ?? []), account.id]);
  }
  return db.transaction().execute(async (trx) => {
    const history = [];
    const converted: { accountId: number; conversionDate: string }[] = [];
    // the history says the day as the company writes one, like its mails
    const writeDay = dayWriter((await findCompanyForMail(trx, companyId)).locale);
    for (const [day, ids] of byDay) {
      for (const accountId of await markConverted(trx, companyId, ids, day)) {
        converted.push({ accountId, conversionDate: day });
        history.push({
          company_id: companyId,
          account_id: accountId,
          kind: 'converted',
          detail: `SIT ended: the account is Permanent from ${writeDay(dayOf(day))}.`,
          created_by: null,
          created_at: `${day}T00:00:00.000Z`,
        });
      }
    }
    await insertHistory(trx, history);
    await mailConversions(trx, companyId, converted, mailSettingsOf(db));
    return history.length;
  });
}

interface UnitSpan {
  units: number;
  move_in: string | null;
  move_out: string | null;
}

/** Stored units, move-in (first unit received) and move-out (last unit released, once all are) per account. */
function unitSpans(units: Awaited<ReturnType<typeof findAccountUnits>>): Map<number, UnitSpan> {
  const spans = new Map<number, UnitSpan & { open: boolean }>();
  for (const u of units) {
    const span = spans.get(u.account_id) ?? { units: 0, move_in: null, move_out: null, open: false };
    if (!u.released_at) {
      span.units++;
      span.open = true;
    }
    const inDay = u.created_at.slice(0, 10);
    if (!span.move_in || inDay < span.move_in) span.move_in = inDay;
    const outDay = u.released_at?.slice(0, 10) ?? null;
    if (outDay && (!span.move_out || outDay > span.move_out)) span.move_out = outDay;
    spans.set(u.account_id, span);
  }
  for (const span of spans.values()) if (span.open) span.move_out = null;
  return spans;
}

function summaryOf(
  row: AccountRow,
  orders: string[],
  span: UnitSpan | undefined,
  balance: number,
  settings: { sit_days_default: number; hold_after_days: number },
  daysOverdue: number,
): AccountSummaryDto {
  return {
    id: row.id,
    customer_name: row.customer_name,
    orders,
    kind: row.kind === 'sit' ? 'sit' : 'permanent',
    bill_to_name: row.bill_to_name,
    move_in: span?.move_in ?? null,
    move_out: span?.move_out ?? null,
    conversion_date: row.kind === 'sit' ? conversionDateOf(row, settings.sit_days_default) : null,
    units: span?.units ?? 0,
    balance,
    on_hold: Boolean(row.on_hold),
    days_overdue: daysOverdue,
    may_hold: !row.on_hold && mayHold(daysOverdue, settings.hold_after_days),
  };
}

/** GET /api/storage-accounts */
export async function listAccounts(db: Db, companyId: number): Promise<AccountSummaryDto[]> {
  await convertDueSitAccounts(db, companyId);
  const [settings, rows, orders, units, balances, dues] = await Promise.all([
    findBillingSettings(db, companyId),
    findAccounts(db, companyId),
    findAccountOrders(db, companyId),
    findAccountUnits(db, companyId),
    findBalances(db, companyId),
    findOpenDues(db, companyId),
  ]);
  const overdue = daysOverdueByAccount(dues, dayOf(today()));
  const ordersOf = new Map<number, string[]>();
  for (const o of orders) ordersOf.set(o.account_id, [...(ordersOf.get(o.account_id) ?? []), o.name]);
  const spans = unitSpans(units);
  return rows.map((row) =>
    summaryOf(
      row,
      ordersOf.get(row.id) ?? [],
      spans.get(row.id),
      balances.get(row.id) ?? 0,
      settings,
      overdue.get(row.id) ?? 0,
    ),
  );
}

/** Days the account's oldest unpaid invoice is past due on `asOf` (0: nothing past due). */
export async function accountDaysOverdue(db: Db | Trx, companyId: number, accountId: number, asOf = today()) {
  return daysOverdue(await findOpenDues(db, companyId, accountId), dayOf(asOf));
}

/** GET /api/storage-accounts/:id */
export async function getAccount(db: Db, companyId: number, accountId: number): Promise<AccountDto> {
  await convertDueSitAccounts(db, companyId);
  const [settings, rows, orders, units, balances, history, overdue] = await Promise.all([
    findBillingSettings(db, companyId),
    findAccounts(db, companyId, accountId),
    findAccountOrders(db, companyId, accountId),
    findAccountUnits(db, companyId, accountId),
    findBalances(db, companyId, accountId),
    findHistory(db, companyId, accountId),
    accountDaysOverdue(db, companyId, accountId),
  ]);
  const row = rows[0];
  if (!row) throw notFound(ACCOUNT_NOT_FOUND);
  const summary = summaryOf(
    row,
    orders.map((o) => o.name),
    unitSpans(units).get(row.id),
    balances.get(row.id) ?? 0,
    settings,
    overdue,
  );
  return {
    ...summary,
    customer_id: row.customer_id,
    orders_detail: orders.map((o) => ({ id: o.id, name: o.name })),
    sit_authorization: row.sit_authorization,
    sit_payer: row.sit_payer === 'agency' ? 'agency' : row.sit_payer === 'customer' ? 'customer' : null,
    agency_name: row.agency_name,
    agency_reference: row.agency_reference,
    sit_start: row.sit_start,
    sit_days_allowed: row.sit_days_allowed,
    converted_on: row.converted_on,
    billing_cycle: row.billing_cycle === 'thirty-days' ? 'thirty-days' : 'calendar',
    bill_to_address: row.bill_to_address,
    declared_value: row.declared_value,
    note: row.note,
    version: row.version,
    history,
    currency: settings.currency,
  };
}

/** GET /api/storage-accounts/not-billed */
export async function listNotBilled(db: Db, companyId: number): Promise<NotBilledOrderDto[]> {
  const rows = await findNotBilledOrders(db, companyId);
  return rows.map((r) => ({
    order_id: r.order_id,
    order_name: r.order_name,
    customer_id: Number(r.customer_id),
    customer_name: String(r.customer_name),
    units: Number(r.units),
    move_in: String(r.move_in).slice(0, 10),
  }));
}

/** The one customer of the orders, refusing unknown orders, orders of several customers and billed orders. */
async function customerOfOrders(trx: Trx, companyId: number, orderIds: number[]) {
  const rows = await findOrdersForAccounts(trx, companyId, orderIds);
  const found = new Set(rows.map((r) => r.order_id));
  if (orderIds.some((id) => !found.has(id))) throw notFound('An order does not exist or was removed.');
  if (rows.some((r) => r.account_id !== null)) throw conflict(ORDER_HAS_ACCOUNT);
  const customers = new Map(
    rows.filter((r) => r.customer_id !== null).map((r) => [r.customer_id!, r.customer_name!]),
  );
  if (customers.size === 0) throw badRequest('The order has no stored units to bill.');
  if (customers.size > 1)
    throw badRequest('The orders belong to different customers: one account is for one customer.');
  const [customerId, customerName] = [...customers.entries()][0]!;
  return { customerId, customerName, orderNames: [...new Set(rows.map((r) => r.order_name))] };
}

/** An account's terms as stored: SIT details on a SIT account only, and the defaults for what the input leaves out. */
function storedTerms(terms: AccountTermsValues, customerName: string) {
  const sit = terms.kind === 'sit';
  const agency = sit && terms.sit_payer === 'agency';
  return {
    kind: terms.kind,
    sit_authorization: sit ? (terms.sit_authorization ?? null) : null,
    sit_payer: sit ? (terms.sit_payer ?? 'customer') : null,
    agency_name: agency ? (terms.agency_name ?? null) : null,
    agency_reference: agency ? (terms.agency_reference ?? null) : null,
    sit_start: sit ? (terms.sit_start ?? null) : null,
    sit_days_allowed: sit ? (terms.sit_days_allowed ?? null) : null,
    billing_cycle: terms.billing_cycle ?? 'calendar',
    bill_to_name: terms.bill_to_name ?? customerName,
    bill_to_address: terms.bill_to_address ?? null,
    declared_value: terms.declared_value ?? 0,
    note: terms.note ?? null,
  };
}

const withUniqueOrders = async <T>(work: () => Promise<T>): Promise<T> => {
  try {
    return await work();
  } catch (error) {
    // another request gave one of the orders an account at the same moment
    if (isUniqueViolation(error)) throw conflict(ORDER_HAS_ACCOUNT);
    throw error;
  }
};

interface Opening {
  customerId: number;
  customerName: string;
  orderIds: number[];
  terms: AccountTermsValues;
  /** the first line of the account's history */
  detail: string;
}

/**
 * Opens one account: its terms, its orders, and the first line of its history, answered for the caller to write with
 * the others it opens in the same transaction. Every way an account is opened (one, in bulk, by an import) comes here.
 */
async function openAccount(trx: Trx, actor: Actor, who: string, now: string, opening: Opening) {
  const accountId = await insertAccount(trx, {
    company_id: actor.companyId,
    customer_id: opening.customerId,
    ...storedTerms(opening.terms, opening.customerName),
    created_by: who,
    created_at: now,
  });
  await insertAccountOrders(trx, actor.companyId, accountId, opening.orderIds);
  return {
    company_id: actor.companyId,
    account_id: accountId,
    kind: 'created',
    detail: opening.detail,
    created_by: who,
    created_at: now,
  };
}

const kindName = (terms: AccountTermsValues) => (terms.kind === 'sit' ? 'SIT' : 'Permanent');

/**
 * Refuses a SIT start before the first unit of `orderIds` moved in, naming the move-in the company's way. The
 * import's accounts are not asked: their units move in with the import, after the SIT the file records began.
 */
async function checkSitStart(trx: Trx, companyId: number, orderIds: number[], terms: AccountTermsValues) {
  if (terms.kind !== 'sit' || !terms.sit_start) return;
  const moveIn = await findFirstMoveIn(trx, companyId, orderIds);
  const writeDay = dayWriter((await findCompanyForMail(trx, companyId)).locale);
  const problem = sitStartProblem(dayOf(terms.sit_start), moveIn ? dayOf(moveIn) : null, writeDay);
  // named like the schema's refusals, so a form shows it at its input
  if (problem) throw badRequest(`sit_start: ${problem}`);
}

/** POST /api/storage-accounts: one account for orders of one customer. */
export async function createAccount(db: Db, actor: Actor, input: CreateAccountValues): Promise<AccountDto> {
  const orderIds = [...new Set(input.order_ids)];
  const id = await withUniqueOrders(() =>
    db.transaction().execute(async (trx) => {
      const who = await actorName(trx, actor.userId);
      const { customerId, customerName, orderNames } = await customerOfOrders(trx, actor.companyId, orderIds);
      await checkSitStart(trx, actor.companyId, orderIds, input);
      const detail = `${kindName(input)} account opened for ${orderNames.join(', ')}.`;
      const line = await openAccount(trx, actor, who, nowIso(), {
        customerId,
        customerName,
        orderIds,
        terms: input,
        detail,
      });
      await insertHistory(trx, [line]);
      return line.account_id;
    }),
  );
  return getAccount(db, actor.companyId, id);
}

/**
 * Each order's one customer, for an account per order: an unknown order is refused, and so is an order already billed
 * or whose units belong to no customer or to several (an account is for one customer).
 */
async function customerOfEachOrder(trx: Trx, companyId: number, orderIds: number[]) {
  const rows = [];
  for (let i = 0; i < orderIds.length; i += 500)
    rows.push(...(await findOrdersForAccounts(trx, companyId, orderIds.slice(i, i + 500))));
  const byOrder = new Map<number, typeof rows>();
  for (const r of rows) byOrder.set(r.order_id, [...(byOrder.get(r.order_id) ?? []), r]);
  return orderIds.map((orderId) => {
    const orderRows = byOrder.get(orderId);
    if (!orderRows) throw notFound('An order does not exist or was removed.');
    const orderName = orderRows[0]!.order_name;
    if (orderRows.some((r) => r.account_id !== null))
      throw conflict(`Order ${orderName} is already billed on a storage account.`);
    const customers = orderRows.filter((r) => r.customer_id !== null);
    if (new Set(customers.map((r) => r.customer_id)).size !== 1)
      throw badRequest(
        `Order ${orderName} has units of ${customers.length === 0 ? 'no' : 'several'} customers; a storage account is for one customer.`,
      );
    return {
      orderId,
      orderName,
      customerId: customers[0]!.customer_id!,
      customerName: customers[0]!.customer_name!,
    };
  });
}

/** POST /api/storage-accounts/bulk: a Permanent account for each order, billed to its customer. */
export async function createAccountsInBulk(
  db: Db,
  actor: Actor,
  input: BulkAccountsInput,
): Promise<{ created: number }> {
  const orderIds = [...new Set(input.order_ids.map(Number))];
  return withUniqueOrders(() =>
    db.transaction().execute(async (trx) => {
      const who = await actorName(trx, actor.userId);
      const now = nowIso();
      const history = [];
      for (const order of await customerOfEachOrder(trx, actor.companyId, orderIds))
        history.push(
          await openAccount(trx, actor, who, now, {
            ...order,
            orderIds: [order.orderId],
            terms: { kind: 'permanent' },
            detail: `Permanent account opened for ${order.orderName}.`,
          }),
        );
      await insertHistory(trx, history);
      return { created: history.length };
    }),
  );
}

/**
 * The spreadsheet import's accounts (issue 28): one account per order, with the terms of the file's account columns,
 * billed to the order's one customer, inside the import's transaction (after its vaults are in). An order already
 * billed, or whose vaults belong to several customers, refuses the whole import.
 */
export async function openImportedAccounts(
  trx: Trx,
  actor: Actor,
  fileName: string,
  accounts: { orderId: number; terms: AccountTermsValues }[],
): Promise<number> {
  if (accounts.length === 0) return 0;
  const who = await actorName(trx, actor.userId);
  const now = nowIso();
  const orders = await customerOfEachOrder(
    trx,
    actor.companyId,
    accounts.map((a) => a.orderId),
  );
  const history = [];
  for (const [i, { terms }] of accounts.entries())
    history.push(
      await openAccount(trx, actor, who, now, {
        ...orders[i]!,
        orderIds: [orders[i]!.orderId],
        terms,
        detail: `${kindName(terms)} account opened for ${orders[i]!.orderName} by the import of ${fileName}.`,
      }),
    );
  await insertHistory(trx, history);
  return accounts.length;
}

/**
 * Undoing an import deletes the orders it brought; an account left without any order goes with them, unless it has
 * invoices or payments (those are the company's books): then the undo is refused and nothing changes. `removeOrders`
 * deletes the orders (their account links go with them).
 */
export async function removeAccountsWithOrders(
  trx: Trx,
  companyId: number,
  orderIds: number[],
  removeOrders: () => Promise<void>,
): Promise<void> {
  const accountIds = await findAccountsOfOrders(trx, companyId, orderIds);
  await removeOrders();
  const orphans = await findAccountsWithoutOrders(trx, companyId, accountIds);
  const booked = orphans.find((a) => Boolean(a.has_ledger));
  if (booked)
    throw conflict(
      `The storage account of ${booked.customer_name} has invoices or payments for the orders of this import, so it can no longer be undone.`,
    );
  await deleteAccounts(
    trx,
    companyId,
    orphans.map((a) => a.id),
  );
}

const FIELD_LABELS: Record<string, string> = {
  kind: 'kind',
  sit_authorization: 'authorization number',
  sit_payer: 'SIT payer',
  agency_name: 'agency',
  agency_reference: 'agency reference',
  sit_start: 'SIT start',
  sit_days_allowed: 'SIT days allowed',
  billing_cycle: 'billing day',
  bill_to_name: 'bill-to name',
  bill_to_address: 'bill-to address',
  declared_value: 'declared value',
  note: 'note',
};

const SIT_TERMS = [
  'sit_authorization',
  'sit_payer',
  'agency_name',
  'agency_reference',
  'sit_start',
  'sit_days_allowed',
] as const;

/** PATCH /api/storage-accounts/:id: the account's terms; what changed goes into its history. */
export async function editAccount(
  db: Db,
  actor: Actor,
  accountId: number,
  input: UpdateAccountValues,
): Promise<AccountDto> {
  await db.transaction().execute(async (trx) => {
    const row = (await findAccounts(trx, actor.companyId, accountId))[0];
    if (!row) throw notFound(ACCOUNT_NOT_FOUND);
    const changes: Record<string, string | number | null> = {
      ...storedTerms(input, row.bill_to_name),
      billing_cycle: input.billing_cycle ?? row.billing_cycle,
    };
    // a SIT account made SIT again (its start or days changed) converts anew on its new date
    if (input.kind === 'sit') changes.converted_on = null;
    // a converted account's SIT is its past (the agency pays its days until the conversion, the notice names its
    // start): an edit of its Permanent terms keeps it
    else if (row.converted_on) for (const key of SIT_TERMS) changes[key] = row[key];
    // a start kept as it was stands (an imported account's SIT began before its units came in with the import)
    if (input.kind === 'sit' && (row.kind !== 'sit' || changes.sit_start !== row.sit_start)) {
      const orderIds = (await findAccountOrders(trx, actor.companyId, accountId)).map((o) => o.id);
      await checkSitStart(trx, actor.companyId, orderIds, input);
    }
    const changed = Object.keys(FIELD_LABELS).filter(
      (key) => String(changes[key] ?? '') !== String((row as Record<string, unknown>)[key] ?? ''),
    );
    if (changed.length === 0) return;
    if ((await updateAccount(trx, actor.companyId, accountId, input.version, changes)) !== 1)
      throw conflict(
        'Someone else changed this account at the same moment. Nothing was saved; please reload.',
      );
    const who = await actorName(trx, actor.userId);
    await insertHistory(trx, [
      {
        company_id: actor.companyId,
        account_id: accountId,
        kind: 'edited',
        detail: `Changed ${changed.map((k) => FIELD_LABELS[k]).join(', ')}.`,
        created_by: who,
        created_at: nowIso(),
      },
    ]);
  });
  return getAccount(db, actor.companyId, accountId);
}
