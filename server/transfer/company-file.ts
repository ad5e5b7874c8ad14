import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { MAX_UPLOAD_BYTES } from '@domain/rules/capacity';
import { COMPANY_LOCALES, isCompanyLocale } from '@domain/rules/locale';
import type { Db } from '../db/database';
import { HttpError } from '../http/errors';
import { newChecklistKey } from '../features/checklists/checklist-key';
import { beginBulkVaultWrites, endBulkVaultWrites } from '../features/import/import.repo';
import { describeProblems, fileColumns, rowProblems, show } from './check-company-file';
import {
  ARCHIVE_VERSION,
  ArchiveDamaged,
  ArchiveWriter,
  IdSet,
  MANIFEST,
  type Manifest,
  type Member,
  REFERENCED_TABLES,
  SpoolFile,
  attachmentMember,
  lineSplitter,
  readArchive,
  readMember,
  tableMember,
} from './company-archive';
import {
  EXPORT_FORMAT,
  ROW_CHECKS,
  type Row,
  TABLES,
  LATER_TABLES,
  UNIQUE_KEYS,
  entityTable,
  hasId,
  invoiceCounterProblem,
  rulesOf,
} from './transfer-format';
import {
  type TenantTable,
  countTenantRows,
  findCompany,
  findUsersByEmail,
  insertCompany,
  insertTenantRow,
  insertTenantRows,
  allocateIds,
  isPostgres,
  readSnapshot,
  selectAttachmentContent,
  selectTenantPage,
  selectTenantRows,
} from './transfer.repo';

/** Rows read from the database at a time: a page is all the export holds of a table. */
const PAGE_ROWS = 1000;
/** Rows written by one insert statement (on PostgreSQL also of the tables others point into, their ids allocated first). */
const INSERT_BATCH = 200;
/** How many problems a check keeps in full; it counts the rest. */
export const KEPT_PROBLEMS = 1000;

export interface Progress {
  /** rows and attachments written so far */
  done: number;
  /** all of them, counted at the start of the snapshot */
  total: number;
}

export interface FileExportOptions {
  /** called after each table is read, before the next; lets a test write in between */
  afterTable?: (table: TenantTable) => Promise<void>;
  onProgress?: (progress: Progress) => void;
}

/** An integrity constraint refused a write (PostgreSQL's class 23, SQLite's SQLITE_CONSTRAINT_*). */
function isConstraintViolation(error: unknown): boolean {
  const code = String((error as { code?: unknown } | null)?.code ?? '');
  return code.startsWith('23') || code.startsWith('SQLITE_CONSTRAINT');
}

/** The table a reference column of the row points into, or undefined when the row has none for that column. */
function targetOf(table: TenantTable, column: string, row: Row): TenantTable | undefined {
  const rule = rulesOf(table)[column]!;
  return rule.kind === 'entity' ? entityTable(row.entity_type) : rule.table;
}

/**
 * Writes the company file of a company to `out`, streaming: every read is on one snapshot of the database, a table is
 * read a page at a time and spooled to a temporary file (a tar member's length comes first), attachments one at a
 * time. Ids are renumbered 1..n per table in the order of the original ids (references follow), and every member has
 * the same header fields, so the same data gives the same file on any database. Memory holds a page, one attachment
 * and the ids of the tables others point into (8 bytes each).
 */
export async function exportCompanyFile(
  db: Db,
  companyName: string,
  out: Writable,
  options: FileExportOptions = {},
): Promise<{ rows: number; attachments: number }> {
  const spoolDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wm-company-file-'));
  const writer = new ArchiveWriter(out);
  try {
    return await readSnapshot(db, async (snapshot) => {
      const company = await findCompany(snapshot, companyName);
      if (!company) throw new HttpError(404, [`No company named "${companyName}".`]);
      const counts = {} as Record<TenantTable, number>;
      let total = 0;
      for (const table of TABLES) {
        counts[table] = await countTenantRows(snapshot, table, company.id);
        total += counts[table] * (table === 'attachments' ? 2 : 1);
      }
      const progress = { done: 0, total };
      options.onProgress?.({ ...progress });
      const ids = new Map<TenantTable, IdSet>();
      const rows = {} as Record<TenantTable, number>;
      for (const table of TABLES) {
        const columns = fileColumns(table, true);
        const own = new IdSet();
        ids.set(table, own);
        const spool = new SpoolFile(path.join(spoolDir, `${table}.ndjson`));
        const keyed = hasId(table);
        let after = 0;
        for (;;) {
          const names = columns.map(([column]) => column);
          const page = keyed
            ? await selectTenantPage(snapshot, table, company.id, names, after, PAGE_ROWS)
            : // keyed by the company alone: one row at most
              await selectTenantRows(snapshot, table, company.id, names);
          for (const row of page) {
            const out: Row = {};
            if (keyed) own.add(Number(row.id));
            for (const [column, rule] of columns) {
              const value = row[column];
              if (rule.kind === 'id') out[column] = own.indexOf(Number(value)) + 1;
              else if ((rule.kind === 'ref' || rule.kind === 'entity') && value !== null) {
                const target = targetOf(table, column, row);
                const index = target ? (ids.get(target)?.indexOf(Number(value)) ?? -1) : -1;
                // a soft reference may name what is gone; a foreign key cannot, unless it names another company's row
                if (index < 0 && rule.kind === 'ref' && !rule.soft)
                  throw new HttpError(409, [
                    `The data of "${companyName}" cannot be exported: ${table} id ${String(row.id)}: ${column} ${String(value)} matches no ${target} row of this company`,
                  ]);
                out[column] = index < 0 ? null : index + 1;
              } else out[column] = value;
            }
            await spool.writeRow(out);
          }
          progress.done += page.length;
          options.onProgress?.({ ...progress });
          if (!keyed || page.length < PAGE_ROWS) break;
          after = Number(page[page.length - 1]!.id);
        }
        // only the tables others point into keep their ids
        if (!REFERENCED_TABLES.has(table) && table !== 'attachments') ids.set(table, new IdSet());
        rows[table] = spool.rows;
        await writer.addFile(tableMember(table), spool.file, await spool.close());
        fs.rmSync(spool.file);
        if (table === 'attachments') {
          for (let index = 0; index < own.size; index += 1) {
            const content = await selectAttachmentContent(snapshot, company.id, own.idAt(index));
            await writer.addBuffer(attachmentMember(index + 1), content);
            progress.done += 1;
            options.onProgress?.({ ...progress });
          }
        }
        await options.afterTable?.(table);
      }
      const manifest: Manifest = {
        format: EXPORT_FORMAT,
        version: ARCHIVE_VERSION,
        company: { name: company.name, created_at: company.created_at, locale: company.locale },
        rows,
        members: writer.members,
      };
      await writer.addBuffer(MANIFEST, Buffer.from(JSON.stringify(manifest, null, 1)), false);
      await writer.finish();
      return {
        rows: Object.values(rows).reduce((sum, n) => sum + n, 0),
        attachments: rows.attachments,
      };
    });
  } catch (error) {
    writer.destroy(error as Error);
    throw error;
  } finally {
    fs.rmSync(spoolDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Checking a company file: everything the import needs to know, read once, without a database.

export interface FileCheck {
  /** what is wrong, member and line first; empty when the import can take the file */
  problems: string[];
  /** problems found beyond the KEPT_PROBLEMS listed */
  unlisted: number;
  manifest: Manifest | null;
  rows: number;
  emails: string[];
}

const MEMBER_ORDER = new Map(TABLES.map((table, index) => [tableMember(table), index]));

/**
 * Reads a company file from beginning to end and lists what is wrong with it, row by row: the members against the
 * manifest (each one present, its SHA-256 and length, nothing extra), every row as the import checks it (the allowed
 * columns only, types, constraints within the row, unique ids and values, every reference naming a row of an
 * earlier member), and each attachment's bytes against its row (length, the upload limit). Memory holds the ids of
 * the tables others point into, one table's unique values and the attachments' lengths.
 */
export async function checkCompanyFile(file: string): Promise<FileCheck> {
  const problems: string[] = [];
  let unlisted = 0;
  const report = (problem: string) => {
    if (problems.length < KEPT_PROBLEMS) problems.push(problem);
    else unlisted += 1;
  };
  const ids = new Map<TenantTable, IdSet>(TABLES.map((table) => [table, new IdSet()]));
  const counted = new Map<TenantTable, number>();
  const hashes = new Map<string, { sha256: string; bytes: number }>();
  const attachmentSizes = new Map<number, number>();
  const attachmentsSeen = new Set<number>();
  const emails: string[] = [];
  let manifest: Manifest | null = null;
  let manifestRead = false;
  let lastTable = -1;
  let rows = 0;
  let highestInvoice = 0;
  let nextInvoice: number | undefined;

  const checkTable = async (member: Member, table: TenantTable) => {
    const order = MEMBER_ORDER.get(member.name)!;
    if (order <= lastTable)
      report(`${member.name}: comes after a table that follows it (${TABLES.join(', ')})`);
    lastTable = Math.max(lastTable, order);
    const own = ids.get(table)!;
    const keys = (UNIQUE_KEYS[table] ?? []).map((key) => ({ key, first: new Map<string, number>() }));
    let count = 0;
    const lines = lineSplitter((text, number) => {
      if (text.trim() === '') return;
      count += 1;
      const where = `${member.name} line ${number}`;
      let row: unknown;
      try {
        row = JSON.parse(text);
      } catch {
        report(`${where}: not a JSON object (the line is damaged)`);
        return;
      }
      if (typeof row !== 'object' || row === null || Array.isArray(row)) {
        report(`${where}: must be an object, found ${show(row)}`);
        return;
      }
      const values = row as Row;
      const label = Number.isSafeInteger(values.id) ? `${where} (id ${String(values.id)})` : where;
      const own_problems = rowProblems(table, values, true);
      for (const problem of own_problems) report(`${label}: ${problem}`);
      if (Number.isSafeInteger(values.id) && !own.add(values.id as number))
        report(`${label}: the id ${String(values.id)} appears twice in ${table}`);
      if (own_problems.length > 0) return;
      for (const [column, rule] of fileColumns(table, true)) {
        const value = values[column];
        if (!Number.isSafeInteger(value) || (rule.kind !== 'ref' && rule.kind !== 'entity')) continue;
        const target = targetOf(table, column, values);
        if (!target) {
          report(`${label}: entity_id must be null for entity_type ${show(values.entity_type)}`);
          continue;
        }
        if (!ids.get(target)!.has(value as number))
          report(`${label}: ${column} ${String(value)} matches no ${target} row of the file`);
      }
      for (const { key, first } of keys) {
        const parts = key.map((column) => values[column]);
        if (parts.some((v) => v === null || v === undefined)) continue;
        const joined = JSON.stringify(parts);
        const earlier = first.get(joined);
        if (earlier !== undefined)
          report(
            `${label}: ${key.join(' + ')} ${parts.map(show).join(' + ')} is already used by line ${earlier}`,
          );
        else first.set(joined, number);
      }
      const broken = ROW_CHECKS[table]?.(values);
      if (broken) report(`${label}: ${broken}`);
      if (table === 'attachments') {
        const size = values.size as number;
        if (size > MAX_UPLOAD_BYTES)
          report(`${label}: size ${size} is over the upload limit of ${MAX_UPLOAD_BYTES} bytes`);
        attachmentSizes.set(values.id as number, size);
      }
      if (table === 'users') emails.push(String(values.email));
      if (table === 'invoices' && Number.isSafeInteger(values.number))
        highestInvoice = Math.max(highestInvoice, values.number as number);
      if (table === 'billing_settings') nextInvoice = values.next_invoice_number as number;
    });
    hashes.set(member.name, await readMember(member, (chunk) => lines.push(chunk)));
    await lines.end();
    counted.set(table, count);
    if (!hasId(table) && count > 1) report(`${member.name}: holds ${count} rows, a company has one at most`);
    rows += count;
  };

  const checkAttachment = async (member: Member) => {
    const id = Number(member.name.slice('attachments/'.length));
    if (!Number.isSafeInteger(id) || String(id) !== member.name.slice('attachments/'.length)) {
      report(`${member.name}: not a member of a company file`);
      return;
    }
    if (!counted.has('attachments'))
      report(`${member.name}: comes before ${tableMember('attachments')}, which lists the attachments`);
    const expected = attachmentSizes.get(id);
    if (expected === undefined) report(`${member.name}: matches no row of ${tableMember('attachments')}`);
    else if (expected !== member.size)
      report(
        `${member.name}: holds ${member.size} bytes, its row in ${tableMember('attachments')} says ${expected}`,
      );
    if (member.size > MAX_UPLOAD_BYTES)
      report(`${member.name}: ${member.size} bytes is over the upload limit of ${MAX_UPLOAD_BYTES} bytes`);
    attachmentsSeen.add(id);
    hashes.set(member.name, await readMember(member));
  };

  try {
    await readArchive(file, async (member) => {
      if (manifestRead) report(`${member.name}: comes after ${MANIFEST}, which closes a company file`);
      if (hashes.has(member.name) || (member.name === MANIFEST && manifestRead)) {
        report(`${member.name}: appears twice in the archive`);
        return;
      }
      if (member.type !== 'file')
        report(`${member.name}: is a ${member.type}, a company file holds only files`);
      else if (member.name === MANIFEST) {
        manifestRead = true;
        let text = '';
        await readMember(member, (chunk) => {
          text += chunk.toString('utf8');
        });
        manifest = parseManifest(text, report);
      } else if (MEMBER_ORDER.has(member.name))
        await checkTable(member, TABLES[MEMBER_ORDER.get(member.name)!]!);
      else if (member.name.startsWith('attachments/')) await checkAttachment(member);
      else report(`${member.name}: not a member of a company file`);
    });
  } catch (error) {
    if (!(error instanceof ArchiveDamaged)) throw error;
    report(`The file is damaged: ${error.message}.`);
    return { problems, unlisted, manifest: null, rows, emails };
  }

  if (!manifestRead) report(`${MANIFEST} is missing (the file is cut short, or it is not a company file)`);
  const listed: Manifest | null = manifest;
  if (listed) {
    const members = (listed as Manifest).members;
    for (const [name, expected] of Object.entries(members)) {
      const found = hashes.get(name);
      if (!found) report(`${name}: missing from the archive (the manifest lists it)`);
      else if (found.sha256 !== expected.sha256 || found.bytes !== expected.bytes)
        report(
          `${name}: damaged (its SHA-256 is ${found.sha256} over ${found.bytes} bytes, the manifest says ${String(expected.sha256)} over ${String(expected.bytes)})`,
        );
    }
    for (const name of hashes.keys())
      if (!Object.hasOwn(members, name)) report(`${name}: not listed in the manifest`);
    for (const table of TABLES) {
      const expected = (listed as Manifest).rows[table];
      const found = counted.get(table);
      if (found !== undefined && expected !== found)
        report(`${tableMember(table)}: holds ${found} rows, the manifest says ${show(expected)}`);
    }
  }
  const counter = invoiceCounterProblem(highestInvoice, nextInvoice);
  if (counter) report(counter);
  for (const table of TABLES)
    if (
      !counted.has(table) &&
      !LATER_TABLES.has(table) &&
      !(listed && Object.hasOwn((listed as Manifest).members, tableMember(table)))
    )
      report(`${tableMember(table)}: missing from the archive (a company file lists every table)`);
  for (const id of attachmentSizes.keys())
    if (!attachmentsSeen.has(id))
      report(
        `${attachmentMember(id)}: missing from the archive (row id ${id} of ${tableMember('attachments')} names it)`,
      );
  return { problems, unlisted, manifest: listed, rows, emails };
}

function parseManifest(text: string, report: (problem: string) => void): Manifest | null {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    report(`${MANIFEST}: not JSON (the member is damaged)`);
    return null;
  }
  const m = data as Partial<Manifest> | null;
  if (typeof m !== 'object' || m === null || m.format !== EXPORT_FORMAT) {
    report(`${MANIFEST}: not the manifest of a Warehouse Manager company file`);
    return null;
  }
  if (m.version !== ARCHIVE_VERSION) {
    report(
      `${MANIFEST}: version ${show(m.version)}; this version of the app reads version ${ARCHIVE_VERSION}`,
    );
    return null;
  }
  const company = m.company as Row | undefined;
  if (typeof company?.name !== 'string' || company.name.trim() === '')
    report(`${MANIFEST}: company name must be text, found ${show(company?.name)}`);
  if (typeof company?.created_at !== 'string' || Number.isNaN(Date.parse(company.created_at)))
    report(`${MANIFEST}: company created_at must be a date and time, found ${show(company?.created_at)}`);
  // files written before the company had a locale have none: the company gets the default
  if (company?.locale !== undefined && !isCompanyLocale(company.locale))
    report(
      `${MANIFEST}: company locale must be one of ${COMPANY_LOCALES.join(', ')}, found ${show(company.locale)}`,
    );
  if (typeof m.members !== 'object' || m.members === null || typeof m.rows !== 'object' || m.rows === null) {
    report(`${MANIFEST}: lists no members or rows`);
    return null;
  }
  return m as Manifest;
}

/** The check's refusal as it is shown, numbered, at most MAX_LISTED_PROBLEMS of them. */
function refusal(check: FileCheck): HttpError {
  return new HttpError(
    400,
    describeProblems('The file was refused and nothing was written', check.problems, check.unlisted),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Importing: the check first, then every row in one transaction.

/**
 * Creates the company of a company file in this database: reads the file once to check it (nothing is written when
 * anything is wrong, and the refusal lists the problems member by member), then again to write it in one
 * transaction, every row built from the allowed columns only and the company id always this import's own. Memory
 * holds the new ids of the tables others point into and the attachments' rows until their bytes come.
 */
export async function importCompanyFile(db: Db, file: string): Promise<{ companyId: number; rows: number }> {
  const check = await checkCompanyFile(file);
  if (check.problems.length > 0 || !check.manifest) throw refusal(check);
  const company = check.manifest.company;
  if (await findCompany(db, company.name))
    throw new HttpError(409, [`A company named "${company.name}" already exists in this database.`]);
  const taken = await findUsersByEmail(db, check.emails);
  if (taken.length > 0)
    throw new HttpError(409, [`These users already exist: ${taken.map((u) => u.email).join(', ')}.`]);

  const write = db.transaction().execute(async (trx) => {
    const { id: companyId } = await insertCompany(trx, company.name, company.created_at, company.locale);
    const maps = new Map<TenantTable, Map<number, number>>();
    const pendingAttachments = new Map<number, Row>();
    // a row at a time costs a round trip on PostgreSQL, nothing on SQLite (in the process)
    const batchIds = isPostgres(trx);
    // PostgreSQL: the per-row counting and revision triggers are off for this transaction, and the warehouses are
    // counted once at the end (migrations 0009 and 0041); a row-by-row count made the import slow down as it grew
    await beginBulkVaultWrites(trx);
    let count = 0;
    await readArchive(file, async (member) => {
      if (member.name.startsWith('attachments/')) {
        const id = Number(member.name.slice('attachments/'.length));
        const parts: Buffer[] = [];
        await readMember(member, (chunk) => {
          parts.push(chunk);
        });
        const values = pendingAttachments.get(id)!;
        pendingAttachments.delete(id);
        await insertTenantRow(trx, 'attachments', { ...values, content: Buffer.concat(parts) });
        return;
      }
      const index = MEMBER_ORDER.get(member.name);
      if (index === undefined) return;
      const table = TABLES[index]!;
      const ids = new Map<number, number>();
      maps.set(table, ids);
      const keepIds = REFERENCED_TABLES.has(table);
      let idPool: number[] = [];
      // the rows of the table still to come (the check matched the manifest's counts): no id is taken in vain
      let toCome = check.manifest!.rows[table] ?? 0;
      let batch: Row[] = [];
      let shape = '';
      const flush = async () => {
        await insertTenantRows(trx, table, batch);
        batch = [];
      };
      const lines = lineSplitter(async (text) => {
        if (text.trim() === '') return;
        const row = JSON.parse(text) as Row;
        const values: Row = { company_id: companyId };
        for (const [column, rule] of fileColumns(table, true)) {
          const value = row[column] ?? null;
          if (rule.kind === 'id') continue;
          // a column a file written before it existed lacks takes the database's default
          if (value === null && rule.optional && !rule.nullable) continue;
          if ((rule.kind === 'ref' || rule.kind === 'entity') && value !== null)
            // the check proved that every reference names a row of an earlier member
            values[column] = maps.get(targetOf(table, column, row)!)!.get(value as number)!;
          else values[column] = value;
        }
        if (table === 'checklists' && values.link_key === null) values.link_key = newChecklistKey();
        count += 1;
        if (table === 'attachments') pendingAttachments.set(row.id as number, values);
        else if (keepIds && !batchIds) ids.set(row.id as number, await insertTenantRow(trx, table, values));
        else {
          if (keepIds) {
            // PostgreSQL: the row's id is taken now from the identity, so later rows (of this table too, a credit
            // note's invoice) can point to it before its batch is written
            if (idPool.length === 0)
              idPool = (await allocateIds(trx, table, Math.max(1, Math.min(INSERT_BATCH, toCome)))).reverse();
            toCome -= 1;
            values.id = idPool.pop()!;
            ids.set(row.id as number, values.id as number);
          }
          const keys = Object.keys(values).join();
          if (keys !== shape || batch.length >= INSERT_BATCH) await flush();
          shape = keys;
          batch.push(values);
        }
      });
      await readMember(member, (chunk) => lines.push(chunk));
      await lines.end();
      await flush();
    });
    await endBulkVaultWrites(trx, companyId, [...(maps.get('warehouses')?.values() ?? [])], true);
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
