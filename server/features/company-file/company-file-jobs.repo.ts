import fs from 'node:fs';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Db, DatabaseHandle } from '../../db/database';
import { nowIso } from '../../db/database';
import type { Database } from '../../db/schema';

export async function insertJob(db: Db, companyId: number, requestedBy: string) {
  const now = nowIso();
  return db
    .insertInto('company_file_jobs')
    .values({
      company_id: companyId,
      requested_by: requestedBy,
      status: 'running',
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findJob(db: Db, companyId: number, id: number) {
  return db
    .selectFrom('company_file_jobs')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The company's newest job, or undefined. */
export async function findLatestJob(db: Db, companyId: number) {
  return db
    .selectFrom('company_file_jobs')
    .selectAll()
    .where('company_id', '=', companyId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The company's jobs other than `keep`, to be removed with their files. */
export async function findOtherJobs(db: Db, companyId: number, keep: number) {
  return db
    .selectFrom('company_file_jobs')
    .select('id')
    .where('company_id', '=', companyId)
    .where('id', '!=', keep)
    .execute();
}

export async function deleteJob(db: Db, companyId: number, id: number): Promise<void> {
  await db.deleteFrom('company_file_jobs').where('company_id', '=', companyId).where('id', '=', id).execute();
}

export async function updateProgress(
  db: Db,
  companyId: number,
  id: number,
  done: number,
  total: number,
): Promise<void> {
  await db
    .updateTable('company_file_jobs')
    .set({ done, total, updated_at: nowIso() })
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('status', '=', 'running')
    .execute();
}

export async function finishJob(
  db: Db,
  companyId: number,
  id: number,
  outcome: { status: 'ready'; bytes: number } | { status: 'failed'; error: string },
): Promise<void> {
  await db
    .updateTable('company_file_jobs')
    .set(
      outcome.status === 'ready'
        ? { status: 'ready', bytes: outcome.bytes, updated_at: nowIso() }
        : { status: 'failed', error: outcome.error, updated_at: nowIso() },
    )
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .execute();
}

export async function insertChunk(db: Db, jobId: number, seq: number, data: Buffer): Promise<void> {
  await db.insertInto('company_file_chunks').values({ job_id: jobId, seq, data }).execute();
}

/** One piece of a job's file (PostgreSQL), or undefined past the last. */
export async function findChunk(db: Db, jobId: number, seq: number): Promise<Buffer | undefined> {
  const row = await db
    .selectFrom('company_file_chunks')
    .select('data')
    .where('job_id', '=', jobId)
    .where('seq', '=', seq)
    .executeTakeFirst();
  return row ? Buffer.from(row.data) : undefined;
}

/**
 * A connection for the export's snapshot that leaves the app's own free. SQLite: a second, read-only connection to
 * the same file (WAL lets it read while the app writes; the app's one connection would otherwise wait for the whole
 * export); an in-memory database has no file, and shares the app's. PostgreSQL: the app's pool.
 */
export function openSnapshotReader(database: DatabaseHandle): { db: Db; close: () => Promise<void> } {
  const file = database.sqlite?.name;
  if (!database.sqlite || !file || database.sqlite.memory || !fs.existsSync(file))
    return { db: database.db, close: async () => {} };
  const reader = new SQLite(file, { readonly: true, fileMustExist: true });
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: reader }) });
  return { db, close: () => db.destroy() };
}
