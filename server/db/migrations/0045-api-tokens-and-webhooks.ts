import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { cascadingReference, createCompanyTable } from './company-tables';

// Issue 31 (decision 044): API tokens and signed webhooks.
// - api_tokens: a company's named tokens; only the SHA-256 of the secret is kept.
// - webhook_endpoints, webhook_subscriptions: where a company's events are sent, and which kinds.
// - webhook_deliveries: the outbox. A trigger on `events` writes one row per subscribed, enabled endpoint in the very
//   statement that records the event, so every write path (recordEvent, recordEvents and the one-statement vault
//   writes of decision 014) fills the outbox in its own transaction, and a rolled-back change sends nothing.

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const pgsql = isPostgres(db);
  await createCompanyTable(db, 'api_tokens')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
    // the secret's last characters, to tell tokens apart
    .addColumn('hint', 'text', (c) => c.notNull())
    .addColumn('created_by_user_id', 'integer', cascadingReference('users'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('last_used_at', 'text')
    .addColumn('revoked_at', 'text')
    .addColumn('revoked_by', 'text')
    .execute();
  await db.schema
    .createIndex('api_tokens_company_idx')
    .on('api_tokens')
    .columns(['company_id', 'id'])
    .execute();

  await createCompanyTable(db, 'webhook_endpoints')
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    // needed in the clear to sign each delivery (HMAC-SHA256)
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    // when the current run of failures began (null while the endpoint answers)
    .addColumn('failing_since', 'text')
    // why the server switched it off (null when a Manager did, or while it is on)
    .addColumn('disabled_reason', 'text')
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_endpoints_company_idx')
    .on('webhook_endpoints')
    .columns(['company_id', 'id'])
    .execute();

  await db.schema
    .createTable('webhook_subscriptions')
    .addColumn('endpoint_id', 'integer', cascadingReference('webhook_endpoints'))
    .addColumn('company_id', 'integer', cascadingReference('companies'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('webhook_subscriptions_pk', ['endpoint_id', 'kind'])
    .execute();
  await db.schema
    .createIndex('webhook_subscriptions_kind_idx')
    .on('webhook_subscriptions')
    .columns(['company_id', 'kind'])
    .execute();

  await createCompanyTable(db, 'webhook_deliveries')
    .addColumn('endpoint_id', 'integer', cascadingReference('webhook_endpoints'))
    // the event sent (no reference: the event log has none, migration 0021); null for a test event
    .addColumn('event_id', 'integer')
    .addColumn('kind', 'text', (c) => c.notNull())
    // pending, sent or failed (given up after 24 hours)
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    // a worker's claim: no other worker sends the delivery before this time
    .addColumn('claimed_until', 'text')
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('last_attempt_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_due_idx')
    .on('webhook_deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_endpoint_idx')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'id'])
    .execute();

  const outboxInsert = `insert into webhook_deliveries
      (company_id, endpoint_id, event_id, kind, status, attempts, next_attempt_at, created_at)
    select s.company_id, s.endpoint_id, new.id, new.kind, 'pending', 0, new.created_at, new.created_at
    from webhook_subscriptions s join webhook_endpoints e on e.id = s.endpoint_id
    where s.company_id = new.company_id and s.kind = new.kind and e.enabled = 1`;
  if (pgsql) {
    await sql
      .raw(
        `create function wm_event_webhooks() returns trigger language plpgsql as $$
        begin
          ${outboxInsert};
          return null;
        end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger events_webhooks after insert on events for each row execute function wm_event_webhooks()`,
      )
      .execute(db);
  } else {
    await sql
      .raw(`create trigger events_webhooks after insert on events begin ${outboxInsert}; end`)
      .execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
