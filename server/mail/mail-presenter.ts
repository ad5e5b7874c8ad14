import { MAIL_KINDS, type MailDto, type MailListDto } from '@domain/schemas/team.schema';
import type { Db } from '../db/database';
import { listCompanyMails } from './mail-outbox.repo';

const STATUSES = ['queued', 'sending', 'sent', 'failed'] as const;
const oneOf = <T extends string>(values: readonly T[], value: string, fallback: T): T =>
  (values as readonly string[]).includes(value) ? (value as T) : fallback;

/** The company's latest mails and their delivery state, newest first. */
export async function loadCompanyMails(db: Db, companyId: number, enabled: boolean): Promise<MailListDto> {
  const rows = await listCompanyMails(db, companyId);
  return {
    enabled,
    mails: rows.map((row): MailDto => ({
      id: row.id,
      kind: oneOf(MAIL_KINDS, row.kind, 'invite'),
      to: row.recipient,
      subject: row.subject,
      status: oneOf(STATUSES, row.status, 'queued'),
      attempts: row.attempts,
      lastError: row.last_error,
      nextAttemptAt: row.status === 'queued' ? row.next_attempt_at : null,
      sentAt: row.sent_at,
      createdAt: row.created_at,
    })),
  };
}
