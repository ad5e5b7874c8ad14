import { type Kysely, PostgresAdapter, sql } from 'kysely';
import {
  countVaultFunction,
  sqliteCountStatement,
  sqliteStageEditedTrigger,
  vaultsChangedFunction,
} from './0005-warehouse-stats-and-revisions';

// Issue 11 (decision 014): the kept counts and revisions of migration 0005 without a hot row. On PostgreSQL every
// writer of a warehouse updated that warehouse's one `warehouse_stats` row (and every stage write the company's row)
// and held its lock until commit, so the writers of one warehouse ran one after the other from their vault change to
// their commit. Now each database connection adds its deltas to a row of its own ("slot": the backend's process id
// modulo 16), and readers sum the slots. Every write still moves the sum of the revisions on when it commits, so an
// ETag built from the sum changes with every write. SQLite runs one writer at a time and keeps using slot 0.

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** A connection's row: its backend process id modulo 16 (the pool holds 10 connections per server process). */
const SLOT = `pg_backend_pid() % 16`;

export async function up(db: Kysely<unknown>): Promise<void> {
  const pgsql = isPostgres(db);

  await db.schema
    .alterTable('warehouse_stats')
    .addColumn('slot', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('stage_revisions')
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('slot', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('stage_revisions_pkey', ['company_id', 'slot'])
    .execute();
  await sql`insert into stage_revisions (company_id, slot, revision) select id, 0, stage_revision from companies`.execute(
    db,
  );

  if (pgsql) await postgresTriggers(db);
  else await sqliteTriggers(db);

  await db.schema.alterTable('companies').dropColumn('stage_revision').execute();
}

async function postgresTriggers(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`alter table warehouse_stats drop constraint warehouse_stats_pkey`).execute(db);
  await sql.raw(`alter table warehouse_stats add primary key (warehouse_id, slot)`).execute(db);

  // One vault more (sign 1) or less (-1) in a warehouse, added to this connection's slot. A warehouse deleted in the
  // same transaction (its vaults go by cascade) has nothing left to count.
  await sql.raw(`drop function wm_count_vault(integer, integer, text, integer)`).execute(db);
  await sql
    .raw(
      countVaultFunction(`
        insert into warehouse_stats as s (warehouse_id, company_id, slot, revision, vault_count, real_count,
          empty_vault_count, empty_couchbox_count)
        select w.id, w.company_id, ${SLOT}, 1, p_sign,
          case when is_empty then 0 else p_sign end,
          case when is_empty and p_type = 'vault' then p_sign else 0 end,
          case when is_empty and p_type = 'couchbox' then p_sign else 0 end
        from warehouses w where w.id = p_warehouse
        on conflict (warehouse_id, slot) do update set
          revision = s.revision + 1,
          vault_count = s.vault_count + excluded.vault_count,
          real_count = s.real_count + excluded.real_count,
          empty_vault_count = s.empty_vault_count + excluded.empty_vault_count,
          empty_couchbox_count = s.empty_couchbox_count + excluded.empty_couchbox_count;`),
    )
    .execute(db);
  // the stage's revision, in this connection's slot; a company deleted in the same transaction has no stage left
  await sql
    .raw(
      `create function wm_stage_changed(p_company integer) returns void language plpgsql as $$
      begin
        insert into stage_revisions as s (company_id, slot, revision)
        select c.id, ${SLOT}, 1 from companies c where c.id = p_company
        on conflict (company_id, slot) do update set revision = s.revision + 1;
      end $$`,
    )
    .execute(db);
  await sql.raw(vaultsChangedFunction((company) => `perform wm_stage_changed(${company});`)).execute(db);
  await sql
    .raw(
      `create or replace function wm_event_recorded() returns trigger language plpgsql as $$
      begin
        if new.warehouse_id is not null then
          insert into warehouse_stats as s (warehouse_id, company_id, slot, revision)
          select w.id, w.company_id, ${SLOT}, 1 from warehouses w where w.id = new.warehouse_id
          on conflict (warehouse_id, slot) do update set revision = s.revision + 1;
        end if;
        perform pg_notify('wm_events', '');
        return null;
      end $$`,
    )
    .execute(db);
}

/** SQLite: the warehouse counts stay in slot 0 (migration 0005's triggers); the stage's revision moves table. */
async function sqliteTriggers(db: Kysely<unknown>): Promise<void> {
  const stage = (row: 'new' | 'old') =>
    `insert into stage_revisions (company_id, slot, revision)
      select id, 0, 1 from companies where id = ${row}.company_id
      on conflict (company_id, slot) do update set revision = revision + 1;`;
  const statements = [
    `drop trigger vaults_counted_insert`,
    `drop trigger vaults_counted_delete`,
    `drop trigger vaults_stage_edited`,
    `create trigger vaults_stage_insert after insert on vaults when new.field_id is null begin
      ${stage('new')}
    end`,
    `create trigger vaults_stage_delete after delete on vaults when old.field_id is null begin
      ${stage('old')}
    end`,
    sqliteStageEditedTrigger(stage('new')),
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
  await sqliteCountTriggers(db);
}

/** Migration 0005's insert and delete counts without the stage part, which the triggers above now keep. */
async function sqliteCountTriggers(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `create trigger vaults_counted_insert after insert on vaults begin ${sqliteCountStatement('new', 1)} end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger vaults_counted_delete after delete on vaults begin ${sqliteCountStatement('old', -1)} end`,
    )
    .execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
