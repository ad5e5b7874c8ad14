import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Issue 11 (decision 008): each warehouse's vault counts and a revision that changes with every write to it, and a
// revision of each company's stage. Triggers keep them in the writing transaction, so no code path (the API, the
// factories, the import, a cascade) can forget them. The counts change by +1/-1, which stays right when writers
// run side by side on PostgreSQL; the revisions let a client revalidate a cached answer with one indexed lookup.

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

// The statistics' notion of an EMPTY placeholder, as the grouped count used it: decided by the customer's name.
export const EMPTY_CUSTOMER = `upper(name) like '%EMPTY%'`;

export async function up(db: Kysely<unknown>): Promise<void> {
  const pgsql = isPostgres(db);

  await db.schema
    .createTable('warehouse_stats')
    .addColumn('warehouse_id', 'integer', (c) =>
      c.primaryKey().references('warehouses.id').onDelete('cascade'),
    )
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('vault_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('real_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('empty_vault_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('empty_couchbox_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('warehouse_stats_company_idx')
    .on('warehouse_stats')
    .column('company_id')
    .execute();
  await db.schema
    .alterTable('companies')
    .addColumn('stage_revision', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();

  if (pgsql) await postgresTriggers(db);
  else await sqliteTriggers(db);

  // the warehouses that exist already, counted once
  await sql`
    insert into warehouse_stats (warehouse_id, company_id, vault_count, real_count, empty_vault_count, empty_couchbox_count)
    select w.id, w.company_id,
      (select count(*) from vaults v join fields f on f.id = v.field_id where f.warehouse_id = w.id),
      (select count(*) from vaults v join fields f on f.id = v.field_id join customers c on c.id = v.customer_id
        where f.warehouse_id = w.id and not (upper(c.name) like '%EMPTY%')),
      (select count(*) from vaults v join fields f on f.id = v.field_id join customers c on c.id = v.customer_id
        where f.warehouse_id = w.id and upper(c.name) like '%EMPTY%' and v.type = 'vault'),
      (select count(*) from vaults v join fields f on f.id = v.field_id join customers c on c.id = v.customer_id
        where f.warehouse_id = w.id and upper(c.name) like '%EMPTY%' and v.type = 'couchbox')
    from warehouses w`.execute(db);
}

async function postgresTriggers(db: Kysely<unknown>): Promise<void> {
  // one vault more (sign 1) or less (-1) in a warehouse
  await sql
    .raw(
      countVaultFunction(`
        update warehouse_stats set
          revision = revision + 1,
          vault_count = vault_count + p_sign,
          real_count = real_count + case when is_empty then 0 else p_sign end,
          empty_vault_count = empty_vault_count + case when is_empty and p_type = 'vault' then p_sign else 0 end,
          empty_couchbox_count = empty_couchbox_count + case when is_empty and p_type = 'couchbox' then p_sign else 0 end
        where warehouse_id = p_warehouse;`),
    )
    .execute(db);
  await sql
    .raw(
      vaultsChangedFunction(
        (company) => `update companies set stage_revision = stage_revision + 1 where id = ${company};`,
      ),
    )
    .execute(db);
  await sql
    .raw(
      `create trigger vaults_counted after insert or delete on vaults
      for each row execute function wm_vaults_changed()`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger vaults_recounted after update on vaults for each row
      when (old.field_id is distinct from new.field_id or old.customer_id is distinct from new.customer_id
        or old.type is distinct from new.type or old.field_id is null or new.field_id is null)
      execute function wm_vaults_changed()`,
    )
    .execute(db);
  await sql
    .raw(
      `create function wm_warehouse_added() returns trigger language plpgsql as $$
      begin
        insert into warehouse_stats (warehouse_id, company_id) values (new.id, new.company_id);
        return null;
      end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger warehouses_stats after insert on warehouses
      for each row execute function wm_warehouse_added()`,
    )
    .execute(db);
  // every event of a warehouse is a write to it; the NOTIFY (delivered at commit) tells every server process
  await sql
    .raw(
      `create function wm_event_recorded() returns trigger language plpgsql as $$
      begin
        if new.warehouse_id is not null then
          update warehouse_stats set revision = revision + 1 where warehouse_id = new.warehouse_id;
        end if;
        perform pg_notify('wm_events', '');
        return null;
      end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger events_recorded after insert on events
      for each row execute function wm_event_recorded()`,
    )
    .execute(db);
}

/** SQLite triggers hold plain statements: one per side of the change. */
async function sqliteTriggers(db: Kysely<unknown>): Promise<void> {
  const stage = (row: 'new' | 'old') =>
    `update companies set stage_revision = stage_revision + 1 where id = ${row}.company_id;`;
  const statements = [
    `create trigger vaults_counted_insert after insert on vaults begin
      ${sqliteCountStatement('new', 1)}
      update companies set stage_revision = stage_revision + 1
        where id = new.company_id and new.field_id is null;
    end`,
    `create trigger vaults_counted_delete after delete on vaults begin
      ${sqliteCountStatement('old', -1)}
      update companies set stage_revision = stage_revision + 1
        where id = old.company_id and old.field_id is null;
    end`,
    `create trigger vaults_recounted after update on vaults
      when old.field_id is not new.field_id or old.customer_id is not new.customer_id or old.type is not new.type
    begin
      ${sqliteCountStatement('old', -1)}
      ${sqliteCountStatement('new', 1)}
    end`,
    sqliteStageEditedTrigger(stage('new')),
    `create trigger warehouses_stats after insert on warehouses begin
      insert into warehouse_stats (warehouse_id, company_id) values (new.id, new.company_id);
    end`,
    `create trigger events_recorded after insert on events when new.warehouse_id is not null begin
      update warehouse_stats set revision = revision + 1 where warehouse_id = new.warehouse_id;
    end`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

/**
 * `wm_count_vault`: one vault more (p_sign 1) or less (-1) of p_customer and p_type in p_warehouse; `countIt` writes
 * the change, knowing `is_empty`. Migration 0010 writes it again to count into the connection's own row.
 */
export function countVaultFunction(countIt: string): string {
  return `create function wm_count_vault(p_warehouse integer, p_customer integer, p_type text, p_sign integer)
      returns void language plpgsql as $$
      declare
        is_empty boolean;
      begin
        if p_warehouse is null then return; end if;
        select ${EMPTY_CUSTOMER} into is_empty from customers where id = p_customer;
        is_empty := coalesce(is_empty, false);
        ${countIt}
      end $$`;
}

/**
 * The vaults trigger's function: the warehouse counts on both sides of a change, then `stageChanged` (a statement
 * over the company's id) when the stage changed. Migration 0010 writes it again with its own stage statement.
 */
export function vaultsChangedFunction(stageChanged: (company: string) => string): string {
  return `create or replace function wm_vaults_changed() returns trigger language plpgsql as $$
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
          ${stageChanged("case when tg_op = 'DELETE' then old.company_id else new.company_id end")}
        end if;
        return null;
      end $$`;
}

/** SQLite: `stageChanged` runs when a vault comes onto or leaves the stage. Migration 0010 uses it again. */
export function sqliteStageEditedTrigger(stageChanged: string): string {
  return `create trigger vaults_stage_edited after update on vaults
      when old.field_id is null or new.field_id is null
    begin
      ${stageChanged}
    end`;
}

/** SQLite: one vault more (sign 1) or less (-1) in the warehouse of the row's field. Migration 0010 uses it again. */
export function sqliteCountStatement(row: 'new' | 'old', sign: 1 | -1): string {
  const empty = `coalesce((select ${EMPTY_CUSTOMER} from customers where id = ${row}.customer_id), 0)`;
  return `update warehouse_stats set
        revision = revision + 1,
        vault_count = vault_count + ${sign},
        real_count = real_count + ${sign} * (1 - ${empty}),
        empty_vault_count = empty_vault_count + ${sign} * (${empty} and ${row}.type = 'vault'),
        empty_couchbox_count = empty_couchbox_count + ${sign} * (${empty} and ${row}.type = 'couchbox')
      where warehouse_id = (select warehouse_id from fields where id = ${row}.field_id);`;
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
