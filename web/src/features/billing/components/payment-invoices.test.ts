import { describe, expect, it } from 'vitest';
import type { InvoiceDto } from '@domain/schemas/billing.schema';
import { openInvoicesOf, splitPayment } from './payment-invoices';

const invoice = (id: number, issued: string, open: number, more: Partial<InvoiceDto> = {}) =>
  ({ id, number: id, kind: 'invoice', status: 'issued', issue_date: issued, open, ...more }) as InvoiceDto;
const money = (amount: number) => `$${(amount / 100).toFixed(2)}`;

describe("a payment's invoices", () => {
  it("offers the account's open invoices, oldest first", () => {
    const list = [
      invoice(3, '2026-03-01', 5_000),
      invoice(1, '2026-01-01', 0, { status: 'paid' }),
      invoice(2, '2026-02-01', 4_000, { status: 'partly-paid' }),
      invoice(4, '2026-02-01', 10_000, { status: 'void', open: 0 }),
      invoice(5, '2026-03-02', -2_000, { kind: 'credit', open: 0 }),
      invoice(6, '2026-01-15', 1_000),
    ];
    expect(openInvoicesOf(list).map((i) => i.id)).toEqual([6, 2, 3]);
  });

  it('splits the payment over the chosen invoices only, oldest first', () => {
    const [jan, feb, mar] = [
      invoice(1, '2026-01-01', 10_000),
      invoice(2, '2026-02-01', 10_000),
      invoice(3, '2026-03-01', 10_000),
    ];
    expect(splitPayment(12_000, [feb!, mar!], money)).toEqual({
      allocations: [
        { invoice_id: 2, amount: 10_000 },
        { invoice_id: 3, amount: 2_000 },
      ],
    });
    expect(splitPayment(5_000, [jan!, mar!], money).allocations).toEqual([{ invoice_id: 1, amount: 5_000 }]);
  });

  it('refuses more than is open on the chosen invoices, and no invoice at all', () => {
    expect(splitPayment(12_000, [invoice(2, '2026-02-01', 10_000)], money)).toEqual({
      problem:
        'The payment ($120.00) is more than is open on the invoices chosen for it ($100.00): choose more invoices or lower the amount.',
    });
    expect(splitPayment(100, [], money).problem).toBe('Choose at least one invoice for the payment.');
  });
});
