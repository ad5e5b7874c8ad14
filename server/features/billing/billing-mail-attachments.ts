import type { Db } from '../../db/database';
import type { MailAttachment } from '../../mail/mail-transport';
import { findCompanyForMail } from '../accounts/account-mails.repo';
import { getAccount } from '../accounts/accounts.service';
import { invoiceFileName, invoicePdf, sitNoticePdf } from './billing-documents';
import { getInvoice } from './billing.service';

// The PDFs billing mails carry (decision 042): the outbox row names them ('invoice:<id>', 'sit-notice:<account
// id>:<conversion date>') and the mail worker renders them here when it sends, as the download routes render them.
// The customer portal's invoice download renders its PDF here too.

/** An invoice's PDF as the company sends it (its name, locale and dates), rendered now. */
export async function invoicePdfFile(
  db: Db,
  companyId: number,
  invoiceId: number,
): Promise<{ name: string; bytes: Uint8Array }> {
  const [company, dto] = await Promise.all([
    findCompanyForMail(db, companyId),
    getInvoice(db, companyId, invoiceId),
  ]);
  return { name: invoiceFileName(dto), bytes: await invoicePdf(dto, company.name, company.locale) };
}

const pdf = (bytes: Uint8Array, filename: string): MailAttachment => ({
  filename,
  content: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
  contentType: 'application/pdf',
});

/** The attachment a billing mail names, rendered now; throws for a reference it does not know. */
export async function renderBillingAttachment(
  db: Db,
  companyId: number,
  reference: string,
): Promise<MailAttachment> {
  const invoice = /^invoice:(\d+)$/.exec(reference);
  if (invoice) {
    const file = await invoicePdfFile(db, companyId, Number(invoice[1]));
    return pdf(file.bytes, file.name);
  }
  const notice = /^sit-notice:(\d+):(\d{4}-\d{2}-\d{2})$/.exec(reference);
  if (notice) {
    const [company, account] = await Promise.all([
      findCompanyForMail(db, companyId),
      getAccount(db, companyId, Number(notice[1])),
    ]);
    return pdf(
      await sitNoticePdf(account, company.name, notice[2]!, company.locale),
      `sit-notice-${account.id}.pdf`,
    );
  }
  throw new Error(`Unknown mail attachment: ${reference}`);
}
