import { naturalCompare } from './text';
/** Column letters as spreadsheets use them: 1 -> A, 26 -> Z, 27 -> AA. */
export function columnLetters(col: number): string {
  if (!Number.isInteger(col) || col < 1)
    throw new RangeError(`column must be a positive integer, got ${col}`);
  let letters = '';
  let n = col;
  while (n > 0) {
    const rem = (n - 1) % 26;
    letters = String.fromCharCode(65 + rem) + letters;
    n = Math.floor((n - 1) / 26);
  }
  return letters;
}

export function columnNumber(letters: string): number {
  if (!/^[A-Z]+$/.test(letters)) throw new RangeError(`not column letters: ${letters}`);
  let n = 0;
  for (const ch of letters) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

export function fieldName(col: number, row: number): string {
  return `${columnLetters(col)}${row}`;
}

export interface ParsedFieldName {
  col: number;
  row: number;
}

export function parseFieldName(name: string): ParsedFieldName | null {
  const match = /^([A-Z]+)(\d+)$/.exec(name.trim().toUpperCase());
  if (!match) return null;
  const row = Number(match[2]);
  if (row < 1) return null;
  return { col: columnNumber(match[1]!), row };
}

/** Natural order of field names: by column (Z < AA), then by row number (A2 < A10). */
export function compareFieldNames(a: string, b: string): number {
  const pa = parseFieldName(a);
  const pb = parseFieldName(b);
  if (!pa || !pb) return naturalCompare(a, b);
  return pa.col - pb.col || pa.row - pb.row;
}
