import type { Kysely } from 'kysely';

// Issue 29 point 1 with issue 28: invoices and SIT notices are mailed (decision 042).
// - mail_outbox.attachment: what the mail carries, named rather than stored ('invoice:<id>', 'sit-notice:<account
//   id>:<conversion date>'); the worker renders the PDF when it sends, so the queue holds no documents.
// - mail_outbox.once_key: a mail the product sends at most once per key (the SIT notice of an account for one
//   conversion date); the unique index makes a second insert of the key do nothing, even from two servers at once.
//   Mails without a key (NULL) are never compared.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('mail_outbox').addColumn('attachment', 'text').execute();
  await db.schema.alterTable('mail_outbox').addColumn('once_key', 'text').execute();
  await db.schema
    .createIndex('mail_outbox_once_idx')
    .on('mail_outbox')
    .columns(['company_id', 'once_key'])
    .unique()
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
