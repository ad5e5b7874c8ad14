import crypto from 'node:crypto';
import type { Kysely } from 'kysely';

// Secrets the whole installation shares: every server process on the database reads the same ones, and they survive
// restarts. The first one seals the ids of live events so a company cannot read another's activity from them.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('installation_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await (db as Kysely<{ installation_secrets: { name: string; value: string; created_at: string } }>)
    .insertInto('installation_secrets')
    .values({
      name: 'event-id-key',
      value: crypto.randomBytes(32).toString('base64'),
      created_at: new Date().toISOString(),
    })
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
