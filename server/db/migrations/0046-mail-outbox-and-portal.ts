import type { Kysely } from 'kysely';
import * as build from './company-tables';

// Issue 29: real e-mail and the customer portal.
// - mail_outbox: every mail the product sends is a row written in the same transaction as the change that causes it
//   (an invitation, a password link, a portal link); a worker claims due rows with a lease, sends them over SMTP and
//   marks them sent, or puts them back with a later attempt time (decision 042).
// - customers.email: a customer (the name vaults already carry) may have an address, which the portal link goes to;
//   a customer with an address is a record the office keeps, never cleaned up as an unused name.
// - portal_links and portal_sessions: a customer signs in with a one-time link (only its hash is stored) and holds a
//   session of its own, apart from the staff's sessions.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('customers').addColumn('email', 'text').execute();

  await build
    .createCompanyTable(db, 'mail_outbox')
    // 'invite' | 'reset' | 'portal-link'
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    // 'queued' | 'sending' | 'sent' | 'failed'
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('queued'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    // while 'sending': until when the claim holds, and whose it is
    .addColumn('lease_until', 'text')
    .addColumn('claim_token', 'text')
    .addColumn('last_error', 'text')
    .addColumn('sent_at', 'text')
    .$call(build.stamp('created', { required: true }))
    .execute();
  // the worker's search for due mail
  await db.schema
    .createIndex('mail_outbox_due_idx')
    .on('mail_outbox')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await build.createCompanyListIndex(db, 'mail_outbox', 'created_at').execute();

  await build
    .createCompanyTable(db, 'portal_links')
    .addColumn('customer_id', 'integer', build.cascadingReference('customers'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .$call(build.stamp('created', { required: true }))
    .execute();
  await db.schema.createIndex('portal_links_customer_idx').on('portal_links').column('customer_id').execute();

  await db.schema
    .createTable('portal_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('customer_id', 'integer', build.cascadingReference('customers'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('portal_sessions_customer_idx')
    .on('portal_sessions')
    .column('customer_id')
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
