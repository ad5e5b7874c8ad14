import { describe, expect, it } from 'vitest';
import {
  freeTextProblem,
  naturalCompare,
  nameProblem,
  sameChecklistWarehouse,
  truncate,
  warehouseNameFromChecklistSlug,
  warehouseSlug,
} from './text';

describe('text rules', () => {
  it('truncates with an ellipsis only when longer', () => {
    expect(truncate('ABCDEFGHIJKLMNOPQ', 15)).toBe('ABCDEFGHIJKLMNO...');
    expect(truncate('SHORT', 15)).toBe('SHORT');
    expect(truncate(null, 8)).toBe('');
  });

  it('turns warehouse names into URL slugs and back', () => {
    expect(warehouseSlug('Main  Warehouse ')).toBe('main-warehouse');
    expect(warehouseNameFromChecklistSlug('warehouse-1')).toBe('warehouse 1');
    expect(sameChecklistWarehouse('Warehouse-1', 'warehouse 1')).toBe(true);
    expect(sameChecklistWarehouse('Warehouse 2', 'warehouse 1')).toBe(false);
  });
});

describe('nameProblem and freeTextProblem', () => {
  it('refuse control characters, text-direction marks and the names . and ..', () => {
    for (const bad of [
      'a\u0000b',
      'esc\u001b',
      'c1\u0085',
      'invoice\u202Efdp.exe',
      'x\u2066y',
      'l\u200Er',
      'tab\tname',
    ])
      expect(nameProblem('Name', bad), JSON.stringify(bad)).toBe(
        'Name cannot contain control characters or text-direction marks.',
      );
    expect(nameProblem('Name', '.')).toBe('Name cannot be "." or "..".');
    expect(nameProblem('Name', ' .. ')).toBe('Name cannot be "." or "..".');
    for (const fine of ['Main A', 'Lager Süd', '倉庫 1', 'שלום', 'a.b', '...', 'O’Brien'])
      expect(nameProblem('Name', fine), fine).toBeNull();
  });

  it('free text keeps line breaks and tabs but not other control characters or direction marks', () => {
    expect(freeTextProblem('Note', 'line one\nline two\r\n\tindented')).toBeNull();
    expect(freeTextProblem('Note', 'bell\u0007')).not.toBeNull();
    expect(freeTextProblem('Note', 'abc\u202Edef')).not.toBeNull();
  });
});

describe('naturalCompare', () => {
  it('sorts names as movers read them: numbers by value, case aside, never a tie between different names', () => {
    expect(['10', '2', 'A-10', 'A-2', '1'].sort(naturalCompare)).toEqual(['1', '2', '10', 'A-2', 'A-10']);
    expect(['Warehouse 10', 'annex', 'Warehouse 2', 'Annex'].sort(naturalCompare)).toEqual([
      'Annex',
      'annex',
      'Warehouse 2',
      'Warehouse 10',
    ]);
    expect(naturalCompare('Annex', 'annex')).toBe(-naturalCompare('annex', 'Annex'));
    expect(naturalCompare('Annex', 'Annex')).toBe(0);
  });
});
