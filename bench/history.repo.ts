import type { Insertable } from 'kysely';
import type { Db } from '../server/db/database';
import type { Database } from '../server/db/schema';

/** Bulk event rows for the history benchmark, chunked under the engines' parameter limits, without returning ids. */
export async function insertEvents(db: Db, rows: Insertable<Database['events']>[]): Promise<void> {
  const columns = rows[0] ? Object.keys(rows[0]).length : 1;
  const chunk = Math.max(1, Math.floor(30_000 / columns));
  for (let i = 0; i < rows.length; i += chunk) {
    await db
      .insertInto('events')
      .values(rows.slice(i, i + chunk))
      .execute();
  }
}

export async function insertWarehouseRows(db: Db, rows: Insertable<Database['warehouses']>[]) {
  return db.insertInto('warehouses').values(rows).returning('id').execute();
}

export async function insertUserRows(db: Db, rows: Insertable<Database['users']>[]) {
  return db.insertInto('users').values(rows).returning('id').execute();
}

/** Refreshes the planner's statistics after the bulk load, as a database in service has them. */
export async function analyze(db: Db, engine: 'sqlite' | 'postgres') {
  const { sql } = await import('kysely');
  await sql`analyze`.execute(db);
  if (engine === 'sqlite') await sql`pragma optimize`.execute(db);
}
