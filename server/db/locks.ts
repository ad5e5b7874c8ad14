import { type Kysely, PostgresAdapter, type RawBuilder, sql, type Transaction } from 'kysely';
import type { Database } from './schema';

/** A write's transaction: functions that only make sense inside one take this instead of the pool. */
export type Trx = Transaction<Database>;

/**
 * The one place that tells the engines apart. PostgreSQL runs writers side by side, so the warehouse aggregate's rows
 * are locked in one fixed order (docs/decisions/003-locking.md); SQLite runs one writer at a time (BEGIN IMMEDIATE)
 * and has no FOR UPDATE, so there every lock below is a no-op.
 */
export function isPostgres(db: Pick<Kysely<unknown>, 'getExecutor'>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** 'share' for work inside a warehouse's fields and shelves, 'update' for changes to its layout. */
export type WarehouseLock = 'share' | 'update';

/** The advisory locks of warehouses: keyed by the warehouses table's oid and the warehouse's id. */
const WAREHOUSE_LOCKS = sql`'warehouses'::regclass::oid::integer`;

function inIdOrder(ids: readonly (number | null | undefined)[]): number[] {
  return [...new Set(ids.filter((id): id is number => typeof id === 'number'))].sort((a, b) => a - b);
}

/**
 * Step 1: the warehouses, in id order (a vault moved between two warehouses locks both). On PostgreSQL a
 * transaction-level advisory lock keyed by the warehouses table and the warehouse's id, shared or exclusive, held until
 * the transaction ends: it orders writers exactly as a FOR SHARE / FOR UPDATE of the warehouse row did, but writes
 * nothing to the row (many FOR SHARE holders of one row made PostgreSQL build a multixact for every new one).
 */
export async function lockWarehouses(
  trx: Trx,
  warehouseIds: readonly (number | null | undefined)[],
  mode: WarehouseLock,
): Promise<void> {
  const ids = inIdOrder(warehouseIds);
  if (ids.length === 0 || !isPostgres(trx)) return;
  // one statement per warehouse keeps the id order; only a move between two warehouses takes two
  for (const id of ids) {
    await (
      mode === 'update'
        ? sql`select pg_advisory_xact_lock(${WAREHOUSE_LOCKS}, ${id}::integer)`
        : sql`select pg_advisory_xact_lock_shared(${WAREHOUSE_LOCKS}, ${id}::integer)`
    ).execute(trx);
  }
}

/**
 * Step 1 in shared mode as a column of the statement that finds which warehouse a write works in (PostgreSQL only),
 * which saves a round trip: the lock is taken once the row is found, and waits there; a NULL warehouse (a staged
 * vault) takes none. Like any read before the locks, the row only tells what to lock: read again what you decide on.
 */
export function sharedWarehouseLock(warehouseIdColumn: string): RawBuilder<unknown> {
  return sql`pg_advisory_xact_lock_shared(${WAREHOUSE_LOCKS}, ${sql.ref(warehouseIdColumn)})`;
}

/**
 * Step 1 in shared mode as a condition of a larger statement (PostgreSQL only): one or two warehouses, the lower id
 * first (0 for none). Always true once the locks are held.
 */
export function sharedWarehouseLocks(first: unknown, second: unknown): RawBuilder<boolean> {
  return sql<boolean>`(select count(*) from (
      select pg_advisory_xact_lock_shared(${WAREHOUSE_LOCKS}, w)
      from (values (1, ${first}::integer), (2, ${second}::integer)) as ordered (n, w) where w > 0 order by n
    ) as locks) >= 0`;
}

export function lockWarehouse(trx: Trx, warehouseId: number, mode: WarehouseLock): Promise<void> {
  return lockWarehouses(trx, [warehouseId], mode);
}

/** Step 2: the fields a write reads or changes, exclusive, in id order. */
export async function lockFields(trx: Trx, fieldIds: readonly (number | null | undefined)[]): Promise<void> {
  const ids = inIdOrder(fieldIds);
  if (ids.length === 0 || !isPostgres(trx)) return;
  await trx.selectFrom('fields').select('id').where('id', 'in', ids).orderBy('id').forUpdate().execute();
}

/** Step 2 on the racks side: the shelves a pallet write reads or changes, exclusive, in id order. */
export async function lockShelves(trx: Trx, shelfIds: readonly (number | null | undefined)[]): Promise<void> {
  const ids = inIdOrder(shelfIds);
  if (ids.length === 0 || !isPostgres(trx)) return;
  await trx.selectFrom('shelves').select('id').where('id', 'in', ids).orderBy('id').forUpdate().execute();
}

/** Step 3: the vault rows themselves. */
export async function lockVaults(trx: Trx, vaultIds: readonly (number | null | undefined)[]): Promise<void> {
  const ids = inIdOrder(vaultIds);
  if (ids.length === 0 || !isPostgres(trx)) return;
  await trx.selectFrom('vaults').select('id').where('id', 'in', ids).orderBy('id').forUpdate().execute();
}

interface DriverError {
  code?: string;
  constraint?: string;
  message?: string;
}

// deadlock, serialization failure, lock not available
const LOST_RACE_CODES = new Set(['40P01', '40001', '55P03']);
// checks that sound code can only break when another writer moved the ground under it
const RACE_CHECKS = ['vaults_placed_has_position', 'pallets_slot_range'];

/**
 * A driver error that only says another writer got there first. The database rolled the transaction back, so nothing
 * was saved and the client may simply try again.
 */
export function isLostRace(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, constraint, message } = error as DriverError;
  if (code !== undefined && LOST_RACE_CODES.has(code)) return true;
  if (code === '23514') return RACE_CHECKS.includes(constraint ?? '');
  if (code === 'SQLITE_CONSTRAINT_CHECK') return RACE_CHECKS.some((name) => message?.includes(name));
  return false;
}
