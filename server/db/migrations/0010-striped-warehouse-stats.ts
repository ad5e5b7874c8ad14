import { type Kysely, PostgresAdapter, sql } from 'kysely';

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
// The statistics' notion of an EMPTY placeholder, as in migration 0005.
const EMPTY_CUSTOMER = `upper(name) like '%EMPTY%'`;

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
      `create function wm_count_vault(p_warehouse integer, p_customer integer, p_type text, p_sign integer)
      returns void language plpgsql as $$
      declare
        is_empty boolean;
      begin
        if p_warehouse is null then return; end if;
        select ${EMPTY_CUSTOMER} into is_empty from customers where id = p_customer;
        is_empty := coalesce(is_empty, false);
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
          empty_couchbox_count = s.empty_couchbox_count + excluded.empty_couchbox_count;
      end $$`,
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
  await sql
    .raw(
      `create or replace function wm_vaults_changed() returns trigger language plpgsql as $$
      declare
        old_warehouse integer;
        new_warehouse integer;
      begin
        if tg_op <> 'INSERT' and old.field_id is not null then
          select warehouse_id into old_warehouse from fields where id = old.field_id;
        end if;
        if tg_op <> 'DELETE' and new.field_id is not null then
          select warehouse_id into new_warehouse from fields where id = new.field_id;
        end if;
        -- two warehouses are touched in id order, like every other lock (decision 003)
        if tg_op = 'UPDATE' and new_warehouse is not null and old_warehouse is not null
            and new_warehouse < old_warehouse then
          perform wm_count_vault(new_warehouse, new.customer_id, new.type, 1);
          perform wm_count_vault(old_warehouse, old.customer_id, old.type, -1);
        else
          if tg_op <> 'INSERT' then perform wm_count_vault(old_warehouse, old.customer_id, old.type, -1); end if;
          if tg_op <> 'DELETE' then perform wm_count_vault(new_warehouse, new.customer_id, new.type, 1); end if;
        end if;
        -- the stage changed: a staged vault came, went or was edited
        if (tg_op <> 'INSERT' and old.field_id is null) or (tg_op <> 'DELETE' and new.field_id is null) then
          perform wm_stage_changed(case when tg_op = 'DELETE' then old.company_id else new.company_id end);
        end if;
        return null;
      end $$`,
    )
    .execute(db);
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
    `create trigger vaults_stage_edited after update on vaults
      when old.field_id is null or new.field_id is null
    begin
      ${stage('new')}
    end`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
  await sqliteCountTriggers(db);
}

/** Migration 0005's insert and delete counts without the stage part, which the triggers above now keep. */
async function sqliteCountTriggers(db: Kysely<unknown>): Promise<void> {
  const count = (row: 'new' | 'old', sign: 1 | -1) => {
    const empty = `coalesce((select ${EMPTY_CUSTOMER} from customers where id = ${row}.customer_id), 0)`;
    return `update warehouse_stats set
        revision = revision + 1,
        vault_count = vault_count + ${sign},
        real_count = real_count + ${sign} * (1 - ${empty}),
        empty_vault_count = empty_vault_count + ${sign} * (${empty} and ${row}.type = 'vault'),
        empty_couchbox_count = empty_couchbox_count + ${sign} * (${empty} and ${row}.type = 'couchbox')
      where warehouse_id = (select warehouse_id from fields where id = ${row}.field_id);`;
  };
  await sql
    .raw(`create trigger vaults_counted_insert after insert on vaults begin ${count('new', 1)} end`)
    .execute(db);
  await sql
    .raw(`create trigger vaults_counted_delete after delete on vaults begin ${count('old', -1)} end`)
    .execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
