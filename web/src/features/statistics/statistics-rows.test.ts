import { describe, expect, it } from 'vitest';
import { statisticsRows } from './statistics-rows';

describe('statisticsRows', () => {
  it('answers the three metrics of spec 2.11 in order', () => {
    const rows = statisticsRows({
      warehouseCapacity: 12,
      stats: { vaultCount: 4, realVaultCount: 2, emptyVaultCount: 1, emptyCouchboxCount: 1 },
    });
    expect(rows).toEqual([
      { metric: 'Number of Potential Spaces', value: 8 },
      { metric: 'Number of Empty Vaults', value: 1 },
      { metric: 'Number of Empty Couchboxes', value: 1 },
    ]);
  });

  it('can go below zero when a couchbox slot exceeds the plain capacity', () => {
    const rows = statisticsRows({
      warehouseCapacity: 3,
      stats: { vaultCount: 4, realVaultCount: 4, emptyVaultCount: 0, emptyCouchboxCount: 0 },
    });
    expect(rows[0]!.value).toBe(-1);
  });
});
