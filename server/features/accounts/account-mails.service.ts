import { conversionDay } from '@domain/billing/charges';
import { sitLastDay } from '@domain/billing/sit';
import { dayOf, dayWriter, isoOf } from '@domain/billing/days';
import { type Db, nowIso } from '../../db/database';
import type { Trx } from '../../db/locks';
import { enqueueMailOnce } from '../../mail/mail-outbox.repo';
import type { MailSettings } from '../../mail/mail-settings';
import { type MailText, sitConvertedMail, sitNoticeMail } from '../../mail/mail-texts';
import { findDueConversions, insertHistory } from './accounts.repo';
import { findAccountRecipients, findCompanyForMail, findOrderNames } from './account-mails.repo';
import { findBillingSettings } from './billing-settings.repo';

// Issue 28 with issue 29 point 1 (decision 042): the customer of a SIT account hears in writing, by mail, when
// storage in transit ends: a notice once the conversion is 30 days or less away, and a mail on the day it converts.
// Each is queued at most once per account and conversion date (the outbox's once-key), in the transaction that
// records it in the account's history.

/** How many days before the conversion the notice goes out. */
export const SIT_NOTICE_DAYS = 30;

interface SitMail {
  accountId: number;
  conversionDate: string;
}

/**
 * Queues one SIT mail per account (the notice, or the conversion's) with the notice PDF attached, for the accounts
 * whose customer has an address, and records each queued mail in the account's history. A mail whose once-key was
 * queued before (an earlier day's job, another server at the same moment) is skipped. Answers how many were queued.
 */
async function queueSitMails(
  trx: Trx,
  companyId: number,
  accounts: SitMail[],
  mail: MailSettings,
  kind: 'notice' | 'converted',
): Promise<number> {
  if (!mail.on || accounts.length === 0) return 0;
  const ids = accounts.map((a) => a.accountId);
  const [company, recipients, orders] = await Promise.all([
    findCompanyForMail(trx, companyId),
    findAccountRecipients(trx, companyId, ids),
    findOrderNames(trx, companyId, ids),
  ]);
  const byId = new Map(recipients.map((r) => [r.id, r]));
  const writeDay = dayWriter(company.locale);
  const history = [];
  const now = nowIso();
  for (const { accountId, conversionDate } of accounts) {
    const customer = byId.get(accountId);
    if (!customer?.email) continue;
    const parts = {
      company: company.name,
      customer: customer.customer_name,
      accountId,
      orders: orders.get(accountId) ?? [],
      // as the company writes a day, like the attached notice
      conversionDate: writeDay(dayOf(conversionDate)),
      sitLastDate: writeDay(sitLastDay(dayOf(conversionDate))),
      portalUrl: mail.portalUrl,
    };
    const text: MailText = kind === 'notice' ? sitNoticeMail(parts) : sitConvertedMail(parts);
    const queued = await enqueueMailOnce(trx, {
      companyId,
      ...text,
      recipient: customer.email,
      createdBy: null,
      attachment: `sit-notice:${accountId}:${conversionDate}`,
      onceKey: `sit-${kind}:${accountId}:${conversionDate}`,
    });
    if (queued === null) continue;
    history.push({
      company_id: companyId,
      account_id: accountId,
      kind: 'mailed',
      detail:
        kind === 'notice'
          ? `SIT conversion notice mailed to ${customer.email}: SIT ends on ${parts.sitLastDate}.`
          : `Conversion mailed to ${customer.email}: permanent storage from ${parts.conversionDate}.`,
      created_by: null,
      created_at: now,
    });
  }
  await insertHistory(trx, history);
  return history.length;
}

/** The mails of accounts a conversion just made Permanent, in the conversion's transaction. */
export function mailConversions(
  trx: Trx,
  companyId: number,
  converted: SitMail[],
  mail: MailSettings,
): Promise<number> {
  return queueSitMails(trx, companyId, converted, mail, 'converted');
}

/**
 * The daily check (the billing day's job): every SIT account of the company whose conversion is after `asOf` and at
 * most SIT_NOTICE_DAYS away gets its notice, once. Answers how many notices were queued.
 */
export async function mailSitNotices(
  db: Db,
  companyId: number,
  asOf: string,
  mail: MailSettings,
): Promise<number> {
  if (!mail.on) return 0;
  const settings = await findBillingSettings(db, companyId);
  const day = dayOf(asOf);
  const due: SitMail[] = [];
  for (const account of await findDueConversions(db, companyId)) {
    const conversion = conversionDay(
      dayOf(account.sit_start!),
      account.sit_days_allowed ?? settings.sit_days_default,
    );
    if (conversion > day && conversion - day <= SIT_NOTICE_DAYS)
      due.push({ accountId: account.id, conversionDate: isoOf(conversion) });
  }
  if (due.length === 0) return 0;
  return db.transaction().execute((trx) => queueSitMails(trx, companyId, due, mail, 'notice'));
}
