import { sql } from 'kysely';
import type { Db, Engine } from '../db/database';
import type { Database } from '../db/schema';
import { type CompanyExport, exportCompany } from '../transfer/company-transfer';

// sessions and login failures change on purpose when someone signs in or fails to
const COUNTED_TABLES = [
  'companies',
  'users',
  'warehouses',
  'fields',
  'customers',
  'orders',
  'vaults',
  'attachments',
  'racks',
  'shelves',
  'pallets',
  'checklists',
  'checklist_tasks',
  'contact_messages',
  'events',
  'pull_lists',
  'pull_list_items',
  'warehouse_checks',
  'warehouse_check_fields',
  'warehouse_check_vaults',
] as const satisfies readonly (keyof Database)[];

export interface DatabaseSnapshot {
  /** the company's complete, id-normalised data */
  company: CompanyExport;
  /** rows per table over all companies, so a write into another company or a shared table shows too */
  counts: Record<string, number>;
}

export async function snapshotDatabase(db: Db, companyName: string): Promise<DatabaseSnapshot> {
  const counts: Record<string, number> = {};
  for (const table of COUNTED_TABLES) {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return { company: await exportCompany(db, companyName), counts };
}

/** Ids of the events logged for a company, to prove another company's stream never carries them. */
export async function companyEventIds(db: Db, companyId: number): Promise<number[]> {
  const rows = await db.selectFrom('events').select('id').where('company_id', '=', companyId).execute();
  return rows.map((r) => r.id);
}

/**
 * A counter that moves whenever the database may have changed, which makes "nothing changed" cheap to prove: on SQLite
 * (one connection) the rows changed so far; on PostgreSQL the position of the write-ahead log, which every committed
 * change moves (so does other work of the same server, such as other test files' databases: then the full comparison
 * runs, as it would without a counter).
 */
export async function changeCounter(db: Db, engine: Engine): Promise<number> {
  const { rows } =
    engine === 'sqlite'
      ? await sql<{ n: number }>`select total_changes() as n`.execute(db)
      : await sql<{ n: string }>`select pg_current_wal_insert_lsn() - '0/0'::pg_lsn as n`.execute(db);
  return Number(rows[0]!.n);
}
