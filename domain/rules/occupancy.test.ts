import { describe, expect, it } from 'vitest';
import { fieldFillLevel, occupancyColour, occupancyPercent, rackFillLevel } from './occupancy';
import { isPlaceholderName } from './placeholders';

describe('occupancy and colours', () => {
  it('colours a field by its fill (spec 4.1)', () => {
    expect(fieldFillLevel(0, 3, false)).toBe('empty');
    expect(fieldFillLevel(1, 3, false)).toBe('success');
    expect(fieldFillLevel(2, 3, false)).toBe('warning');
    expect(fieldFillLevel(3, 3, false)).toBe('full');
    expect(fieldFillLevel(0, 3, true)).toBe('full');
    expect(fieldFillLevel(2, 4, false)).toBe('success');
    expect(fieldFillLevel(3, 4, false)).toBe('warning');
  });

  it('counts only real vaults and never divides by zero', () => {
    expect(isPlaceholderName('EMPTY LIFTVAN')).toBe(true);
    expect(isPlaceholderName('KNOX')).toBe(false);
    expect(occupancyPercent(81, 324)).toBe(25);
    expect(occupancyPercent(5, 0)).toBe(0);
  });

  it('colours occupancy at 25, 50 and 75 percent', () => {
    expect([0, 24, 25, 49, 50, 74, 75, 100].map(occupancyColour)).toEqual([
      'green',
      'green',
      'yellow',
      'yellow',
      'orange',
      'orange',
      'red',
      'red',
    ]);
  });

  it('colours a rack by its fill ratio (spec 4.4)', () => {
    expect(rackFillLevel(0, 10)).toBe('success');
    expect(rackFillLevel(5, 10)).toBe('success');
    expect(rackFillLevel(6, 10)).toBe('warning');
    expect(rackFillLevel(10, 10)).toBe('full');
    expect(rackFillLevel(0, 0)).toBe('success');
  });
});
