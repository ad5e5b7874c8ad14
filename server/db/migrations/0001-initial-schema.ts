import {
  type ColumnDefinitionBuilder,
  type CreateTableBuilder,
  type Kysely,
  PostgresAdapter,
  sql,
} from 'kysely';

// Both engines run this file: flags are integers, timestamps ISO text, reals float8, blobs bytea/blob.
function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

type Table = CreateTableBuilder<string, never>;

export async function up(db: Kysely<unknown>): Promise<void> {
  const pgsql = isPostgres(db);
  const id = (t: Table): Table =>
    pgsql
      ? t.addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
      : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  const real = sql`float8`;
  const blob = pgsql ? sql`bytea` : sql`blob`;
  const company = (c: ColumnDefinitionBuilder) => c.notNull().references('companies.id').onDelete('cascade');

  await id(db.schema.createTable('companies'))
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await id(db.schema.createTable('users'))
    .addColumn('company_id', 'integer', company)
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('company_id', 'integer', company)
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

  await id(db.schema.createTable('login_failures'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('login_failures_email_idx')
    .on('login_failures')
    .columns(['email', 'created_at'])
    .execute();

  await id(db.schema.createTable('warehouses'))
    .addColumn('company_id', 'integer', company)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('rows', 'integer', (c) => c.notNull())
    .addColumn('cols', 'integer', (c) => c.notNull())
    .addColumn('field_capacity', 'integer', (c) => c.notNull().defaultTo(3))
    .addColumn('length', real, (c) => c.notNull().defaultTo(0))
    .addColumn('width', real, (c) => c.notNull().defaultTo(0))
    .addColumn('grid_x', real, (c) => c.notNull().defaultTo(0))
    .addColumn('grid_y', real, (c) => c.notNull().defaultTo(0))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('warehouses_company_name_key', ['company_id', 'name'])
    .addUniqueConstraint('warehouses_company_slug_key', ['company_id', 'slug'])
    .execute();

  await id(db.schema.createTable('fields'))
    .addColumn('company_id', 'integer', company)
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouses.id').onDelete('cascade'))
    .addColumn('col', 'integer', (c) => c.notNull())
    .addColumn('row', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull().defaultTo('vault'))
    .addColumn('full', 'integer', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('fields_warehouse_cell_key', ['warehouse_id', 'col', 'row'])
    .execute();

  for (const table of ['customers', 'orders'] as const) {
    await id(db.schema.createTable(table))
      .addColumn('company_id', 'integer', company)
      .addColumn('name', 'text', (c) => c.notNull())
      .addUniqueConstraint(`${table}_company_name_key`, ['company_id', 'name'])
      .execute();
  }

  await id(db.schema.createTable('vaults'))
    .addColumn('company_id', 'integer', company)
    .addColumn('name', 'text')
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id'))
    .addColumn('order_id', 'integer', (c) => c.references('orders.id').onDelete('set null'))
    .addColumn('field_id', 'integer', (c) => c.references('fields.id').onDelete('cascade'))
    .addColumn('position', 'integer')
    .addColumn('type', 'text', (c) => c.notNull().defaultTo('vault'))
    .addColumn('note', 'text')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    // customers: NO ACTION (checked at statement end) so deleting a company cascades cleanly
    // one slot holds one vault; staged vaults (null field and position) are exempt
    .addUniqueConstraint('vaults_field_position_key', ['field_id', 'position'])
    .addCheckConstraint(
      'vaults_placed_has_position',
      sql`(field_id is null and position is null) or (field_id is not null and position >= 1)`,
    )
    .execute();
  await db.schema
    .createIndex('vaults_company_idx')
    .on('vaults')
    .columns(['company_id', 'field_id'])
    .execute();
  await db.schema.createIndex('vaults_customer_idx').on('vaults').column('customer_id').execute();
  await db.schema.createIndex('vaults_order_idx').on('vaults').column('order_id').execute();

  await id(db.schema.createTable('attachments'))
    .addColumn('company_id', 'integer', company)
    .addColumn('vault_id', 'integer', (c) => c.notNull().references('vaults.id').onDelete('cascade'))
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('content', blob, (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('attachments_vault_idx').on('attachments').column('vault_id').execute();

  await id(db.schema.createTable('racks'))
    .addColumn('company_id', 'integer', company)
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouses.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('orientation', 'text', (c) => c.notNull().defaultTo('horizontal'))
    .addColumn('width', real, (c) => c.notNull())
    .addColumn('length', real, (c) => c.notNull())
    .addColumn('x', real, (c) => c.notNull().defaultTo(0))
    .addColumn('y', real, (c) => c.notNull().defaultTo(0))
    .addColumn('capacity', 'integer', (c) => c.notNull().defaultTo(100))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('racks_warehouse_idx').on('racks').column('warehouse_id').execute();

  await id(db.schema.createTable('shelves'))
    .addColumn('company_id', 'integer', company)
    .addColumn('rack_id', 'integer', (c) => c.notNull().references('racks.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('capacity', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('shelves_rack_idx').on('shelves').column('rack_id').execute();

  await id(db.schema.createTable('pallets'))
    .addColumn('company_id', 'integer', company)
    .addColumn('shelf_id', 'integer', (c) => c.notNull().references('shelves.id').onDelete('cascade'))
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id'))
    .addColumn('name', 'text')
    .addColumn('pallet_number', 'text')
    .addColumn('notes', 'text')
    .addColumn('weight', real, (c) => c.notNull().defaultTo(0))
    .addColumn('shelf_spots', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('slot_index', 'integer', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addCheckConstraint('pallets_slot_range', sql`slot_index >= 0 and shelf_spots >= 1`)
    .execute();
  await db.schema.createIndex('pallets_shelf_idx').on('pallets').column('shelf_id').execute();

  await id(db.schema.createTable('checklists'))
    .addColumn('company_id', 'integer', company)
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouses.id').onDelete('cascade'))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('filled_out_by', 'text')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // at most one active checklist per warehouse
  await db.schema
    .createIndex('checklists_one_active_idx')
    .on('checklists')
    .column('warehouse_id')
    .unique()
    .where(sql.ref('is_active'), '=', 1)
    .execute();

  await id(db.schema.createTable('checklist_tasks'))
    .addColumn('company_id', 'integer', company)
    .addColumn('checklist_id', 'integer', (c) => c.notNull().references('checklists.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('completed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('completed_by', 'text')
    .addColumn('reason', 'text')
    .addColumn('completed_at', 'text')
    .execute();
  await db.schema
    .createIndex('checklist_tasks_checklist_idx')
    .on('checklist_tasks')
    .column('checklist_id')
    .execute();

  await id(db.schema.createTable('contact_messages'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('company', 'text')
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await id(db.schema.createTable('events'))
    .addColumn('company_id', 'integer', company)
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('actor', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('entity_type', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'integer')
    .addColumn('warehouse_id', 'integer')
    .addColumn('payload', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('events_company_idx').on('events').columns(['company_id', 'id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
