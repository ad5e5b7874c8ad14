import crypto from 'node:crypto';
import { type Kysely, sql } from 'kysely';

// Public checklist links carry a secret key; every existing checklist gets one.
// Sign-in failures are also counted per address, so they get an index for that count.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('checklists').addColumn('link_key', 'text').execute();
  const rows = await sql<{ id: number }>`select id from checklists`.execute(db);
  for (const row of rows.rows) {
    await sql`update checklists set link_key = ${crypto.randomBytes(18).toString('base64url')} where id = ${row.id}`.execute(
      db,
    );
  }
  await db.schema
    .createIndex('login_failures_ip_idx')
    .on('login_failures')
    .columns(['ip', 'created_at'])
    .execute();
  await db.schema
    .createIndex('login_failures_created_idx')
    .on('login_failures')
    .column('created_at')
    .execute();
  await db.schema.createIndex('sessions_expires_idx').on('sessions').column('expires_at').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
