import { sql } from 'kysely';
import { fieldName } from '@domain/rules/field-names';
import { fieldSlotCount } from '@domain/rules/capacity';
import type { Db } from '../db/database';

/**
 * The rules of the warehouse aggregate checked on the stored rows of one company, whatever wrote them. Each broken rule
 * comes back as a readable line; an empty list means the data is sound.
 */
export async function findInvariantViolations(db: Db, companyId: number): Promise<string[]> {
  const problems: string[] = [];

  // stacks: within the field's slots, standing on the floor (position = slots) and contiguous from there up
  const stacks = await sql<{
    field_id: number;
    col: number;
    row: number;
    type: string;
    field_capacity: number;
    n: number;
    lo: number;
    hi: number;
  }>`
    select f.id as field_id, f.col, f.row, f.type, w.field_capacity,
           count(v.id) as n, min(v.position) as lo, max(v.position) as hi
    from fields f
    join warehouses w on w.id = f.warehouse_id
    join vaults v on v.field_id = f.id
    where f.company_id = ${companyId}
    group by f.id, f.col, f.row, f.type, w.field_capacity`.execute(db);
  for (const s of stacks.rows) {
    const name = `field ${fieldName(Number(s.col), Number(s.row))} (id ${s.field_id})`;
    const slots = fieldSlotCount(s.type, Number(s.field_capacity));
    const [n, lo, hi] = [Number(s.n), Number(s.lo), Number(s.hi)];
    if (n > slots) problems.push(`${name} holds ${n} vaults with ${slots} slots`);
    if (lo < 1 || hi > slots) problems.push(`${name} has positions ${lo}..${hi} outside 1..${slots}`);
    else if (hi !== slots || lo !== slots - n + 1)
      problems.push(`${name} has a hole: ${n} vaults at positions ${lo}..${hi} of ${slots}`);
  }

  const doubled = await sql<{ field_id: number; position: number; n: number }>`
    select field_id, position, count(*) as n from vaults
    where company_id = ${companyId} and field_id is not null
    group by field_id, position having count(*) > 1`.execute(db);
  for (const d of doubled.rows)
    problems.push(`field id ${d.field_id} has ${d.n} vaults in position ${d.position}`);

  const orphans = await sql<{ what: string; id: number }>`
    select 'vault in a missing or foreign field' as what, v.id from vaults v
      where v.company_id = ${companyId} and v.field_id is not null
        and not exists (select 1 from fields f where f.id = v.field_id and f.company_id = v.company_id)
    union all
    select 'vault half placed' as what, v.id from vaults v
      where v.company_id = ${companyId} and ((v.field_id is null) <> (v.position is null))
    union all
    select 'field of a missing warehouse' as what, f.id from fields f
      where f.company_id = ${companyId}
        and not exists (select 1 from warehouses w where w.id = f.warehouse_id and w.company_id = f.company_id)
    union all
    select 'field outside the grid' as what, f.id from fields f join warehouses w on w.id = f.warehouse_id
      where f.company_id = ${companyId} and (f.col < 1 or f.row < 1 or f.col > w.cols or f.row > w.rows)
    union all
    select 'shelf of a missing rack' as what, s.id from shelves s
      where s.company_id = ${companyId} and not exists (select 1 from racks r where r.id = s.rack_id)
    union all
    select 'pallet on a missing shelf' as what, p.id from pallets p
      where p.company_id = ${companyId} and not exists (select 1 from shelves s where s.id = p.shelf_id)`.execute(
    db,
  );
  for (const o of orphans.rows) problems.push(`${o.what}: id ${o.id}`);

  const grids = await sql<{ id: number; cells: number; expected: number }>`
    select w.id, (select count(*) from fields f where f.warehouse_id = w.id) as cells, w.rows * w.cols as expected
    from warehouses w where w.company_id = ${companyId}`.execute(db);
  for (const g of grids.rows) {
    if (Number(g.cells) !== Number(g.expected))
      problems.push(`warehouse ${g.id} has ${g.cells} fields for a grid of ${g.expected}`);
  }

  const halves = await sql<{ id: number; type: string }>`
    select t.id, t.type from fields t
    where t.company_id = ${companyId} and t.type = 'couchbox-T' and not exists (
      select 1 from fields b
      where b.warehouse_id = t.warehouse_id and b.col = t.col and b.row = t.row + 1 and b.type = 'couchbox-B')
    union all
    select b.id, b.type from fields b
    where b.company_id = ${companyId} and b.type = 'couchbox-B' and not exists (
      select 1 from fields t
      where t.warehouse_id = b.warehouse_id and t.col = b.col and t.row = b.row - 1 and t.type = 'couchbox-T')`.execute(
    db,
  );
  for (const h of halves.rows) problems.push(`field id ${h.id} is a ${h.type} without its other half`);

  const shelves = await sql<{ id: number; capacity: number; used: number; reach: number }>`
    select s.id, s.capacity, sum(p.shelf_spots) as used, max(p.slot_index + p.shelf_spots) as reach
    from shelves s join pallets p on p.shelf_id = s.id
    where s.company_id = ${companyId}
    group by s.id, s.capacity`.execute(db);
  for (const s of shelves.rows) {
    if (Number(s.used) > Number(s.capacity) || Number(s.reach) > Number(s.capacity))
      problems.push(`shelf ${s.id} uses ${s.used} spots reaching ${s.reach} of ${s.capacity}`);
  }
  const overlaps = await sql<{ a: number; b: number }>`
    select p.id as a, q.id as b from pallets p
    join pallets q on q.shelf_id = p.shelf_id and p.id < q.id
      and p.slot_index < q.slot_index + q.shelf_spots and q.slot_index < p.slot_index + p.shelf_spots
    where p.company_id = ${companyId}`.execute(db);
  for (const o of overlaps.rows) problems.push(`pallets ${o.a} and ${o.b} overlap`);

  // customers and orders nothing uses any more are removed with the last vault or pallet that used them
  const unused = await sql<{ what: string; name: string }>`
    select 'customer' as what, c.name from customers c
      where c.company_id = ${companyId}
        and not exists (select 1 from vaults v where v.customer_id = c.id)
        and not exists (select 1 from pallets p where p.customer_id = c.id)
    union all
    select 'order' as what, o.name from orders o
      where o.company_id = ${companyId} and not exists (select 1 from vaults v where v.order_id = o.id)`.execute(
    db,
  );
  for (const u of unused.rows) problems.push(`${u.what} ${u.name} is left without vaults or pallets`);

  // the counts the triggers of migration 0005 keep must equal a recount from the vaults themselves
  const counted = await sql<{
    id: number;
    kept: number | null;
    vault_count: number;
    real_count: number;
    empty_vault_count: number;
    empty_couchbox_count: number;
    n: number;
    r: number;
    ev: number;
    ec: number;
  }>`
    select w.id, s.warehouse_id as kept, s.vault_count, s.real_count, s.empty_vault_count, s.empty_couchbox_count,
      count(v.id) as n,
      coalesce(sum(case when v.id is null or upper(c.name) like '%EMPTY%' then 0 else 1 end), 0) as r,
      coalesce(sum(case when upper(c.name) like '%EMPTY%' and v.type = 'vault' then 1 else 0 end), 0) as ev,
      coalesce(sum(case when upper(c.name) like '%EMPTY%' and v.type = 'couchbox' then 1 else 0 end), 0) as ec
    from warehouses w
    left join (
      select warehouse_id, sum(vault_count) as vault_count, sum(real_count) as real_count,
        sum(empty_vault_count) as empty_vault_count, sum(empty_couchbox_count) as empty_couchbox_count
      from warehouse_stats group by warehouse_id
    ) s on s.warehouse_id = w.id
    left join fields f on f.warehouse_id = w.id
    left join vaults v on v.field_id = f.id
    left join customers c on c.id = v.customer_id
    where w.company_id = ${companyId}
    group by w.id, s.warehouse_id, s.vault_count, s.real_count, s.empty_vault_count, s.empty_couchbox_count`.execute(
    db,
  );
  for (const c of counted.rows) {
    if (c.kept === null) {
      problems.push(`warehouse ${c.id} has no kept counts`);
      continue;
    }
    const kept = [c.vault_count, c.real_count, c.empty_vault_count, c.empty_couchbox_count].map(Number);
    const recount = [c.n, c.r, c.ev, c.ec].map(Number);
    if (kept.join() !== recount.join())
      problems.push(
        `warehouse ${c.id} keeps counts ${kept.join('/')} but holds ${recount.join('/')} (vaults/real/empty vaults/empty couchboxes)`,
      );
  }

  const actives = await sql<{ warehouse_id: number; n: number }>`
    select warehouse_id, count(*) as n from checklists
    where company_id = ${companyId} and is_active = 1
    group by warehouse_id having count(*) > 1`.execute(db);
  for (const a of actives.rows) problems.push(`warehouse ${a.warehouse_id} has ${a.n} active checklists`);

  return problems;
}

/**
 * The stack rules only, over the whole database and in two grouped reads, cheap enough to run after every API test
 * (`useTestApp`): each field's vaults within its slots, standing on the floor and contiguous from there up (which also
 * catches two vaults in one slot), nothing in a couchbox's hidden lower half, and each unit in a field of its type
 * (decision 012: a couchbox only in a couchbox field; other types only in plain fields, except the empty placeholders
 * the field detail offers there).
 */
export async function findStackViolations(db: Db): Promise<string[]> {
  const problems: string[] = [];
  const stacks = await sql<{
    field_id: number;
    type: string;
    field_capacity: number;
    n: number;
    lo: number;
    hi: number;
  }>`
    select f.id as field_id, f.type, w.field_capacity,
           count(v.id) as n, min(v.position) as lo, max(v.position) as hi
    from vaults v
    join fields f on f.id = v.field_id
    join warehouses w on w.id = f.warehouse_id
    group by f.id, f.type, w.field_capacity`.execute(db);
  for (const s of stacks.rows) {
    const slots = fieldSlotCount(s.type, Number(s.field_capacity));
    const [n, lo, hi] = [Number(s.n), Number(s.lo), Number(s.hi)];
    if (n > slots || lo < 1 || hi > slots || hi !== slots || lo !== slots - n + 1)
      problems.push(
        `field id ${s.field_id} (${s.type}, ${slots} slots) holds ${n} vaults at positions ${lo}..${hi}`,
      );
  }
  const wrongType = await sql<{ id: number; type: string; field_id: number; field_type: string }>`
    select v.id, v.type, f.id as field_id, f.type as field_type
    from vaults v
    join fields f on f.id = v.field_id
    join customers c on c.id = v.customer_id
    where (v.type = 'couchbox' and f.type not in ('couchbox-T', 'couchbox'))
       or (v.type <> 'couchbox' and f.type in ('couchbox-T', 'couchbox') and upper(c.name) not like '%EMPTY%')`.execute(
    db,
  );
  for (const w of wrongType.rows)
    problems.push(
      `vault id ${w.id} of type ${w.type} stands in field id ${w.field_id} of type ${w.field_type}`,
    );
  return problems;
}

export interface VaultPlace {
  id: number;
  name: string | null;
  field_id: number | null;
  position: number | null;
}

/** Where the vaults with these ids are now; a vault missing from the answer is gone. */
export async function findVaultPlaces(db: Db, vaultIds: number[]): Promise<VaultPlace[]> {
  if (vaultIds.length === 0) return [];
  return db
    .selectFrom('vaults')
    .select(['id', 'name', 'field_id', 'position'])
    .where('id', 'in', vaultIds)
    .execute();
}

/** The vaults of one company with these numbers. */
export async function findVaultsNamed(db: Db, companyId: number, names: string[]): Promise<VaultPlace[]> {
  if (names.length === 0) return [];
  return db
    .selectFrom('vaults')
    .select(['id', 'name', 'field_id', 'position'])
    .where('company_id', '=', companyId)
    .where('name', 'in', names)
    .execute();
}

export async function findFieldTypes(db: Db, fieldIds: number[]): Promise<Map<number, string>> {
  if (fieldIds.length === 0) return new Map();
  const rows = await db.selectFrom('fields').select(['id', 'type']).where('id', 'in', fieldIds).execute();
  return new Map(rows.map((r) => [r.id, r.type]));
}

export async function findWarehouseShape(db: Db, warehouseId: number) {
  return db
    .selectFrom('warehouses')
    .select(['rows', 'cols', 'field_capacity'])
    .where('id', '=', warehouseId)
    .executeTakeFirst();
}

export async function findPalletIds(db: Db, shelfId: number): Promise<number[]> {
  const rows = await db.selectFrom('pallets').select('id').where('shelf_id', '=', shelfId).execute();
  return rows.map((r) => r.id);
}

export async function findActiveChecklistIds(db: Db, warehouseId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('checklists')
    .select('id')
    .where('warehouse_id', '=', warehouseId)
    .where('is_active', '=', 1)
    .execute();
  return rows.map((r) => r.id);
}

export async function rackExists(db: Db, rackId: number): Promise<boolean> {
  return (
    (await db.selectFrom('racks').select('id').where('id', '=', rackId).executeTakeFirst()) !== undefined
  );
}
