import { describe, expect, it } from 'vitest';
import { conversionDay } from './charges';
import { dayOf, dayWriter, isoOf } from './days';
import { sitLastDay, sitStartProblem } from './sit';

describe('SIT days', () => {
  it('ends the day before permanent storage starts', () => {
    const conversion = conversionDay(dayOf('2026-11-01'), 90);
    expect(isoOf(conversion)).toBe('2027-01-30');
    expect(isoOf(sitLastDay(conversion))).toBe('2027-01-29');
    // the days [start, last day] are the days allowed
    expect(sitLastDay(conversion) - dayOf('2026-11-01') + 1).toBe(90);
  });

  it("refuses a start before the first unit moved in, naming the move-in the company's way", () => {
    const moveIn = dayOf('2026-03-05');
    const german = dayWriter('de-DE');
    expect(sitStartProblem(moveIn - 1, moveIn, german)).toBe(
      'SIT cannot start before the units moved in on 05.03.2026. Choose that day or a later one.',
    );
    expect(sitStartProblem(moveIn, moveIn, german)).toBeNull();
    expect(sitStartProblem(moveIn + 10, moveIn, german)).toBeNull();
    expect(sitStartProblem(moveIn - 1, null, german)).toBeNull();
  });
});
