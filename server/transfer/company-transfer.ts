import type { Db } from '../db/database';
import { HttpError } from '../http/errors';
import {
  type Row,
  type TenantTable,
  findCompany,
  findUsersByEmail,
  insertCompany,
  insertTenantRow,
  selectTenantRows,
} from './transfer.repo';

export const EXPORT_FORMAT = 'warehouse-manager-company';
export const EXPORT_VERSION = 1;

/** Tables in an order where every reference points backwards, with the columns that hold references. */
const TABLES: { table: TenantTable; refs: Record<string, TenantTable> }[] = [
  { table: 'users', refs: {} },
  { table: 'warehouses', refs: {} },
  { table: 'fields', refs: { warehouse_id: 'warehouses' } },
  { table: 'customers', refs: {} },
  { table: 'orders', refs: {} },
  { table: 'vaults', refs: { customer_id: 'customers', order_id: 'orders', field_id: 'fields' } },
  { table: 'attachments', refs: { vault_id: 'vaults' } },
  { table: 'racks', refs: { warehouse_id: 'warehouses' } },
  { table: 'shelves', refs: { rack_id: 'racks' } },
  { table: 'pallets', refs: { shelf_id: 'shelves', customer_id: 'customers' } },
  { table: 'checklists', refs: { warehouse_id: 'warehouses' } },
  { table: 'checklist_tasks', refs: { checklist_id: 'checklists' } },
  { table: 'events', refs: { user_id: 'users', warehouse_id: 'warehouses' } },
];

// an event names its subject by type; the subject may be gone (a deleted vault), then the reference becomes null
const EVENT_ENTITY_TABLE: Record<string, TenantTable> = {
  vault: 'vaults',
  field: 'fields',
  warehouse: 'warehouses',
  rack: 'racks',
  pallet: 'pallets',
  checklist: 'checklists',
};

export interface CompanyExport {
  format: typeof EXPORT_FORMAT;
  version: number;
  company: { name: string; created_at: string };
  tables: Record<TenantTable, Row[]>;
}

type IdMaps = Map<TenantTable, Map<number, number>>;

function remap(row: Row, table: TenantTable, refs: Record<string, TenantTable>, maps: IdMaps): Row {
  const out: Row = { ...row };
  for (const [column, target] of Object.entries(refs)) {
    const old = out[column];
    out[column] = old === null || old === undefined ? null : (maps.get(target)?.get(Number(old)) ?? null);
  }
  if (table === 'events') {
    const target = EVENT_ENTITY_TABLE[String(out.entity_type)];
    out.entity_id =
      target && out.entity_id !== null ? (maps.get(target)?.get(Number(out.entity_id)) ?? null) : null;
  }
  return out;
}

/**
 * A company's complete data, attachments included. Ids are renumbered 1..n per table (references follow), so two
 * exports of the same data from different databases are identical.
 */
export async function exportCompany(db: Db, companyName: string): Promise<CompanyExport> {
  const company = await findCompany(db, companyName);
  if (!company) throw new HttpError(404, [`No company named "${companyName}".`]);
  const maps: IdMaps = new Map();
  const tables = {} as Record<TenantTable, Row[]>;
  for (const { table, refs } of TABLES) {
    const rows = await selectTenantRows(db, table, company.id);
    const ids = new Map<number, number>();
    rows.forEach((row, index) => ids.set(Number(row.id), index + 1));
    maps.set(table, ids);
    tables[table] = rows.map((row) => {
      const { company_id: _company, ...rest } = remap(row, table, refs, maps);
      const out: Row = { ...rest, id: ids.get(Number(row.id)) };
      if (table === 'attachments') out.content = Buffer.from(row.content as Uint8Array).toString('base64');
      return out;
    });
  }
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    company: { name: company.name, created_at: company.created_at },
    tables,
  };
}

/** Creates the exported company in this database, in one transaction; refuses when its name or a user's email is taken. */
export async function importCompany(
  db: Db,
  data: CompanyExport,
): Promise<{ companyId: number; rows: number }> {
  if (data?.format !== EXPORT_FORMAT || data.version !== EXPORT_VERSION) {
    throw new HttpError(400, ['This file is not a Warehouse Manager company export.']);
  }
  if (await findCompany(db, data.company.name)) {
    throw new HttpError(409, [`A company named "${data.company.name}" already exists in this database.`]);
  }
  const taken = await findUsersByEmail(
    db,
    (data.tables.users ?? []).map((u) => String(u.email)),
  );
  if (taken.length > 0)
    throw new HttpError(409, [`These users already exist: ${taken.map((u) => u.email).join(', ')}.`]);

  return db.transaction().execute(async (trx) => {
    const { id: companyId } = await insertCompany(trx, data.company.name, data.company.created_at);
    const maps: IdMaps = new Map();
    let count = 0;
    for (const { table, refs } of TABLES) {
      const ids = new Map<number, number>();
      maps.set(table, ids);
      for (const row of data.tables[table] ?? []) {
        const { id: oldId, ...values } = remap(row, table, refs, maps);
        if (table === 'attachments') values.content = Buffer.from(String(row.content), 'base64');
        ids.set(Number(oldId), await insertTenantRow(trx, table, { ...values, company_id: companyId }));
        count += 1;
      }
    }
    return { companyId, rows: count };
  });
}
