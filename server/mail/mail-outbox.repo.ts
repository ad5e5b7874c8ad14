import { type Db, nowIso } from '../db/database';
import { isPostgres } from '../db/locks';
import type { MailKind } from '@domain/schemas/team.schema';

export type { MailKind };

export interface OutgoingMail {
  companyId: number;
  kind: MailKind;
  recipient: string;
  subject: string;
  body: string;
  createdBy: string | null;
  /** a PDF the worker renders when it sends the mail ('invoice:<id>', 'sit-notice:<account id>:<date>') */
  attachment?: string | null;
}

/** The outbox row of a mail, due at once. */
function outboxRow(mail: OutgoingMail) {
  const now = nowIso();
  return {
    company_id: mail.companyId,
    kind: mail.kind,
    recipient: mail.recipient,
    subject: mail.subject,
    body: mail.body,
    next_attempt_at: now,
    created_by: mail.createdBy,
    created_at: now,
    attachment: mail.attachment ?? null,
  };
}

/** Queues a mail: call it inside the transaction of the change that causes it, so both commit or neither. */
export async function enqueueMail(db: Db, mail: OutgoingMail): Promise<number> {
  const row = await db
    .insertInto('mail_outbox')
    .values(outboxRow(mail))
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/**
 * Queues a mail unless one with the same `onceKey` was ever queued in the company (the unique index of migration
 * 0050 decides, so two transactions at once queue it once): the row's id, or null when the key was taken.
 */
export async function enqueueMailOnce(
  db: Db,
  mail: OutgoingMail & { onceKey: string },
): Promise<number | null> {
  const row = await db
    .insertInto('mail_outbox')
    .values({ ...outboxRow(mail), once_key: mail.onceKey })
    .onConflict((oc) => oc.columns(['company_id', 'once_key']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row ? Number(row.id) : null;
}

/**
 * Drops the mails of a kind to a recipient that no worker has taken yet: a renewed link's earlier mail would carry a
 * link that no longer works. A mail being sent at this moment goes out; its link fails like any retired one.
 */
export async function dropQueuedMails(db: Db, companyId: number, kind: MailKind, recipient: string) {
  await db
    .deleteFrom('mail_outbox')
    .where('company_id', '=', companyId)
    .where('kind', '=', kind)
    .where('recipient', '=', recipient)
    .where('status', '=', 'queued')
    .execute();
}

/** A link's mail, queued in the link's transaction when mail is on (SMTP_URL); null when the link is shown to copy. */
export function enqueueMailIf(on: boolean, db: Db, mail: OutgoingMail): Promise<number | null> {
  return on ? enqueueMail(db, mail) : Promise.resolve(null);
}

/**
 * Claims up to `limit` due mails in one statement: queued ones whose attempt time has come, and ones another worker
 * claimed but whose lease ran out (it died mid-batch). Each gets this claim's token and lease and one more attempt.
 * PostgreSQL skips rows another worker is claiming at this moment (FOR UPDATE SKIP LOCKED), so two processes never
 * claim the same mail; SQLite runs one writer at a time, and the single UPDATE is the claim.
 */
export async function claimDueMails(
  db: Db,
  claim: { now: string; leaseUntil: string; token: string; limit: number },
) {
  let due = db
    .selectFrom('mail_outbox')
    .select('id')
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'queued'), eb('next_attempt_at', '<=', claim.now)]),
        eb.and([eb('status', '=', 'sending'), eb('lease_until', '<=', claim.now)]),
      ]),
    )
    .orderBy('id')
    .limit(claim.limit);
  if (isPostgres(db)) due = due.forUpdate().skipLocked();
  const rows = await db
    .updateTable('mail_outbox')
    .set((eb) => ({
      status: 'sending',
      claim_token: claim.token,
      lease_until: claim.leaseUntil,
      attempts: eb('attempts', '+', 1),
    }))
    .where('id', 'in', due)
    .returning(['id', 'company_id', 'recipient', 'subject', 'body', 'attempts', 'attachment'])
    .execute();
  return rows.sort((x, y) => x.id - y.id);
}

export type ClaimedMail = Awaited<ReturnType<typeof claimDueMails>>[number];

/** Marks a claimed mail sent; false when the claim was lost (its lease ran out and another worker took it). */
export async function markMailSent(db: Db, id: number, token: string, sentAt: string): Promise<boolean> {
  const result = await db
    .updateTable('mail_outbox')
    .set({ status: 'sent', sent_at: sentAt, lease_until: null, claim_token: null, last_error: null })
    .where('id', '=', id)
    .where('claim_token', '=', token)
    .where('status', '=', 'sending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** A failed attempt: queued again for `nextAttemptAt`, or failed for good when `nextAttemptAt` is null. */
export async function markMailAttemptFailed(
  db: Db,
  id: number,
  token: string,
  error: string,
  nextAttemptAt: string | null,
): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set({
      status: nextAttemptAt === null ? 'failed' : 'queued',
      last_error: error.slice(0, 500),
      lease_until: null,
      claim_token: null,
      ...(nextAttemptAt !== null && { next_attempt_at: nextAttemptAt }),
    })
    .where('id', '=', id)
    .where('claim_token', '=', token)
    .where('status', '=', 'sending')
    .execute();
}

/** The company's latest mails for the Team page, newest first. */
export async function listCompanyMails(db: Db, companyId: number, limit = 50) {
  return db
    .selectFrom('mail_outbox')
    .select([
      'id',
      'kind',
      'recipient',
      'subject',
      'status',
      'attempts',
      'last_error',
      'next_attempt_at',
      'lease_until',
      'sent_at',
      'created_at',
    ])
    .where('company_id', '=', companyId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
