import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/database';
import { isPostgres } from '../../db/locks';
import { palletsInRacks } from '../racks/racks.repo';

// The highest code point: every text that begins with a prefix sorts below the prefix followed by it.
const TOP = '\u{10FFFF}';

/**
 * `lower(column)` begins with the (lower-cased) prefix, as a range of migration 0035's index: on PostgreSQL its key
 * is compared in byte order, which is what makes the range exact.
 */
function beginsWith(db: Db, column: string, prefix: string): RawBuilder<boolean> {
  const key = isPostgres(db) ? sql`(lower(${sql.ref(column)}) collate "C")` : sql`lower(${sql.ref(column)})`;
  const low = prefix.toLowerCase();
  return sql<boolean>`(${key} >= ${low} and ${key} < ${low + TOP})`;
}

/** `%term%`-style LIKE patterns take the term's own wildcards and escape character literally. */
function escapeLike(term: string): string {
  return term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A name that begins with the term, or one of whose words does ("smi" finds "JOHN SMITH"). */
function nameOrWordBeginsWith(column: string, term: string): RawBuilder<boolean> {
  const escaped = escapeLike(term);
  const key = sql`lower(${sql.ref(column)})`;
  return sql<boolean>`(${key} like ${`${escaped}%`} escape '\\' or ${key} like ${`% ${escaped}%`} escape '\\')`;
}

export interface VaultHitRow {
  id: number;
  name: string | null;
  customer_name: string;
  order_name: string | null;
  field_id: number | null;
  position: number | null;
  col: number | null;
  row: number | null;
  warehouse_id: number | null;
  warehouse_name: string | null;
  warehouse_slug: string | null;
  released_at: string | null;
  released_by: string | null;
}

/** The company's vaults whose number begins with the term, in number order. */
export async function findVaultHits(db: Db, companyId: number, term: string, limit: number) {
  const rows = await db
    .selectFrom('vaults as v')
    .innerJoin('customers as c', 'c.id', 'v.customer_id')
    .leftJoin('orders as o', 'o.id', 'v.order_id')
    .leftJoin('fields as f', 'f.id', 'v.field_id')
    .leftJoin('warehouses as w', 'w.id', 'f.warehouse_id')
    .select([
      'v.id',
      'v.name',
      'c.name as customer_name',
      'o.name as order_name',
      'v.field_id',
      'v.position',
      'f.col',
      'f.row',
      'w.id as warehouse_id',
      'w.name as warehouse_name',
      'w.slug as warehouse_slug',
      'v.released_at',
      'v.released_by',
    ])
    .where('v.company_id', '=', companyId)
    .where(beginsWith(db, 'v.name', term))
    .orderBy(sql`lower(v.name)`)
    .orderBy('v.id')
    .limit(limit)
    .execute();
  return rows as VaultHitRow[];
}

export interface OwnerHitRow {
  id: number;
  name: string;
}

/** The company's customers or orders whose name, or a word of it, begins with the term. */
export async function findOwnerHits(
  db: Db,
  table: 'customers' | 'orders',
  companyId: number,
  term: string,
  limit: number,
): Promise<OwnerHitRow[]> {
  return db
    .selectFrom(table)
    .select(['id', 'name'])
    .where('company_id', '=', companyId)
    .where(nameOrWordBeginsWith('name', term))
    .orderBy('name')
    .limit(limit)
    .execute();
}

export interface SpreadRow {
  owner_id: number;
  /** null: on the stage */
  warehouse_name: string | null;
  count: number;
}

/** Where the vaults (in fields or staged, not released) of these customers or orders are, counted per warehouse. */
export async function vaultSpread(
  db: Db,
  companyId: number,
  by: 'customer_id' | 'order_id',
  ids: number[],
): Promise<SpreadRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('vaults as v')
    .leftJoin('fields as f', 'f.id', 'v.field_id')
    .leftJoin('warehouses as w', 'w.id', 'f.warehouse_id')
    .select([`v.${by} as owner_id`, 'w.name as warehouse_name', (eb) => eb.fn.countAll<number>().as('count')])
    .where('v.company_id', '=', companyId)
    .where(`v.${by}`, 'in', ids)
    .where('v.released_at', 'is', null)
    .groupBy([`v.${by}`, 'w.name'])
    .execute();
  return rows.map((r) => ({
    owner_id: Number(r.owner_id),
    warehouse_name: r.warehouse_name,
    count: Number(r.count),
  }));
}

/** Where the pallets of these customers are, counted per warehouse. */
export async function palletSpread(db: Db, companyId: number, customerIds: number[]): Promise<SpreadRow[]> {
  if (customerIds.length === 0) return [];
  const rows = await palletsInRacks(db)
    .select([
      'p.customer_id as owner_id',
      'w.name as warehouse_name',
      (eb) => eb.fn.countAll<number>().as('count'),
    ])
    .where('p.company_id', '=', companyId)
    .where('p.customer_id', 'in', customerIds)
    .groupBy(['p.customer_id', 'w.name'])
    .execute();
  return rows.map((r) => ({
    owner_id: r.owner_id,
    warehouse_name: r.warehouse_name,
    count: Number(r.count),
  }));
}

/** The company's pallets whose name or pallet number begins with the term. */
export async function findPalletHits(db: Db, companyId: number, term: string, limit: number) {
  return palletsInRacks(db)
    .select([
      'p.id',
      'p.name',
      'p.pallet_number',
      'c.name as customer_name',
      'w.id as warehouse_id',
      'w.name as warehouse_name',
      'w.slug as warehouse_slug',
      'r.id as rack_id',
      'r.name as rack_name',
      's.position as shelf',
    ])
    .where('p.company_id', '=', companyId)
    .where((eb) => eb.or([beginsWith(db, 'p.name', term), beginsWith(db, 'p.pallet_number', term)]))
    .orderBy('p.name')
    .orderBy('p.id')
    .limit(limit)
    .execute();
}

/** The company's fields at this column and row, in every warehouse, with how many vaults each holds. */
export async function findFieldHits(
  db: Db,
  companyId: number,
  place: { col: number; row: number },
  limit: number,
) {
  return db
    .selectFrom('fields as f')
    .innerJoin('warehouses as w', 'w.id', 'f.warehouse_id')
    .select((eb) => [
      'f.id',
      'f.col',
      'f.row',
      'f.full',
      'f.type',
      'w.id as warehouse_id',
      'w.name as warehouse_name',
      'w.slug as warehouse_slug',
      eb
        .selectFrom('vaults as v')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('v.field_id', '=', 'f.id')
        .as('vaults'),
    ])
    .where('w.company_id', '=', companyId)
    .where('f.col', '=', place.col)
    .where('f.row', '=', place.row)
    .where('f.type', '!=', 'couchbox-B')
    .orderBy('w.name')
    .limit(limit)
    .execute();
}
