import { describe, expect, it } from 'vitest';
import { fieldSlotCount, nextFreePosition, topmostPosition, warehouseCapacity } from './capacity';

describe('field capacity and slot order', () => {
  it('gives couchbox fields one more slot and the hidden bottom half none', () => {
    expect(fieldSlotCount('vault', 3)).toBe(3);
    expect(fieldSlotCount('couchbox-T', 3)).toBe(4);
    expect(fieldSlotCount('couchbox-B', 3)).toBe(0);
    expect(fieldSlotCount('vault', undefined)).toBe(3);
    expect(fieldSlotCount('vault', 0)).toBe(0);
  });

  it('fills from the highest position downward', () => {
    expect(nextFreePosition([], 3)).toBe(3);
    expect(nextFreePosition([3], 3)).toBe(2);
    expect(nextFreePosition([3, 2], 3)).toBe(1);
    expect(nextFreePosition([3, 2, 1], 3)).toBeNull();
    // a gap left by a delete is filled first
    expect(nextFreePosition([3, 1], 3)).toBe(2);
  });

  it('the topmost vault is at the lowest occupied position', () => {
    expect(topmostPosition([3, 2])).toBe(2);
    expect(topmostPosition([])).toBeNull();
  });

  it('warehouse capacity is rows x cols x field capacity', () => {
    expect(warehouseCapacity(12, 9, 3)).toBe(324);
  });
});
