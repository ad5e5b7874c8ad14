import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from './csv';

describe('csvCell', () => {
  it('leaves plain text and numbers as they are', () => {
    expect(csvCell('KNOX')).toBe('KNOX');
    expect(csvCell(12)).toBe('12');
    expect(csvCell(-3)).toBe('-3');
  });

  it('writes null and undefined as empty cells', () => {
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });

  it('quotes commas, quotes and line breaks, doubling inner quotes', () => {
    expect(csvCell('Smith, John')).toBe('"Smith, John"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('line 1\nline 2')).toBe('"line 1\nline 2"');
    expect(csvCell('a\r\nb')).toBe('"a\r\nb"');
  });

  it('neutralises text a spreadsheet would run as a formula', () => {
    expect(csvCell('=SUM(A1:A2)')).toBe("'=SUM(A1:A2)");
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@cmd')).toBe("'@cmd");
    expect(csvCell('\tTAB')).toBe("'\tTAB");
    expect(csvCell('\rCR')).toBe('"\'\rCR"');
    expect(csvCell('=HYPERLINK("x","y")')).toBe('"\'=HYPERLINK(""x"",""y"")"');
  });

  it('leaves a negative amount written as text a number', () => {
    expect(csvCell('-10.00')).toBe('-10.00');
    expect(csvCell('-7')).toBe('-7');
    expect(csvCell('-10.00+1')).toBe("'-10.00+1");
    expect(csvCell('-1e3')).toBe("'-1e3");
  });

  it('does not touch formula characters inside the text', () => {
    expect(csvCell('A=B')).toBe('A=B');
    expect(csvCell('mail@example.test')).toBe('mail@example.test');
  });
});

describe('toCsv', () => {
  it('joins a header and rows with CRLF line ends', () => {
    expect(
      toCsv(
        ['A', 'B'],
        [
          ['1', null],
          ['x,y', 2],
        ],
      ),
    ).toBe('A,B\r\n1,\r\n"x,y",2\r\n');
  });

  it('answers only the header for no rows', () => {
    expect(toCsv(['Only'], [])).toBe('Only\r\n');
  });
});
