import { type Kysely, PostgresAdapter, sql } from 'kysely';
import type { Db } from '../db/database';
import { nowIso } from '../db/database';
import type { Database } from '../db/schema';

/**
 * The tables of the database that the company file does not carry, each with the reason. Every other table is a
 * tenant table with its rules in TABLE_RULES; a test lists the tables of a migrated database and fails on any that is
 * in neither, so a new table cannot be left out of the company file by accident.
 */
export const NOT_IN_COMPANY_FILE = {
  companies: 'the company itself travels in the manifest (name, created_at, locale)',
  sessions: 'sign-ins of this installation; a moved company signs in again',
  login_failures: "this installation's throttling of sign-in attempts",
  contact_messages: 'messages to the operator of this installation, not data of a company',
  installation_secrets: "this installation's own keys",
  warehouse_stats: 'counters recomputed from the vaults and fields',
  member_links: 'pending invitation and password-reset links, whose tokens belong to this installation',
  stage_revisions: "this database's change counter of the company's stage, begun anew",
  event_search: 'the search keys of the events, indexed again from the events after an import',
  event_search_progress: 'the indexing position of event_search in this database',
  imports: 'the spreadsheet import history names ids of one database; a moved company starts without it',
  import_items: 'the items of that import history',
  company_file_jobs: "a download of the company file is about this database's copy of it",
  company_file_chunks: 'the bytes of such a download (PostgreSQL only)',
  api_tokens: "API tokens open this installation's API; a moved company makes new ones (decision 044)",
  webhook_endpoints: 'webhook endpoints carry their signing secrets; a moved company registers them again',
  webhook_subscriptions: 'the event kinds of those endpoints',
  webhook_deliveries: "this installation's outbox of those endpoints",
  idempotency_keys:
    "answers kept a day for this installation's tablets that send a write again (decision 043)",
  mail_outbox: "this installation's queue of mail to send, with its delivery attempts",
  portal_links: 'pending portal sign-in links, whose tokens belong to this installation',
  portal_sessions: 'portal sign-ins of this installation; a moved customer signs in again',
} as const satisfies Partial<Record<keyof Database, string>>;

export type TenantTable = Exclude<keyof Database, keyof typeof NOT_IN_COMPANY_FILE>;
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
  const rows = loose(db).selectFrom(table).select(columns).where('company_id', '=', companyId);
  // a table keyed by the company alone (billing_settings) has one row at most
  return (columns.includes('id') ? rows.orderBy('id') : rows).execute();
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

/** Whether the database is PostgreSQL (its identities can hand out ids before the rows are written). */
export function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * `count` new ids of the table, taken from its identity's sequence in one statement (PostgreSQL only). Rows inserted
 * with them keep them (the identity is GENERATED BY DEFAULT), and the sequence never hands them out again, so a batch
 * of rows knows each row's new id without relying on the order in which an INSERT returns them.
 */
export async function allocateIds(db: Db, table: TenantTable, count: number): Promise<number[]> {
  const { rows } = await sql<{ id: string | number }>`
    select nextval(pg_get_serial_sequence(${table}, 'id')) as id from generate_series(1, ${count})`.execute(
    db,
  );
  return rows.map((row) => Number(row.id));
}
