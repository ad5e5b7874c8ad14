import { PassThrough, type Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { type CsvValue, toCsv } from '@domain/rules/csv';

export type SheetFormat = 'csv' | 'xlsx';

export const CONTENT_TYPES: Record<SheetFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** CSV text as Print Studio writes it: a byte-order mark (so spreadsheet programs read UTF-8), RFC 4180 lines. */
export function csvDocument(header: readonly string[], rows: readonly (readonly CsvValue[])[]): Buffer {
  return Buffer.from(`\uFEFF${toCsv(header, rows)}`, 'utf8');
}

/**
 * An XLSX workbook of one sheet, written by ExcelJS's streaming writer row by row straight into the answer. Texts are
 * stored as texts (never formulas, whatever they start with) and numbers as numbers.
 */
export function xlsxStream(
  sheetName: string,
  header: readonly string[],
  rows: Iterable<readonly CsvValue[]>,
): Readable {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: false,
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet(sheetName);
  void (async () => {
    try {
      sheet.addRow([...header]).commit();
      for (const row of rows)
        sheet.addRow(row.map((cell) => (cell === null || cell === undefined ? null : cell))).commit();
      sheet.commit();
      await workbook.commit();
    } catch (error) {
      out.destroy(error as Error);
    }
  })();
  return out;
}
