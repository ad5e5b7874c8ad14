import { describe, expect, it } from 'vitest';
import { columnLetters, columnNumber, compareFieldNames, fieldName, parseFieldName } from './field-names';

describe('field names', () => {
  it('names columns as spreadsheets do', () => {
    expect([1, 2, 26, 27, 28, 30, 52, 53].map(columnLetters)).toEqual([
      'A',
      'B',
      'Z',
      'AA',
      'AB',
      'AD',
      'AZ',
      'BA',
    ]);
    for (let n = 1; n <= 800; n++) expect(columnNumber(columnLetters(n))).toBe(n);
    expect(() => columnLetters(0)).toThrow(RangeError);
  });

  it('joins letters and row numbers without padding', () => {
    expect(fieldName(3, 12)).toBe('C12');
    expect(parseFieldName('c12')).toEqual({ col: 3, row: 12 });
    expect(parseFieldName('AD7')).toEqual({ col: 30, row: 7 });
    expect(parseFieldName('12C')).toBeNull();
    expect(parseFieldName('A0')).toBeNull();
  });

  it('sorts naturally: by column (Z before AA), then by row (A2 before A10)', () => {
    const names = ['A10', 'AA1', 'B1', 'A2', 'Z3', 'A1'];
    expect([...names].sort(compareFieldNames)).toEqual(['A1', 'A2', 'A10', 'B1', 'Z3', 'AA1']);
  });
});
