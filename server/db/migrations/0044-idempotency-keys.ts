import { type Kysely, PostgresAdapter } from 'kysely';

// Issue 30: a tablet on weak Wi-Fi sends its floor changes again until it hears an answer, each with an
// Idempotency-Key. This table is the arbiter between the requests that carry the same key, across server processes:
// the first one claims the key by inserting its row (the unique index turns every later insert away), runs, and
// keeps its answer here; a repeat answers the kept answer and writes nothing (decision 043). Rows are kept at least
// 24 hours and then deleted by the housekeeping sweep.

export async function up(db: Kysely<unknown>): Promise<void> {
  const pgsql = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('id', 'integer', (c) =>
      pgsql ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
    )
    // the signed-in caller's company (null for a signed-out write, such as a checklist answered through its link)
    .addColumn('company_id', 'integer', (c) => c.references('companies.id').onDelete('cascade'))
    // 'company:<id>' or 'public': whose keys this one is told apart from
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('idem_key', 'text', (c) => c.notNull())
    // sha-256 of the method, the address and the body's bytes
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    // the claiming request's own random token: only it may complete or release the claim
    .addColumn('claim_token', 'text', (c) => c.notNull())
    .addColumn('claimed_at', 'text', (c) => c.notNull())
    // null while the first request runs
    .addColumn('status', 'integer')
    .addColumn('content_type', 'text')
    .addColumn('body', 'text')
    .addColumn('completed_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('idempotency_keys_key_idx')
    .on('idempotency_keys')
    .columns(['scope', 'idem_key'])
    .unique()
    .execute();
  await db.schema
    .createIndex('idempotency_keys_created_idx')
    .on('idempotency_keys')
    .column('created_at')
    .execute();
  // the company's rows go with the company (the foreign key's cascade looks them up by company)
  await db.schema
    .createIndex('idempotency_keys_company_idx')
    .on('idempotency_keys')
    .column('company_id')
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
