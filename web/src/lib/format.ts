import { DEFAULT_LOCALE } from '@domain/rules/locale';
import { useSession } from '../api/session';

// Issue 27: every date, time and number the app shows is written the one way the company chose (its locale, carried
// by the session). Pages take `useFormat()`; money (billing) takes the locale from `useCompanyLocale()`.

type DateInput = string | number | Date;

const formatters = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();

function cached<F extends Intl.DateTimeFormat | Intl.NumberFormat>(key: string, make: () => F): F {
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = make();
    formatters.set(key, formatter);
  }
  return formatter as F;
}

/** A calendar day as stored ('2026-11-29'): the Date parser reads it as UTC midnight, the day before west of Greenwich. */
const CALENDAR_DAY = /^\d{4}-\d{2}-\d{2}$/;

const toDate = (value: DateInput) =>
  value instanceof Date
    ? value
    : new Date(typeof value === 'string' && CALENDAR_DAY.test(value) ? `${value}T00:00:00` : value);

/** A day: 'Mar 4, 2026' (en-US), '4 Mar 2026' (en-GB), '04.03.2026' (de-DE). */
export function formatDate(value: DateInput, locale: string = DEFAULT_LOCALE): string {
  return cached(`date|${locale}`, () => new Intl.DateTimeFormat(locale, { dateStyle: 'medium' })).format(
    toDate(value),
  );
}

/** A day with its weekday, for what is done per day (checklists): 'Wednesday, Mar 4, 2026'. */
export function formatDay(value: DateInput, locale: string = DEFAULT_LOCALE): string {
  return cached(
    `day|${locale}`,
    () =>
      new Intl.DateTimeFormat(locale, { weekday: 'long', year: 'numeric', month: 'short', day: 'numeric' }),
  ).format(toDate(value));
}

/** A month as stored ('2026-11'): 'November 2026' (en-US), 'November 2026' (de-DE), 'novembre 2026' (fr-FR). */
export function formatMonth(month: string, locale: string = DEFAULT_LOCALE): string {
  return cached(
    `month|${locale}`,
    () => new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric' }),
  ).format(toDate(`${month}-01`));
}

/** A moment: 'Mar 4, 2026, 3:05 PM' (en-US), '04.03.2026, 15:05' (de-DE). */
export function formatDateTime(value: DateInput, locale: string = DEFAULT_LOCALE): string {
  return cached(
    `datetime|${locale}`,
    () => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }),
  ).format(toDate(value));
}

/** A time of day today: '3:05 PM' (en-US), '15:05' (de-DE); a moment of another day with its date. */
export function formatTime(value: DateInput, locale: string = DEFAULT_LOCALE, now = new Date()): string {
  const date = toDate(value);
  if (date.toDateString() !== now.toDateString()) return formatDateTime(date, locale);
  return cached(`time|${locale}`, () => new Intl.DateTimeFormat(locale, { timeStyle: 'short' })).format(date);
}

/** A count or measure: '1,234' (en-US), '1.234' (de-DE). */
export function formatNumber(value: number, locale: string = DEFAULT_LOCALE): string {
  return cached(`number|${locale}`, () => new Intl.NumberFormat(locale, { maximumFractionDigits: 2 })).format(
    value,
  );
}

/** A whole percentage given as 0-100: '42%' (en-US), '42 %' (de-DE). */
export function formatPercent(value: number, locale: string = DEFAULT_LOCALE): string {
  return cached(`percent|${locale}`, () => new Intl.NumberFormat(locale, { style: 'percent' })).format(
    value / 100,
  );
}

/** A count with its noun, one or many: '1 vault', '2 vaults', '1,200 vaults'. */
export function formatCount(
  count: number,
  one: string,
  many = `${one}s`,
  locale: string = DEFAULT_LOCALE,
): string {
  return `${formatNumber(count, locale)} ${count === 1 ? one : many}`;
}

/** The signed-in company's locale; the default one while no one is signed in (the public checklist page). */
export function useCompanyLocale(): string {
  return useSession().data?.company.locale ?? DEFAULT_LOCALE;
}

export interface Formatters {
  locale: string;
  date: (value: DateInput) => string;
  day: (value: DateInput) => string;
  month: (month: string) => string;
  dateTime: (value: DateInput) => string;
  number: (value: number) => string;
  percent: (value: number) => string;
  count: (count: number, one: string, many?: string) => string;
}

/** The formatters of the company's locale, for a component to use as it renders. */
export function useFormat(): Formatters {
  const locale = useCompanyLocale();
  return {
    locale,
    date: (value) => formatDate(value, locale),
    day: (value) => formatDay(value, locale),
    month: (month) => formatMonth(month, locale),
    dateTime: (value) => formatDateTime(value, locale),
    number: (value) => formatNumber(value, locale),
    percent: (value) => formatPercent(value, locale),
    count: (count, one, many) => formatCount(count, one, many, locale),
  };
}
