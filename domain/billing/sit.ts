import type { DayNumber } from './days';

// The rules of a SIT account's days besides the charges: its start against the units' move-in, and its last day.
// `conversionDay` (charges.ts) is the first day of permanent storage; SIT covers the days [start, conversion).

/** The last day of storage in transit: the day before the conversion day, when permanent storage starts. */
export function sitLastDay(conversion: DayNumber): DayNumber {
  return conversion - 1;
}

/**
 * Why a SIT start cannot be taken, or null: SIT cannot start before the order's first unit moved in (`moveIn`, null
 * while no unit has). `writeDay` writes a day the company's way, so the message names the move-in as its pages do.
 */
export function sitStartProblem(
  start: DayNumber,
  moveIn: DayNumber | null,
  writeDay: (day: DayNumber) => string,
): string | null {
  if (moveIn === null || start >= moveIn) return null;
  return `SIT cannot start before the units moved in on ${writeDay(moveIn)}. Choose that day or a later one.`;
}
