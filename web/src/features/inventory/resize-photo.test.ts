import { describe, expect, it } from 'vitest';
import { PHOTO_MAX_SIDE, fitWithin } from './resize-photo';

describe('fitWithin', () => {
  it('shrinks the longest side to the limit and keeps the proportions', () => {
    expect(fitWithin(4032, 3024)).toEqual({ width: PHOTO_MAX_SIDE, height: 1200 });
    expect(fitWithin(3024, 4032)).toEqual({ width: 1200, height: PHOTO_MAX_SIDE });
  });
  it('never enlarges a small picture', () => {
    expect(fitWithin(640, 480)).toEqual({ width: 640, height: 480 });
  });
});
