import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createThrottle } from './throttle';

describe('createThrottle', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs the first update at once and holds the rest of the window', () => {
    const seen: number[] = [];
    const throttle = createThrottle(100);
    throttle.run(() => seen.push(1));
    throttle.run(() => seen.push(2));
    throttle.run(() => seen.push(3));
    expect(seen).toEqual([1]);
    vi.advanceTimersByTime(99);
    expect(seen).toEqual([1]);
    vi.advanceTimersByTime(1);
    // only the latest of the held updates runs, when the window closes
    expect(seen).toEqual([1, 3]);
  });

  it('never runs more than one update per window during a long burst', () => {
    const seen: number[] = [];
    const throttle = createThrottle(100);
    for (let step = 0; step < 50; step++) {
      throttle.run(() => seen.push(step));
      vi.advanceTimersByTime(10);
    }
    vi.advanceTimersByTime(100);
    expect(seen.length).toBeGreaterThanOrEqual(5);
    expect(seen.length).toBeLessThanOrEqual(6);
    expect(seen.at(-1)).toBe(49);
  });

  it('cancel drops a held update and opens the window again', () => {
    const seen: string[] = [];
    const throttle = createThrottle(100);
    throttle.run(() => seen.push('first'));
    throttle.run(() => seen.push('held'));
    throttle.cancel();
    vi.advanceTimersByTime(500);
    expect(seen).toEqual(['first']);
    throttle.run(() => seen.push('after cancel'));
    expect(seen).toEqual(['first', 'after cancel']);
  });
});
