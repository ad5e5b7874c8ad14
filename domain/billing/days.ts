/**
 * Billing counts whole days. A day is its number since 1970-01-01 (UTC calendar, no time zone), so ranges are plain
 * integers: a range [from, to) holds the days from `from` up to, not including, `to`.
 */
export type DayNumber = number;

const MS_PER_DAY = 86_400_000;
const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `text` is a real calendar day written YYYY-MM-DD. */
export function isIsoDay(text: string): boolean {
  const m = ISO_DAY.exec(text);
  if (!m) return false;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().slice(0, 10) === text;
}

/** '2026-03-01' -> its day number; also takes a full ISO timestamp (its UTC day). */
export function dayOf(text: string): DayNumber {
  const day = text.slice(0, 10);
  if (!isIsoDay(day)) throw new RangeError(`Not a day: ${text}`);
  return Math.floor(Date.parse(`${day}T00:00:00Z`) / MS_PER_DAY);
}

/** A day number as YYYY-MM-DD. */
export function isoOf(day: DayNumber): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

/** The first day of the calendar month holding `day`. */
export function monthStart(day: DayNumber): DayNumber {
  const d = new Date(day * MS_PER_DAY);
  return Math.floor(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / MS_PER_DAY);
}

/** The first day of the month after the one holding `day`. */
export function nextMonthStart(day: DayNumber): DayNumber {
  const d = new Date(day * MS_PER_DAY);
  return Math.floor(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / MS_PER_DAY);
}

/** Adds whole days to a YYYY-MM-DD day. */
export function addDays(text: string, days: number): string {
  return isoOf(dayOf(text) + days);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return dayOf(to) - dayOf(from);
}

/** Writes a day the way `locale` does ('Nov 1, 2026' in en-US, '01.11.2026' in de-DE), as a calendar day (UTC). */
export function dayWriter(locale: string): (day: DayNumber) => string {
  const format = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
  return (day) => format.format(new Date(day * MS_PER_DAY));
}

/**
 * Where a chosen day stands against today (`today` as the server's UTC day): 'past' before yesterday, 'future' after
 * tomorrow, else 'now'. The day of slack each way lets every time zone's today through.
 */
export function dayAgainstToday(day: string, today: string): 'past' | 'now' | 'future' {
  const between = daysBetween(today, day);
  return between < -1 ? 'past' : between > 1 ? 'future' : 'now';
}
