import { dayOf, isoOf } from '@domain/billing/days';
import { sitLastDay } from '@domain/billing/sit';
import { useFormat } from '@/lib/format';

/** A calendar day ('2026-11-29') written the company's way ('Nov 29, 2026'), '-' for none (issue 28: dates in its locale). */
export function useCalendarDay(): (day: string | null | undefined) => string {
  const format = useFormat();
  return (day) => (day ? format.date(day) : '-');
}

/** A billing period: 'November 2026' when it is a whole calendar month, else its first and last day. */
export function periodText(
  start: string | null,
  end: string | null,
  format: { month: (month: string) => string; date: (day: string) => string },
): string {
  if (!start || !end) return '-';
  const next = new Date(`${end}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  const wholeMonth = start.endsWith('-01') && end.startsWith(start.slice(0, 7)) && next.getUTCDate() === 1;
  return wholeMonth ? format.month(start.slice(0, 7)) : `${format.date(start)} to ${format.date(end)}`;
}

/** `periodText` in the company's locale. */
export function usePeriodText(): (start: string | null, end: string | null) => string {
  const format = useFormat();
  return (start, end) => periodText(start, end, format);
}

/** A SIT account's last day in transit: the day before its conversion, when permanent storage starts (null: none). */
export function sitEnds(conversion: string | null): string | null {
  return conversion ? isoOf(sitLastDay(dayOf(conversion))) : null;
}
