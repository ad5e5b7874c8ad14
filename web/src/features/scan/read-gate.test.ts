import { describe, expect, it } from 'vitest';
import { createReadGate, noteScan } from './read-gate';

describe('one read counted once on a scanning screen', () => {
  it('lets the same text through once within the window, and again after it', () => {
    const pass = createReadGate(1500);
    expect(pass('4242001', 10_000)).toBe(true);
    // the same read delivered a second time by another way
    expect(pass('4242001', 10_001)).toBe(false);
    expect(pass('4242001', 11_400)).toBe(false);
    expect(pass('4242001', 12_000)).toBe(true);
  });

  it('always lets a different text through', () => {
    const pass = createReadGate(1500);
    expect(pass('A1', 5_000)).toBe(true);
    expect(pass('4242001', 5_001)).toBe(true);
    expect(pass('A1', 5_002)).toBe(true);
  });

  it('gives every noted scan its own key, newest first, keeping the last few', () => {
    let list = noteScan([], 'first', true, 3);
    list = noteScan(list, 'second', false, 3);
    list = noteScan(list, 'third', true, 3);
    list = noteScan(list, 'fourth', true, 3);
    expect(list.map((s) => s.said)).toEqual(['fourth', 'third', 'second']);
    expect(new Set(list.map((s) => s.key)).size).toBe(3);
  });
});
