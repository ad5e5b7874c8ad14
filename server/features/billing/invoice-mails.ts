import { dayOf, dayWriter } from '@domain/billing/days';
import { formatMoney } from '@domain/billing/money';
import type { Trx } from '../../db/locks';
import { enqueueMailIf } from '../../mail/mail-outbox.repo';
import type { MailSettings } from '../../mail/mail-settings';
import { invoiceMail } from '../../mail/mail-texts';
import { findAccountRecipients, findCompanyForMail } from '../accounts/account-mails.repo';

// Issue 29 point 1 with issue 28 (decision 042): each invoice a billing run issues is mailed to the customer of its
// account, with the invoice PDF attached (rendered by the mail worker when it sends), in the run's transaction: a
// run that rolls back mails nothing, and an invoice is issued once, so it is mailed once.

export interface IssuedInvoice {
  id: number;
  number: number;
  accountId: number;
  total: number;
  currency: string;
  dueDate: string;
  periodStart: string;
  periodEnd: string;
}

/**
 * Queues the mail of each issued invoice with an amount to pay (a zero invoice is issued paid and not mailed) whose
 * account's customer has an address. Answers how many were queued.
 */
export async function mailIssuedInvoices(
  trx: Trx,
  companyId: number,
  invoices: IssuedInvoice[],
  mail: MailSettings,
  createdBy: string | null,
): Promise<number> {
  const due = invoices.filter((i) => i.total > 0);
  if (!mail.on || due.length === 0) return 0;
  const [company, recipients] = await Promise.all([
    findCompanyForMail(trx, companyId),
    findAccountRecipients(trx, companyId, [...new Set(due.map((i) => i.accountId))]),
  ]);
  const byAccount = new Map(recipients.map((r) => [r.id, r]));
  // days as the company writes them, like the attached PDF
  const write = dayWriter(company.locale);
  const day = (iso: string) => write(dayOf(iso));
  let queued = 0;
  for (const invoice of due) {
    const customer = byAccount.get(invoice.accountId);
    if (!customer?.email) continue;
    await enqueueMailIf(mail.on, trx, {
      companyId,
      ...invoiceMail({
        company: company.name,
        customer: customer.customer_name,
        number: invoice.number,
        total: formatMoney(invoice.total, invoice.currency, company.locale),
        dueDate: day(invoice.dueDate),
        periodStart: day(invoice.periodStart),
        periodEnd: day(invoice.periodEnd),
        portalUrl: mail.portalUrl,
      }),
      recipient: customer.email,
      createdBy,
      attachment: `invoice:${invoice.id}`,
    });
    queued++;
  }
  return queued;
}
