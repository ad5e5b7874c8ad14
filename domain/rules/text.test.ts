import { describe, expect, it } from 'vitest';
import { sameChecklistWarehouse, truncate, warehouseNameFromChecklistSlug, warehouseSlug } from './text';

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
