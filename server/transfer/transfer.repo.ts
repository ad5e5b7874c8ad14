import type { Kysely } from 'kysely';
import type { Db } from '../db/database';
import { nowIso } from '../db/database';
import type { Database } from '../db/schema';

export type TenantTable = Exclude<
  keyof Database,
  'companies' | 'sessions' | 'login_failures' | 'contact_messages'
>;
export type Row = Record<string, unknown>;

// The transfer walks every tenant table the same way; a loosely typed handle keeps that one loop instead of twelve.
const loose = (db: Db) => db as unknown as Kysely<Record<string, Row>>;

export async function findCompany(db: Db, name: string) {
  return db.selectFrom('companies').selectAll().where('name', '=', name).executeTakeFirst();
}

export async function insertCompany(db: Db, name: string, createdAt: string) {
  return db
    .insertInto('companies')
    .values({ name, created_at: createdAt || nowIso() })
    .returning('id')
    .executeTakeFirstOrThrow();
}

export async function selectTenantRows(db: Db, table: TenantTable, companyId: number): Promise<Row[]> {
  return loose(db).selectFrom(table).selectAll().where('company_id', '=', companyId).orderBy('id').execute();
}

export async function insertTenantRow(db: Db, table: TenantTable, row: Row): Promise<number> {
  const inserted = await loose(db).insertInto(table).values(row).returning('id').executeTakeFirstOrThrow();
  return Number(inserted.id);
}

export async function findUsersByEmail(db: Db, emails: string[]) {
  if (emails.length === 0) return [];
  return db.selectFrom('users').select('email').where('email', 'in', emails).execute();
}
