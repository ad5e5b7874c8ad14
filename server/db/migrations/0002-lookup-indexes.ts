import type { Kysely } from 'kysely';

// Deleting a customer nothing uses any more (after each vault delete) checks that no pallet still refers to it.
// Without this index that check, and the foreign key's own check, read every pallet of every company.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('pallets_customer_idx').on('pallets').column('customer_id').execute();
  // events.user_id references users: removing a user must not read the whole event log
  await db.schema.createIndex('events_user_idx').on('events').column('user_id').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
