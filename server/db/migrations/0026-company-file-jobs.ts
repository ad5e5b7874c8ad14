import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Issue 25: a Manager's download of the company file runs as a job. Its state is a row, so that every server process
// answers its progress; on PostgreSQL the finished file is kept in the database as chunks, so that any process can
// send it (a SQLite installation is one process, and keeps the file in a folder beside its database).

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const pgsql = isPostgres(db);
  await db.schema
    .createTable('company_file_jobs')
    .addColumn('id', 'integer', (c) =>
      pgsql ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
    )
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('requested_by', 'text')
    // running, ready or failed
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('bytes', pgsql ? 'bigint' : 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    // moved on while the job runs; a running job that stopped moving lost its process
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('company_file_jobs_company_idx')
    .on('company_file_jobs')
    .columns(['company_id', 'id'])
    .execute();
  if (pgsql)
    await db.schema
      .createTable('company_file_chunks')
      .addColumn('job_id', 'integer', (c) =>
        c.notNull().references('company_file_jobs.id').onDelete('cascade'),
      )
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('data', sql`bytea`, (c) => c.notNull())
      .addPrimaryKeyConstraint('company_file_chunks_pk', ['job_id', 'seq'])
      .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
