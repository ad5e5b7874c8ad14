import type { Kysely } from 'kysely';
import * as build from './company-tables';

// Issue 15 part 3: the warehouse check (audit). A check covers some fields of one warehouse; for each vault it meets
// one row says in which field it was expected when the check started and in which field it was found, so the same
// vault scanned twice (or by two people at once) counts once, and a report reads every discrepancy from one table.

export async function up(db: Kysely<unknown>): Promise<void> {
  await build
    .createCompanyTable(db, 'warehouse_checks')
    .addColumn('warehouse_id', 'integer', build.cascadingReference('warehouses'))
    .$call(build.stamp('started', { required: true }))
    .$call(build.stamp('finished'))
    .addColumn('version', 'integer', build.rowVersion)
    .execute();
  await build.createCompanyListIndex(db, 'warehouse_checks', 'started_at').execute();

  await build
    .createCompanyTable(db, 'warehouse_check_fields')
    .addColumn('check_id', 'integer', build.cascadingReference('warehouse_checks'))
    .addColumn('field_id', 'integer', build.cascadingReference('fields'))
    // who opened the field for checking (scanned its label or picked it), and when; null while nobody has
    .$call(build.stamp('opened'))
    .addUniqueConstraint('warehouse_check_fields_key', ['check_id', 'field_id'])
    .execute();

  await build
    .createCompanyTable(db, 'warehouse_check_vaults')
    .addColumn('check_id', 'integer', build.cascadingReference('warehouse_checks'))
    .addColumn('vault_id', 'integer', build.cascadingReference('vaults'))
    // where the vault stood when the check started (null: not expected in any covered field)
    .addColumn('expected_field_id', 'integer', build.clearedReference('fields'))
    // where it was scanned (null: not found yet)
    .addColumn('found_field_id', 'integer', build.clearedReference('fields'))
    .$call(build.stamp('found'))
    // 'moved' (an unexpected vault moved into the field where it was found) or 'searched' (a missing one searched for)
    .addColumn('resolution', 'text')
    .$call(build.stamp('resolved'))
    .addUniqueConstraint('warehouse_check_vaults_key', ['check_id', 'vault_id'])
    .execute();
  await db.schema
    .createIndex('warehouse_check_vaults_vault_idx')
    .on('warehouse_check_vaults')
    .column('vault_id')
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
