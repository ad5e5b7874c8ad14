import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { MAX_IMPORT_ROWS } from '@domain/rules/import-columns';
import { MAX_UPLOAD_BYTES } from '@domain/rules/capacity';
import { badRequest } from '../../http/errors';

/** One problem of one cell: its row as the spreadsheet numbers it (the header is row 1) and its column's header. */
export interface CellProblem {
  row: number;
  column: string;
  message: string;
}

/** A data row: its number in the spreadsheet and its cells as text, in the order of the headers. */
export interface SheetRow {
  row: number;
  cells: string[];
}

export interface Sheet {
  headers: string[];
  rows: SheetRow[];
  /** cells that cannot be read as text: formulas and dates */
  problems: CellProblem[];
}

export const NOT_A_SPREADSHEET =
  'The file is not a CSV or XLSX spreadsheet. Save it as .csv or .xlsx and try again.';
export const PROTECTED_OR_OLD_XLSX =
  'The spreadsheet is password-protected or in the old .xls format. Save it as .xlsx without a password (or as .csv) and try again.';
export const BROKEN_XLSX =
  'The XLSX file is damaged and cannot be read. Save it again from your spreadsheet program.';
export const NO_HEADER =
  'The file has no header row. The first row must name the columns (see the template).';
export const EMPTY_FILE = 'The file is empty.';
export const BROKEN_CSV = (row: number) =>
  `The CSV file cannot be read: a quote opened in row ${row} is never closed.`;
export const TOO_MANY_ROWS = `The file has more than ${MAX_IMPORT_ROWS.toLocaleString('en')} rows; split it into smaller files.`;
export const TOO_LARGE = `The file is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB; split it into smaller files.`;
export const FORMULA_CELL =
  "The cell holds a formula; paste its value instead (Paste Special > Values). A text starting with '=' needs an apostrophe before it.";
export const DATE_CELL =
  'The cell holds a date; the import reads text and numbers only. Format the column as text.';

const ZIP = [0x50, 0x4b, 0x03, 0x04];
// the Compound File header: .xls, and .xlsx saved with a password (Office wraps the encrypted package in one)
const COMPOUND_FILE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

const startsWith = (content: Buffer, magic: number[]) => magic.every((byte, i) => content[i] === byte);

/**
 * Reads the first sheet of an uploaded CSV or XLSX file, told apart by their bytes rather than their names. A refusal
 * of the whole file (not a spreadsheet, damaged, password-protected, too many rows) is a 400 with a readable message.
 */
export async function readSheet(content: Buffer): Promise<Sheet> {
  if (content.length === 0) throw badRequest(EMPTY_FILE);
  if (content.length > MAX_UPLOAD_BYTES) throw badRequest(TOO_LARGE);
  if (startsWith(content, ZIP)) return readXlsx(content);
  if (startsWith(content, COMPOUND_FILE)) throw badRequest(PROTECTED_OR_OLD_XLSX);
  return readCsv(decodeText(content));
}

/**
 * The text of a CSV file: UTF-8 with or without a byte-order mark, UTF-16 with one, and otherwise Windows-1252 (what
 * Excel on Windows writes as "CSV"). Bytes no text file holds (a NUL) mean it is not a CSV file at all.
 */
export function decodeText(content: Buffer): string {
  if (startsWith(content, [0xef, 0xbb, 0xbf])) return new TextDecoder('utf-8').decode(content.subarray(3));
  if (startsWith(content, [0xff, 0xfe])) return new TextDecoder('utf-16le').decode(content.subarray(2));
  if (startsWith(content, [0xfe, 0xff])) return new TextDecoder('utf-16be').decode(content.subarray(2));
  if (content.includes(0)) throw badRequest(NOT_A_SPREADSHEET);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(content);
  } catch {
    return new TextDecoder('windows-1252').decode(content);
  }
}

/** Undoes the export's guard against CSV injection: `'=SUM(1)` was written for the text `=SUM(1)`. */
function unguard(text: string): string {
  return /^'[=+\-@\t\r]/.test(text) ? text.slice(1) : text;
}

/** A formula start before or after trimming: '=1+1' and '\t=cmd|...' alike. */
export function startsFormula(cell: string): boolean {
  return cell.startsWith('=') || cell.trim().startsWith('=');
}

function readCsv(text: string): Sheet {
  const sheet: Sheet = { headers: [], rows: [], problems: [] };
  let record = 0;
  let unclosed: number | null = null;
  Papa.parse<string[]>(text, {
    // comma, or the semicolon of European spreadsheets, or tabs: Papa Parse guesses from the first lines
    delimitersToGuess: [',', ';', '\t', '|'],
    skipEmptyLines: 'greedy',
    step: (result, parser) => {
      record += 1;
      for (const error of result.errors) if (error.type === 'Quotes') unclosed ??= record;
      const raw = result.data;
      const cells = raw.map((cell) => unguard(cell));
      if (record === 1) {
        sheet.headers = cells.map((c) => c.trim());
        return;
      }
      if (sheet.rows.length >= MAX_IMPORT_ROWS) {
        parser.abort();
        throw badRequest(TOO_MANY_ROWS);
      }
      const row = record;
      sheet.rows.push({ row, cells });
      // a text the export guarded ('=...) is text; a bare '=' starts a formula a spreadsheet program would run, also
      // behind leading blanks or a tab (cells are trimmed when read, which would bring it to the front)
      raw.forEach((cell, i) => {
        if (startsFormula(cell))
          sheet.problems.push({ row, column: sheet.headers[i] ?? `column ${i + 1}`, message: FORMULA_CELL });
      });
    },
  });
  if (unclosed !== null) throw badRequest(BROKEN_CSV(unclosed));
  if (record === 0) throw badRequest(EMPTY_FILE);
  checkHeaders(sheet.headers);
  return sheet;
}

function checkHeaders(headers: string[]): void {
  if (headers.every((h) => h === '')) throw badRequest(NO_HEADER);
}

type CellText = { text: string } | { problem: string };

/** One XLSX cell as text; numbers as the spreadsheet shows them without formatting. */
function xlsxCell(cell: ExcelJS.Cell): CellText {
  const value = cell.value;
  if (value === null || value === undefined) return { text: '' };
  if (value instanceof Date) return { problem: DATE_CELL };
  if (typeof value === 'string') return { text: value };
  if (typeof value === 'number' || typeof value === 'boolean') return { text: String(value) };
  if (typeof value === 'object') {
    if ('formula' in value || 'sharedFormula' in value) return { problem: FORMULA_CELL };
    if ('richText' in value) return { text: value.richText.map((part) => part.text).join('') };
    if ('text' in value && typeof value.text === 'string') return { text: value.text };
    if ('error' in value) return { text: '' };
  }
  return { text: String(value as unknown) };
}

async function readXlsx(content: Buffer): Promise<Sheet> {
  const sheet: Sheet = { headers: [], rows: [], problems: [] };
  let headerRow = 0;
  try {
    // streamed: the workbook's XML is read row by row, so a small file that unpacks into a huge sheet stops at the
    // row limit instead of filling the memory
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([content]), {
      sharedStrings: 'cache',
      styles: 'cache',
      hyperlinks: 'ignore',
      worksheets: 'emit',
      entries: 'emit',
    });
    for await (const worksheet of reader) {
      for await (const row of worksheet) {
        const cells: string[] = [];
        const width = Math.max(row.cellCount, headerRow === 0 ? 0 : sheet.headers.length);
        const problems: CellProblem[] = [];
        for (let i = 1; i <= width; i++) {
          const read = xlsxCell(row.getCell(i));
          if ('problem' in read) {
            cells.push('');
            problems.push({
              row: row.number,
              column: sheet.headers[i - 1] ?? `column ${i}`,
              message: read.problem,
            });
          } else cells.push(read.text);
        }
        if (headerRow === 0) {
          if (cells.every((c) => c.trim() === '')) continue;
          headerRow = row.number;
          sheet.headers = cells.map((c) => c.trim());
          continue;
        }
        if (cells.every((c) => c.trim() === '') && problems.length === 0) continue;
        if (sheet.rows.length >= MAX_IMPORT_ROWS) throw badRequest(TOO_MANY_ROWS);
        sheet.rows.push({ row: row.number, cells });
        sheet.problems.push(...problems);
      }
      // the first sheet only
      break;
    }
  } catch (error) {
    if (error instanceof Error && 'statusCode' in error) throw error;
    throw badRequest(BROKEN_XLSX);
  }
  if (headerRow === 0) throw badRequest(EMPTY_FILE);
  checkHeaders(sheet.headers);
  return sheet;
}
