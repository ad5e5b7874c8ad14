import type { Minor } from './money';

/**
 * Invoices, credit notes and payments of an account (issue 28). An issued invoice never changes: a correction is a
 * credit note (a negative total against the invoice), and payments are allocated to invoices.
 */
export const INVOICE_STATUSES = ['draft', 'issued', 'partly-paid', 'paid', 'void'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
export const INVOICE_STATUS_LABELS: Record<InvoiceStatus, string> = {
  draft: 'Draft',
  issued: 'Issued',
  'partly-paid': 'Partly paid',
  paid: 'Paid',
  void: 'Void',
};

/** What is still owed on an invoice: its total less its payments and its credit notes. */
export function openAmount(total: Minor, paid: Minor, credited: Minor): Minor {
  return total - paid - credited;
}

/** The status an issued invoice shows for what has been paid or credited against it. */
export function settledStatus(total: Minor, paid: Minor, credited: Minor): InvoiceStatus {
  const open = openAmount(total, paid, credited);
  if (open <= 0) return 'paid';
  return paid + credited > 0 ? 'partly-paid' : 'issued';
}

/** One entry of an account's statement: + an invoice, - a credit note or a payment. */
export interface LedgerEntry {
  kind: 'invoice' | 'credit' | 'payment';
  amount: Minor;
}

/** The account's balance: what it owes (invoices less credit notes and payments). */
export function balanceOf(entries: readonly LedgerEntry[]): Minor {
  let balance = 0;
  for (const e of entries) balance += e.kind === 'invoice' ? e.amount : -Math.abs(e.amount);
  return balance;
}

/** The aging buckets of what is owed, by days past the due date. */
export const AGING_BUCKETS = ['current', '1-30', '31-60', '61-90', 'over-90'] as const;
export type AgingBucket = (typeof AGING_BUCKETS)[number];
export const AGING_LABELS: Record<AgingBucket, string> = {
  current: 'Current',
  '1-30': '1-30 days',
  '31-60': '31-60 days',
  '61-90': '61-90 days',
  'over-90': 'Over 90 days',
};

/** The bucket of an open amount `daysPastDue` days after its due date (0 or less: current). */
export function agingBucket(daysPastDue: number): AgingBucket {
  if (daysPastDue <= 0) return 'current';
  if (daysPastDue <= 30) return '1-30';
  if (daysPastDue <= 60) return '31-60';
  if (daysPastDue <= 90) return '61-90';
  return 'over-90';
}

/**
 * Allocates a payment to open invoices, oldest first: returns the part each invoice gets. A payment larger than
 * what is open is refused by the caller before this runs.
 */
export function allocateOldestFirst(
  payment: Minor,
  open: readonly { id: number; open: Minor }[],
): { id: number; amount: Minor }[] {
  const parts: { id: number; amount: Minor }[] = [];
  let left = payment;
  for (const invoice of open) {
    if (left <= 0) break;
    if (invoice.open <= 0) continue;
    const amount = Math.min(left, invoice.open);
    parts.push({ id: invoice.id, amount });
    left -= amount;
  }
  return parts;
}

/** The refusal of a payment larger than what is open on the invoices chosen for it (amounts already written). */
export const paymentBeyondInvoices = (payment: string, open: string) =>
  `The payment (${payment}) is more than is open on the invoices chosen for it (${open}): choose more invoices or lower the amount.`;
