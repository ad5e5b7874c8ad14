import { describe, expect, it } from 'vitest';
import { digOutCount, digOutCounts } from './dig-out';

describe('digOutCount', () => {
  it('is zero for the topmost vault and counts every vault above the others', () => {
    const positions = [1, 2, 3];
    expect(digOutCount(1, positions)).toBe(0);
    expect(digOutCount(2, positions)).toBe(1);
    expect(digOutCount(3, positions)).toBe(2);
  });

  it('counts only vaults that are really there, so a gap above costs nothing', () => {
    expect(digOutCount(3, [3, 1])).toBe(1);
    expect(digOutCount(2, [2, 3])).toBe(0);
  });

  it('gives every placed vault of a field its count and skips staged ones', () => {
    const counts = digOutCounts([
      { id: 7, position: 3 },
      { id: 8, position: 2 },
      { id: 9, position: null },
    ]);
    expect(counts.get(7)).toBe(1);
    expect(counts.get(8)).toBe(0);
    expect(counts.has(9)).toBe(false);
  });
});
