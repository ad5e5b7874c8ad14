import { allocateOldestFirst, paymentBeyondInvoices } from '@domain/billing/ledger';
import type { InvoiceDto } from '@domain/schemas/billing.schema';

/** An account's invoices a payment can go to: issued, with something open, oldest first as the server allocates. */
export function openInvoicesOf(invoices: readonly InvoiceDto[]): InvoiceDto[] {
  return invoices
    .filter(
      (i) => i.kind === 'invoice' && (i.status === 'issued' || i.status === 'partly-paid') && i.open > 0,
    )
    .sort(
      (a, b) => (a.issue_date ?? '').localeCompare(b.issue_date ?? '') || (a.number ?? 0) - (b.number ?? 0),
    );
}

export type PaymentSplit =
  | { allocations: { invoice_id: number; amount: number }[]; problem?: undefined }
  | { problem: string; allocations?: undefined };

/**
 * A payment split over the invoices chosen for it, the oldest first (a later one may get nothing), or why it cannot
 * be: none chosen, or more than is open on them (the server refuses it too).
 */
export function splitPayment(
  amount: number,
  chosen: readonly InvoiceDto[],
  money: (amount: number) => string,
): PaymentSplit {
  if (chosen.length === 0) return { problem: 'Choose at least one invoice for the payment.' };
  const open = chosen.reduce((sum, i) => sum + i.open, 0);
  if (amount > open) return { problem: paymentBeyondInvoices(money(amount), money(open)) };
  return {
    allocations: allocateOldestFirst(amount, chosen).map((part) => ({
      invoice_id: part.id,
      amount: part.amount,
    })),
  };
}
