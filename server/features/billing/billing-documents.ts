import ExcelJS from 'exceljs';
import { dayOf, dayWriter } from '@domain/billing/days';
import { sitLastDay } from '@domain/billing/sit';
import { formatMoney, minorToDecimal } from '@domain/billing/money';
import { type CsvValue, toCsv } from '@domain/rules/csv';
import {
  paymentLine,
  type AccountDto,
  type InvoiceDto,
  type PaymentDto,
  type StatementDto,
} from '@domain/schemas/billing.schema';
import { pdfOfLines } from '../../documents/pdf-lines';

// Issue 28: the documents of billing. PDFs (invoice, statement, SIT conversion notice) drawn with the shared line writer, and the
// accountant's files (invoices, payments, journal) as CSV and XLSX. Amounts go through the domain's one formatter.

/** A stored day ('2026-11-01') the company's way ('Nov 1, 2026' in en-US); '-' for none. */
const dayText = (locale: string) => {
  const write = dayWriter(locale);
  return (day: string | null | undefined) => (day ? write(dayOf(day)) : '-');
};

const invoiceTitle = (i: InvoiceDto) =>
  i.kind === 'credit' ? `Credit note ${i.number}` : `Invoice ${i.number}`;

/** The file name an invoice's or a credit note's PDF is downloaded and mailed under. */
export const invoiceFileName = (invoice: Pick<InvoiceDto, 'kind' | 'number'>) =>
  `${invoice.kind === 'credit' ? 'credit-note' : 'invoice'}-${invoice.number}.pdf`;

/** The invoice (or credit note) as an A4 PDF: company, bill-to, period, every customer line, tax and total. */
export async function invoicePdf(
  invoice: InvoiceDto,
  companyName: string,
  locale = 'en-US',
): Promise<Uint8Array> {
  const money = (amount: number) => formatMoney(amount, invoice.currency, locale);
  const day = dayText(locale);
  const { doc, w } = await pdfOfLines(`${invoiceTitle(invoice)} - ${companyName}`);
  w.line(companyName, { size: 14, bold: true });
  w.line(invoiceTitle(invoice), { size: 18, bold: true, gap: 6 });
  w.line(`Issued ${day(invoice.issue_date)}, due ${day(invoice.due_date)}`);
  if (invoice.period_start)
    w.line(`Storage period ${day(invoice.period_start)} to ${day(invoice.period_end)}`);
  if (invoice.reason) w.line(`Reason: ${invoice.reason}`);
  w.line('Bill to', { bold: true, gap: 8 });
  w.line(invoice.bill_to_name);
  for (const part of (invoice.bill_to_address ?? '').split('\n').filter(Boolean)) w.line(part);
  w.line('Description', { bold: true, gap: 10, amount: 'Amount' });
  const customerLines = (invoice.lines ?? []).filter((l) => l.payer === 'customer');
  for (const l of customerLines) w.line(l.description, { amount: money(l.amount) });
  w.line('Subtotal', { gap: 6, amount: money(invoice.subtotal) });
  w.line('Tax', { amount: money(invoice.tax) });
  w.line('Total', { bold: true, size: 12, amount: money(invoice.total) });
  if (invoice.kind === 'invoice') {
    w.line('Paid', { amount: money(invoice.paid) });
    if (invoice.credited) w.line('Credited', { amount: money(invoice.credited) });
    w.line('Open', { bold: true, amount: money(invoice.open) });
  }
  const agency = (invoice.lines ?? []).filter((l) => l.payer === 'agency');
  if (agency.length > 0) {
    w.line('Days paid by the agency (on its statement, not due from you)', { bold: true, gap: 10 });
    for (const l of agency) w.line(l.description, { amount: money(l.amount) });
  }
  return doc.save();
}

/** The account's statement as an A4 PDF: every invoice, credit note and payment with the running balance. */
export async function statementPdf(
  statement: StatementDto,
  companyName: string,
  asOf: string,
  locale = 'en-US',
) {
  const money = (amount: number) => formatMoney(amount, statement.currency, locale);
  const day = dayText(locale);
  const { doc, w } = await pdfOfLines(`Statement - ${statement.customer_name}`);
  w.line(companyName, { size: 14, bold: true });
  w.line(`Statement of account: ${statement.customer_name}`, { size: 16, bold: true, gap: 6 });
  w.line(`As of ${day(asOf)}`);
  w.line('Date  Entry', { bold: true, gap: 10, amount: 'Debit / Credit / Balance' });
  for (const e of statement.entries)
    w.line(`${day(e.date)}  ${e.reference}`, {
      amount: `${e.debit ? money(e.debit) : '-'} / ${e.credit ? money(e.credit) : '-'} / ${money(e.balance)}`,
    });
  w.line('Balance due', { bold: true, size: 12, gap: 6, amount: money(statement.balance) });
  return doc.save();
}

/**
 * The letter telling the customer in writing when SIT ends and permanent storage begins: SIT's last day is the day
 * before `conversionDate`, the first day of permanent storage.
 */
export async function sitNoticePdf(
  account: AccountDto,
  companyName: string,
  conversionDate: string,
  locale = 'en-US',
) {
  const day = dayText(locale);
  const write = dayWriter(locale);
  const conversion = dayOf(conversionDate);
  const { doc, w } = await pdfOfLines(`SIT conversion notice - ${account.customer_name}`);
  w.line(companyName, { size: 14, bold: true });
  w.line('Notice of conversion from storage in transit to permanent storage', {
    size: 14,
    bold: true,
    gap: 8,
  });
  w.line(account.bill_to_name, { gap: 8 });
  for (const part of (account.bill_to_address ?? '').split('\n').filter(Boolean)) w.line(part);
  w.line(`Orders: ${account.orders.join(', ')}`, { gap: 8 });
  if (account.sit_authorization) w.line(`SIT authorization: ${account.sit_authorization}`);
  if (account.sit_start) w.line(`Storage in transit began on ${day(account.sit_start)}.`);
  if (account.agency_name)
    w.line(
      `During SIT, storage is paid by ${account.agency_name}${account.agency_reference ? ` (${account.agency_reference})` : ''}.`,
    );
  w.line(`Storage in transit ends on ${write(sitLastDay(conversion))}.`, { bold: true, gap: 8 });
  w.line(`From ${write(conversion)}, your goods are in permanent storage, billed to you each month`);
  w.line('at our storage rates. Please contact us with any questions.');
  return doc.save();
}

/** The accountant's files, each as a header and rows of plain values (amounts as exact decimal text). */
export type ExportFile = 'invoices' | 'payments' | 'journal';

export function exportTable(
  file: ExportFile,
  data: { invoices: InvoiceDto[]; payments: PaymentDto[]; currency: string },
): { header: string[]; rows: CsvValue[][]; amountColumns: number[] } {
  const dec = (amount: number, currency = data.currency) => minorToDecimal(amount, currency);
  if (file === 'invoices')
    return {
      header: [
        'Number',
        'Kind',
        'Status',
        'Account',
        'Customer',
        'Period start',
        'Period end',
        'Issued',
        'Due',
        'Currency',
        'Subtotal',
        'Tax',
        'Total',
        'Paid',
        'Credited',
        'Open',
      ],
      amountColumns: [10, 11, 12, 13, 14, 15],
      rows: [...data.invoices]
        .sort((a, b) => (a.number ?? 0) - (b.number ?? 0))
        .map((i) => [
          i.number,
          i.kind,
          i.status,
          i.account_id,
          i.customer_name,
          i.period_start,
          i.period_end,
          i.issue_date,
          i.due_date,
          i.currency,
          dec(i.subtotal, i.currency),
          dec(i.tax, i.currency),
          dec(i.total, i.currency),
          dec(i.paid, i.currency),
          dec(i.credited, i.currency),
          dec(i.open, i.currency),
        ]),
    };
  if (file === 'payments')
    return {
      header: ['Date', 'Account', 'Customer', 'Method', 'Reference', 'Amount', 'Invoices'],
      amountColumns: [5],
      rows: data.payments.map((p) => [
        p.paid_on,
        p.account_id,
        p.customer_name,
        p.method,
        p.reference,
        dec(p.amount),
        p.allocations.map((a) => `${a.number}:${dec(a.amount)}`).join(' '),
      ]),
    };
  const entries: CsvValue[][] = [];
  for (const i of data.invoices) {
    if (i.status === 'void' || i.status === 'draft') continue;
    const label = i.kind === 'credit' ? `Credit note ${i.number}` : `Invoice ${i.number}`;
    entries.push([
      i.issue_date,
      i.account_id,
      i.customer_name,
      label,
      i.total > 0 ? dec(i.total) : '',
      i.total < 0 ? dec(-i.total) : '',
    ]);
  }
  for (const p of data.payments)
    entries.push([
      p.paid_on,
      p.account_id,
      p.customer_name,
      paymentLine(p.method, p.reference),
      '',
      dec(p.amount),
    ]);
  entries.sort((a, b) => String(a[0]).localeCompare(String(b[0])));
  return {
    header: ['Date', 'Account', 'Customer', 'Entry', 'Debit', 'Credit'],
    amountColumns: [4, 5],
    rows: entries,
  };
}

export function exportCsv(table: ReturnType<typeof exportTable>): string {
  return toCsv(table.header, table.rows);
}

/** The same table as an XLSX sheet: amounts as numbers with two decimals, the rest as written. */
export async function exportXlsx(table: ReturnType<typeof exportTable>, sheetName: string): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Warehouse Manager';
  const sheet = workbook.addWorksheet(sheetName);
  sheet.addRow(table.header).font = { bold: true };
  const amounts = new Set(table.amountColumns);
  for (const row of table.rows)
    sheet.addRow(
      row.map((v, i) =>
        amounts.has(i) && v !== '' && v !== null && v !== undefined ? Number(v) : (v ?? null),
      ),
    );
  for (const column of table.amountColumns) sheet.getColumn(column + 1).numFmt = '#,##0.00';
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
