import { type DayNumber } from './days';
import { type Minor } from './money';

/**
 * Holds (issue 28, decision 039). An account whose oldest unpaid invoice is at least the company's "days overdue before
 * a hold" past its due date may be put on hold; its units then leave the warehouse (pulled or released) only with a
 * Manager's override and a reason.
 */

/** One invoice as the hold rule sees it: its due day and what is still open on it. */
export interface OpenInvoice {
  dueDay: DayNumber;
  open: Minor;
}

/** Days the oldest unpaid invoice is past its due date on `asOf`; 0 when nothing is past due. */
export function daysOverdue(invoices: readonly OpenInvoice[], asOf: DayNumber): number {
  let days = 0;
  for (const i of invoices) if (i.open > 0 && asOf - i.dueDay > days) days = asOf - i.dueDay;
  return days;
}

/** Per account, the days its oldest unpaid invoice is past due on `asOf`; an account missing from the map owes nothing. */
export function daysOverdueByAccount(
  invoices: readonly (OpenInvoice & { accountId: number })[],
  asOf: DayNumber,
): Map<number, number> {
  const byAccount = new Map<number, OpenInvoice[]>();
  for (const i of invoices) byAccount.set(i.accountId, [...(byAccount.get(i.accountId) ?? []), i]);
  return new Map([...byAccount].map(([id, list]) => [id, daysOverdue(list, asOf)]));
}

/** Whether an account overdue by `overdue` days may be put on hold when holds start at `holdAfterDays`. */
export function mayHold(overdue: number, holdAfterDays: number): boolean {
  return overdue > 0 && overdue >= holdAfterDays;
}

/** The refusal of a hold on an account not overdue enough, in words a person can act on. */
export function notOverdueEnough(overdue: number, holdAfterDays: number): string {
  const now =
    overdue === 0
      ? 'nothing on this account is past due'
      : `its oldest unpaid invoice is ${overdue} ${overdue === 1 ? 'day' : 'days'} past due`;
  return `This account cannot be put on hold yet: ${now}, and holds start at ${holdAfterDays} days overdue (Billing settings).`;
}

/** What a Floor or Viewer user is told when a held unit would leave the warehouse. */
export const HELD_NEEDS_MANAGER =
  "This unit's storage account is on hold for unpaid storage: only a Manager can pull or release it, with a reason.";
/** What a Manager is told when the override has no reason. */
export const HELD_NEEDS_REASON =
  "This unit's storage account is on hold for unpaid storage: give a reason to override the hold.";
