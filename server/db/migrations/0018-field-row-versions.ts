import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Issue 11 (decision 014): on PostgreSQL the hot vault writes (add, stage, move, delete) read what they decide on
// in one statement without locks and then write in one statement that holds only if nothing they read has changed
// since. What they read of a field is the field row itself, its warehouse's capacity and the vaults in it; so each of
// those changes now also writes the field row, and the write compares the row version it read (`xmin`) with the
// row's current one under its lock. SQLite runs one writer at a time and keeps its transactions; nothing changes there.

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

// the fields whose vaults a statement changed, written once each (a no-op update: a new row version)
const TOUCH_FIELDS = (changed: string) =>
  `update fields set "full" = "full" where id in (select field_id from (${changed}) as changed where field_id is not null)`;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql
    .raw(
      `create function wm_fields_of_added_vaults() returns trigger language plpgsql as $$
        begin ${TOUCH_FIELDS('select distinct field_id from added')}; return null; end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create function wm_fields_of_removed_vaults() returns trigger language plpgsql as $$
        begin ${TOUCH_FIELDS('select distinct field_id from removed')}; return null; end $$`,
    )
    .execute(db);
  // a vault that changes field or slot changes both fields; an edit of its details changes neither
  await sql
    .raw(
      `create function wm_fields_of_moved_vaults() returns trigger language plpgsql as $$
        begin ${TOUCH_FIELDS(
          `select o.field_id from removed o join added n on n.id = o.id
             where o.field_id is distinct from n.field_id or o.position is distinct from n.position
           union
           select n.field_id from removed o join added n on n.id = o.id
             where o.field_id is distinct from n.field_id or o.position is distinct from n.position`,
        )}; return null; end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger vaults_touch_fields_insert after insert on vaults referencing new table as added
        for each statement execute function wm_fields_of_added_vaults()`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger vaults_touch_fields_delete after delete on vaults referencing old table as removed
        for each statement execute function wm_fields_of_removed_vaults()`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger vaults_touch_fields_update after update on vaults referencing old table as removed
        new table as added for each statement execute function wm_fields_of_moved_vaults()`,
    )
    .execute(db);
  // a new capacity changes what every field of the warehouse holds
  await sql
    .raw(
      `create function wm_fields_of_resized_warehouse() returns trigger language plpgsql as $$
        begin update fields set "full" = "full" where warehouse_id = new.id; return null; end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger warehouses_touch_fields after update of field_capacity on warehouses for each row
        when (old.field_capacity is distinct from new.field_capacity) execute function wm_fields_of_resized_warehouse()`,
    )
    .execute(db);
  // what a one-statement write calls when something it read has changed: the statement is undone and the write is
  // tried again, like any other lost race (serialization_failure)
  await sql
    .raw(
      `create function wm_unchanged(unchanged boolean) returns boolean language plpgsql as $$
        begin
          if not unchanged then
            raise exception 'changed since it was read' using errcode = 'serialization_failure';
          end if;
          return true;
        end $$`,
    )
    .execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
