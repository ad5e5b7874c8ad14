import { type Kysely, sql } from 'kysely';
import * as build from './company-tables';

// Issue 34: records that outlive their warehouse.
// - check_reports: the report of a check as it stood when its warehouse was deleted (the check's own rows go with the
//   warehouse). It keeps the check's number (`check_id`), so `GET /api/checks/{id}` and its CSV and PDF answer as before.
// - warehouse_checks.cancelled_by/at: a check given up before it was finished.
// - Check events written before this migration named their warehouse only by name: they get its id, so the Activity
//   page's warehouse filter finds them.

export async function up(db: Kysely<unknown>): Promise<void> {
  await build
    .createCompanyTable(db, 'check_reports')
    .addColumn('check_id', 'integer', (c) => c.notNull().unique())
    // the warehouse is gone: its id (for the history's filter) and name as they were, no reference
    .addColumn('warehouse_id', 'integer', (c) => c.notNull())
    .addColumn('warehouse_name', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    // the report (CheckDto) as JSON
    .addColumn('report', 'text', (c) => c.notNull())
    .addColumn('archived_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('check_reports_company_idx')
    .on('check_reports')
    .columns(['company_id', 'check_id'])
    .execute();

  await db.schema.alterTable('warehouse_checks').addColumn('cancelled_by', 'text').execute();
  await db.schema.alterTable('warehouse_checks').addColumn('cancelled_at', 'text').execute();

  for (const table of ['events', 'event_search']) {
    const id = table === 'events' ? 'id' : 'event_id';
    await sql
      .raw(
        `update ${table} set warehouse_id = (select c.warehouse_id from warehouse_checks c where c.id = ${table}.entity_id)
         where entity_type = 'check' and warehouse_id is null and ${id} > 0
           and exists (select 1 from warehouse_checks c where c.id = ${table}.entity_id)`,
      )
      .execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
