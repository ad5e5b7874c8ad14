import type { Kysely } from 'kysely';
import * as build from './company-tables';

// Issue 29, points 3 and 4 (decision 048): a customer's requests to get goods out, and the load-out check.
// - customer_requests: a delivery, an access visit or a partial pickup, with its wished day, address and notes, and
//   each step it went through (scheduled, pulling, loaded, delivered, cancelled) with who and when. Scheduling makes
//   a pull list for exactly its units (pull_list_id, cleared if that list is removed).
// - customer_request_units: the units a request names; loaded_at/loaded_by once the crew scanned it onto the truck.

export async function up(db: Kysely<unknown>): Promise<void> {
  await build
    .createCompanyTable(db, 'customer_requests')
    .addColumn('customer_id', 'integer', build.cascadingReference('customers'))
    // 'delivery' | 'access' | 'pickup'
    .addColumn('kind', 'text', (c) => c.notNull())
    // 'requested' | 'scheduled' | 'pulling' | 'loaded' | 'delivered' | 'cancelled'
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('requested'))
    .addColumn('wished_date', 'text', (c) => c.notNull())
    .addColumn('address', 'text')
    .addColumn('notes', 'text')
    .addColumn('scheduled_date', 'text')
    .addColumn('crew', 'text')
    .addColumn('truck', 'text')
    .addColumn('pull_list_id', 'integer', build.clearedReference('pull_lists'))
    .addColumn('override_reason', 'text')
    .$call(build.stamp('created', { required: true }))
    .$call(build.stamp('scheduled'))
    .$call(build.stamp('pulling'))
    .$call(build.stamp('loaded'))
    .$call(build.stamp('delivered'))
    .$call(build.stamp('cancelled'))
    .addColumn('version', 'integer', build.rowVersion)
    .execute();
  await build.createCompanyListIndex(db, 'customer_requests', 'created_at').execute();
  await db.schema
    .createIndex('customer_requests_customer_idx')
    .on('customer_requests')
    .column('customer_id')
    .execute();
  await db.schema
    .createIndex('customer_requests_pull_list_idx')
    .on('customer_requests')
    .column('pull_list_id')
    .execute();

  await build
    .createCompanyTable(db, 'customer_request_units')
    .addColumn('request_id', 'integer', build.cascadingReference('customer_requests'))
    .addColumn('vault_id', 'integer', build.cascadingReference('vaults'))
    .$call(build.stamp('loaded'))
    .addUniqueConstraint('customer_request_units_once', ['request_id', 'vault_id'])
    .execute();
  await db.schema
    .createIndex('customer_request_units_vault_idx')
    .on('customer_request_units')
    .column('vault_id')
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
