import { type Kysely, PostgresAdapter, sql } from 'kysely';
import type { Db } from '../db/database';
import { nowIso } from '../db/database';
import type { Database } from '../db/schema';

export type TenantTable = Exclude<
  keyof Database,
  | 'companies'
  | 'sessions'
  | 'login_failures'
  | 'contact_messages'
  | 'installation_secrets'
  | 'warehouse_stats'
  | 'member_links'
  | 'stage_revisions'
  // the events' search keys, indexed again from the events themselves after an import
  | 'event_search'
  | 'event_search_progress'
  // the import history names ids of one database; a company moved to another starts without it
  | 'imports'
  | 'import_items'
  // a download of the company file is about this database's copy of it
  | 'company_file_jobs'
  | 'company_file_chunks'
  // storage billing (issue 28) is not in the company file yet (decision 035): a moved company starts billing anew
  | 'billing_settings'
  | 'storage_accounts'
  | 'storage_account_orders'
  | 'storage_account_history'
  | 'billing_rates'
  | 'invoices'
  | 'invoice_lines'
  | 'payments'
  | 'payment_allocations'
>;
type Row = Record<string, unknown>;

// The transfer walks every tenant table the same way; a loosely typed handle keeps that one loop instead of twelve.
const loose = (db: Db) => db as unknown as Kysely<Record<string, Row>>;

/**
 * Runs all the reads of `read` on one snapshot of the database, while others keep writing. PostgreSQL: a read-only
 * REPEATABLE READ transaction. SQLite: a plain deferred transaction, which in WAL mode reads the snapshot of its first
 * read and takes no write lock (the app's own transactions begin IMMEDIATE, which would hold writers off).
 */
export async function readSnapshot<T>(db: Db, read: (snapshot: Db) => Promise<T>): Promise<T> {
  if (db.getExecutor().adapter instanceof PostgresAdapter)
    return db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(read);
  return db.connection().execute(async (connection) => {
    await sql`begin deferred`.execute(connection);
    try {
      const result = await read(connection);
      await sql`commit`.execute(connection);
      return result;
    } catch (error) {
      await sql`rollback`.execute(connection);
      throw error;
    }
  });
}

export async function findCompany(db: Db, name: string) {
  return db.selectFrom('companies').selectAll().where('name', '=', name).executeTakeFirst();
}

export async function insertCompany(db: Db, name: string, createdAt: string, locale?: string) {
  return db
    .insertInto('companies')
    .values({ name, created_at: createdAt || nowIso(), ...(locale !== undefined && { locale }) })
    .returning('id')
    .executeTakeFirstOrThrow();
}

/** The company's rows of the table, oldest id first, with exactly the named columns. */
export async function selectTenantRows(
  db: Db,
  table: TenantTable,
  companyId: number,
  columns: string[],
): Promise<Row[]> {
  return loose(db)
    .selectFrom(table)
    .select(columns)
    .where('company_id', '=', companyId)
    .orderBy('id')
    .execute();
}

export async function insertTenantRow(db: Db, table: TenantTable, row: Row): Promise<number> {
  const inserted = await loose(db).insertInto(table).values(row).returning('id').executeTakeFirstOrThrow();
  return Number(inserted.id);
}

export async function findUsersByEmail(db: Db, emails: string[]) {
  if (emails.length === 0) return [];
  return db.selectFrom('users').select('email').where('email', 'in', emails).execute();
}

/** One page of the company's rows of the table, oldest id first, after the id `afterId`. */
export async function selectTenantPage(
  db: Db,
  table: TenantTable,
  companyId: number,
  columns: string[],
  afterId: number,
  limit: number,
): Promise<Row[]> {
  return loose(db)
    .selectFrom(table)
    .select(columns)
    .where('company_id', '=', companyId)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

export async function countTenantRows(db: Db, table: TenantTable, companyId: number): Promise<number> {
  const row = await loose(db)
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n'))
    .where('company_id', '=', companyId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The bytes of one attachment, read alone so that only one of them is in memory at a time. */
export async function selectAttachmentContent(db: Db, companyId: number, id: number): Promise<Buffer> {
  const row = await db
    .selectFrom('attachments')
    .select('content')
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return Buffer.from(row.content);
}

/** Several rows in one statement, for the tables no other row points into (their new ids are not needed). */
export async function insertTenantRows(db: Db, table: TenantTable, rows: Row[]): Promise<void> {
  if (rows.length > 0) await loose(db).insertInto(table).values(rows).execute();
}
