import { COMPANY_LOCALES, isCompanyLocale } from '@domain/rules/locale';
import type { TenantTable } from './transfer.repo';
import {
  type ColumnRule,
  entityTable,
  EXPORT_FORMAT,
  EXPORT_VERSION,
  LATER_TABLES,
  ROW_CHECKS,
  type Row,
  TABLES,
  UNIQUE_KEYS,
  hasId,
  invoiceCounterProblem,
  rulesOf,
} from './transfer-format';

/** How many problems a refusal lists before it only counts the rest. */
export const MAX_LISTED_PROBLEMS = 50;

/**
 * Whether the text is canonical base64, told by decoding it and encoding the bytes again: linear in the text's length
 * and without a regular expression, whose backtracking over a 4 MB attachment overflowed the stack (issue 25).
 */
export function isBase64(text: string): boolean {
  return text.length % 4 === 0 && Buffer.from(text, 'base64').toString('base64') === text;
}

const isObject = (value: unknown): value is Row =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const show = (value: unknown) => (value === undefined ? 'nothing' : JSON.stringify(value));

function typeProblem(rule: ColumnRule, value: unknown): string | null {
  switch (rule.kind) {
    case 'id':
    case 'ref':
    case 'entity':
      return Number.isSafeInteger(value) && (value as number) >= 1 ? null : 'a positive whole number';
    case 'integer':
      return Number.isSafeInteger(value) ? null : 'a whole number';
    case 'real':
      return typeof value === 'number' && Number.isFinite(value) ? null : 'a number';
    case 'flag':
      return value === 0 || value === 1 ? null : '0 or 1';
    case 'text':
      if (rule.values)
        return rule.values.includes(value as string) ? null : `one of ${rule.values.join(', ')}`;
      return typeof value === 'string' ? null : 'text';
    case 'timestamp':
      return typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? null : 'a date and time';
    case 'bytes':
      return typeof value === 'string' && isBase64(value) ? null : 'base64 text';
  }
}

/** The columns a row of the table holds in a file; a company file (version 2) keeps the bytes as members of their own. */
export function fileColumns(table: TenantTable, bytesApart = false): [string, ColumnRule][] {
  return Object.entries(rulesOf(table)).filter(([, rule]) => !bytesApart || rule.kind !== 'bytes');
}

/**
 * What is wrong with one row on its own: keys, values and their types, the constraints within the row. With
 * `bytesApart` (a company file of version 2) the row holds no bytes column; its bytes are checked as their member.
 */
export function rowProblems(table: TenantTable, row: Row, bytesApart = false): string[] {
  const columns = fileColumns(table, bytesApart);
  const problems: string[] = [];
  for (const key of Object.keys(row))
    if (!columns.some(([column]) => column === key))
      problems.push(
        `unknown key "${key}" (a ${table} row holds only ${columns.map(([column]) => column).join(', ')})`,
      );
  for (const [column, rule] of columns) {
    if (!Object.hasOwn(row, column)) {
      if (!rule.optional) problems.push(`${column} is missing`);
    } else if (row[column] === null) {
      if (!rule.nullable) problems.push(`${column} is required, found null`);
    } else {
      const wanted = typeProblem(rule, row[column]);
      if (wanted) problems.push(`${column} must be ${wanted}, found ${show(row[column])}`);
    }
  }
  if (problems.length > 0) return problems;
  if (table === 'attachments' && !bytesApart) {
    const length = Buffer.from(row.content as string, 'base64').length;
    if (row.size !== length) problems.push(`size is ${show(row.size)} but content holds ${length} bytes`);
  }
  const broken = ROW_CHECKS[table]?.(row);
  if (broken) problems.push(broken);
  return problems;
}

/**
 * Everything wrong with a company file, as readable lines; empty when the import can take it. Checks the shape
 * (allowed keys only, every value present with the right type), unique ids, and that every reference resolves to a
 * row of the same file, so that the import never needs a value from outside the file.
 */
export function findFileProblems(data: unknown): string[] {
  if (!isObject(data) || data.format !== EXPORT_FORMAT)
    return ['This file is not a Warehouse Manager company export.'];
  if (data.version !== EXPORT_VERSION)
    return [
      `This file has export version ${show(data.version)}; this version of the app reads version ${EXPORT_VERSION}.`,
    ];

  const problems: string[] = [];
  for (const key of Object.keys(data))
    if (!['format', 'version', 'company', 'tables'].includes(key))
      problems.push(`unknown key "${key}" at the top of the file`);
  const company = data.company;
  if (!isObject(company)) problems.push('company: missing (it holds the name and created_at)');
  else {
    if (typeof company.name !== 'string' || company.name.trim() === '')
      problems.push(`company: name must be text, found ${show(company.name)}`);
    if (typeof company.created_at !== 'string' || Number.isNaN(Date.parse(company.created_at)))
      problems.push(`company: created_at must be a date and time, found ${show(company.created_at)}`);
    // files written before the company had a locale have none: the company gets the default
    if (company.locale !== undefined && !isCompanyLocale(company.locale))
      problems.push(
        `company: locale must be one of ${COMPANY_LOCALES.join(', ')}, found ${show(company.locale)}`,
      );
    for (const key of Object.keys(company))
      if (!['name', 'created_at', 'locale'].includes(key)) problems.push(`company: unknown key "${key}"`);
  }
  const tables = data.tables;
  if (!isObject(tables)) return [...problems, 'tables: missing'];
  for (const key of Object.keys(tables))
    if (!(TABLES as string[]).includes(key)) problems.push(`tables: unknown table "${key}"`);

  // first pass: every row's own shape, and the ids each table offers to references
  const ids = new Map<TenantTable, Set<number>>();
  const rowsOf = new Map<TenantTable, { row: Row; label: string }[]>();
  for (const table of TABLES) {
    const rows = tables[table];
    const seen = new Set<number>();
    ids.set(table, seen);
    if (!Array.isArray(rows)) {
      // files written before a table travelled have none of its rows
      if (rows !== undefined || !LATER_TABLES.has(table))
        problems.push(`tables.${table}: missing (an export lists every table, empty ones as [])`);
      continue;
    }
    if (!hasId(table) && rows.length > 1)
      problems.push(`tables.${table}: holds ${rows.length} rows, a company has one at most`);
    const kept: { row: Row; label: string }[] = [];
    rows.forEach((row: unknown, index) => {
      const where = `${table} row ${index + 1}`;
      if (!isObject(row)) {
        problems.push(`${where}: must be an object, found ${show(row)}`);
        return;
      }
      const label = Number.isSafeInteger(row.id) ? `${where} (id ${String(row.id)})` : where;
      problems.push(...rowProblems(table, row).map((problem) => `${label}: ${problem}`));
      if (Number.isSafeInteger(row.id)) {
        if (seen.has(row.id as number))
          problems.push(`${label}: the id ${String(row.id)} appears twice in ${table}`);
        seen.add(row.id as number);
      }
      kept.push({ row, label });
    });
    rowsOf.set(table, kept);
  }

  const numbers = (rowsOf.get('invoices') ?? []).map(({ row }) => row.number);
  const settings = rowsOf.get('billing_settings')?.[0]?.row;
  const counter = invoiceCounterProblem(
    numbers.reduce<number>(
      (highest, n) => (Number.isSafeInteger(n) ? Math.max(highest, n as number) : highest),
      0,
    ),
    Number.isSafeInteger(settings?.next_invoice_number)
      ? (settings!.next_invoice_number as number)
      : undefined,
  );
  if (counter) problems.push(counter);

  // second pass: references and unique values
  for (const table of TABLES) {
    const rows = rowsOf.get(table) ?? [];
    for (const { row, label } of rows) {
      for (const [column, rule] of Object.entries(rulesOf(table))) {
        const value = row[column];
        if (!Number.isSafeInteger(value)) continue;
        let target = rule.table;
        if (rule.kind === 'entity') {
          target = entityTable(row.entity_type);
          if (!target) {
            problems.push(`${label}: entity_id must be null for entity_type ${show(row.entity_type)}`);
            continue;
          }
        }
        if (target && !ids.get(target)!.has(value as number))
          problems.push(`${label}: ${column} ${String(value)} matches no ${target} row of the file`);
      }
    }
    for (const key of UNIQUE_KEYS[table] ?? []) {
      const first = new Map<string, string>();
      for (const { row, label } of rows) {
        const values = key.map((column) => row[column]);
        if (values.some((v) => v === null || v === undefined)) continue;
        const joined = JSON.stringify(values);
        const earlier = first.get(joined);
        if (earlier)
          problems.push(
            `${label}: ${key.join(' + ')} ${values.map(show).join(' + ')} is already used by ${earlier}`,
          );
        else first.set(joined, label);
      }
    }
  }
  return problems;
}

/**
 * A refusal as it is shown: a heading, the problems numbered (at most MAX_LISTED_PROBLEMS), then how many more;
 * `uncounted` are problems found but not kept.
 */
export function describeProblems(heading: string, problems: string[], uncounted = 0): string[] {
  const listed = problems.slice(0, MAX_LISTED_PROBLEMS).map((problem, index) => `${index + 1}. ${problem}`);
  const rest = problems.length + uncounted - listed.length;
  const all = problems.length + uncounted;
  return [
    `${heading} (${all} ${all === 1 ? 'problem' : 'problems'}):`,
    ...listed,
    ...(rest > 0 ? [`and ${rest} more`] : []),
  ];
}
