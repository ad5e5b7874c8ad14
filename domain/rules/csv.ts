/** A value a CSV cell can hold; null and undefined become empty cells. */
export type CsvValue = string | number | boolean | null | undefined;

// Spreadsheet programs run a cell that starts with one of these as a formula (CSV injection).
const FORMULA_START = /^[=+\-@\t\r]/;
// a negative amount written as text ("-10.00"): a spreadsheet reads it as a number, never as a formula
const NEGATIVE_NUMBER = /^-\d+(\.\d+)?$/;

/** One cell, RFC 4180 quoted when needed and neutralised when a spreadsheet would read it as a formula. */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  // numbers are data, not formulas: "-3" from a number, or "-10.00" written as an amount, stays a negative number
  if (typeof value === 'string' && FORMULA_START.test(text) && !NEGATIVE_NUMBER.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A whole CSV document: header line, then one line per row, each ended by CRLF as RFC 4180 asks. */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  const lines = [header.map(csvCell).join(',')];
  for (const row of rows) lines.push(row.map(csvCell).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
