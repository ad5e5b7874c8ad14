import type { Db } from '../db/database';
import { HttpError } from '../http/errors';
import { describeProblems, findFileProblems } from './check-company-file';
import { newChecklistKey } from '../features/checklists/checklist-key';
import {
  type CompanyExport,
  EXPORT_FORMAT,
  EXPORT_VERSION,
  type Row,
  entityTable,
  TABLES,
  hasId,
  rulesOf,
} from './transfer-format';
import {
  type TenantTable,
  findCompany,
  findUsersByEmail,
  insertCompany,
  insertTenantRow,
  insertTenantRows,
  readSnapshot,
  selectTenantRows,
} from './transfer.repo';

export { type CompanyExport, EXPORT_FORMAT, EXPORT_VERSION } from './transfer-format';

/** An integrity constraint refused a write (PostgreSQL's class 23, SQLite's SQLITE_CONSTRAINT_*). */
function isConstraintViolation(error: unknown): boolean {
  const code = String((error as { code?: unknown } | null)?.code ?? '');
  return code.startsWith('23') || code.startsWith('SQLITE_CONSTRAINT');
}

type IdMaps = Map<TenantTable, Map<number, number>>;

export interface ExportOptions {
  /** called after each table is read, before the next; lets a test write in between */
  afterTable?: (table: TenantTable) => Promise<void>;
}

/** The table a reference column of the row points into, or undefined when the row has none for that column. */
function targetOf(table: TenantTable, column: string, row: Row): TenantTable | undefined {
  const rule = rulesOf(table)[column]!;
  return rule.kind === 'entity' ? entityTable(row.entity_type) : rule.table;
}

/**
 * A company's complete data, attachments included, read from one snapshot of the database so that it is consistent
 * however busy the database is. Ids are renumbered 1..n per table in the order of the original ids (references
 * follow), so two exports of the same data from different databases are identical. Only the columns of
 * TABLE_RULES are written, and the result passes the same checks as an import.
 */
export async function exportCompany(
  db: Db,
  companyName: string,
  options: ExportOptions = {},
): Promise<CompanyExport> {
  const problems: string[] = [];
  const data = await readSnapshot(db, async (snapshot) => {
    const company = await findCompany(snapshot, companyName);
    if (!company) throw new HttpError(404, [`No company named "${companyName}".`]);
    const maps: IdMaps = new Map();
    const tables = {} as Record<TenantTable, Row[]>;
    for (const table of TABLES) {
      const rules = rulesOf(table);
      const rows = await selectTenantRows(snapshot, table, company.id, Object.keys(rules));
      const ids = new Map<number, number>();
      rows.forEach((row, index) => ids.set(Number(row.id), index + 1));
      maps.set(table, ids);
      tables[table] = rows.map((row) => {
        const out: Row = {};
        for (const [column, rule] of Object.entries(rules)) {
          const value = row[column];
          if (rule.kind === 'id') out[column] = ids.get(Number(value));
          else if ((rule.kind === 'ref' || rule.kind === 'entity') && value !== null) {
            const target = targetOf(table, column, row);
            const renumbered = target ? maps.get(target)?.get(Number(value)) : undefined;
            // a soft reference may name what is gone; a foreign key cannot, unless it names another company's row
            if (renumbered === undefined && rule.kind === 'ref' && !rule.soft)
              problems.push(
                `${table} id ${String(row.id)}: ${column} ${String(value)} matches no ${target} row of this company`,
              );
            out[column] = renumbered ?? null;
          } else if (rule.kind === 'bytes') out[column] = Buffer.from(value as Uint8Array).toString('base64');
          else out[column] = value;
        }
        return out;
      });
      await options.afterTable?.(table);
    }
    return {
      format: EXPORT_FORMAT,
      version: EXPORT_VERSION,
      company: { name: company.name, created_at: company.created_at, locale: company.locale },
      tables,
    } satisfies CompanyExport;
  });
  if (problems.length === 0) problems.push(...findFileProblems(data));
  if (problems.length > 0)
    throw new HttpError(409, describeProblems(`The data of "${companyName}" cannot be exported`, problems));
  return data;
}

/**
 * Creates the exported company in this database. The file is checked first and refused with the list of its
 * problems; then it is written in one transaction, every row built from the allowed columns only and the company
 * id always this import's own. Refuses a company name or a user's email that is already taken.
 */
export async function importCompany(db: Db, data: unknown): Promise<{ companyId: number; rows: number }> {
  const problems = findFileProblems(data);
  if (problems.length > 0)
    throw new HttpError(400, describeProblems('The file was refused and nothing was written', problems));
  const file = data as CompanyExport;
  if (await findCompany(db, file.company.name)) {
    throw new HttpError(409, [`A company named "${file.company.name}" already exists in this database.`]);
  }
  const taken = await findUsersByEmail(
    db,
    file.tables.users.map((u) => String(u.email)),
  );
  if (taken.length > 0)
    throw new HttpError(409, [`These users already exist: ${taken.map((u) => u.email).join(', ')}.`]);

  const write = db.transaction().execute(async (trx) => {
    const { id: companyId } = await insertCompany(
      trx,
      file.company.name,
      file.company.created_at,
      file.company.locale,
    );
    const maps: IdMaps = new Map();
    let count = 0;
    for (const table of TABLES) {
      const ids = new Map<number, number>();
      maps.set(table, ids);
      // a table that came into the file later is absent from older files
      for (const row of file.tables[table] ?? []) {
        const values: Row = { company_id: companyId };
        for (const [column, rule] of Object.entries(rulesOf(table))) {
          const value = row[column] ?? null;
          if (rule.kind === 'id') continue;
          // a column a file written before it existed lacks takes the database's default
          if (value === null && rule.optional && !rule.nullable) continue;
          if ((rule.kind === 'ref' || rule.kind === 'entity') && value !== null) {
            // the checks proved that every reference names a row of the file, inserted before this one
            values[column] = maps.get(targetOf(table, column, row)!)!.get(value as number)!;
          } else if (rule.kind === 'bytes') values[column] = Buffer.from(value as string, 'base64');
          else values[column] = value;
        }
        // a checklist from a file without link keys gets a new one, so its fill-in link works at once
        if (table === 'checklists' && values.link_key === null) values.link_key = newChecklistKey();
        if (hasId(table)) ids.set(row.id as number, await insertTenantRow(trx, table, values));
        else await insertTenantRows(trx, table, [values]);
        count += 1;
      }
    }
    return { companyId, rows: count };
  });
  // what the checks cannot see (another import taking the name meanwhile, a second active checklist) rolls it all back
  return write.catch((error: unknown) => {
    if (!isConstraintViolation(error)) throw error;
    throw new HttpError(409, [
      `The database refused the file and nothing was written: ${error instanceof Error ? error.message : String(error)}`,
    ]);
  });
}
