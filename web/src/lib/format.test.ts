import { describe, expect, it, vi } from 'vitest';
import {
  formatCount,
  formatDate,
  formatMonth,
  formatDateTime,
  formatDay,
  formatNumber,
  formatPercent,
  formatTime,
} from './format';

const moment = new Date(Date.UTC(2026, 2, 4, 15, 5));

describe('the company-locale formatters', () => {
  it('write a day, a moment and a number the way the locale writes them', () => {
    expect(formatDate(moment, 'en-US')).toBe('Mar 4, 2026');
    expect(formatDate(moment, 'de-DE')).toBe('04.03.2026');
    expect(formatMonth('2026-11', 'en-US')).toBe('November 2026');
    expect(formatMonth('2026-01', 'fr-FR')).toBe('janvier 2026');
    expect(formatDate(moment, 'en-GB')).toBe('4 Mar 2026');
    expect(formatDay(moment, 'en-US')).toBe('Wednesday, Mar 4, 2026');
    expect(formatNumber(1234.5, 'en-US')).toBe('1,234.5');
    expect(formatNumber(1234.5, 'de-DE')).toBe('1.234,5');
    expect(formatPercent(42, 'en-US')).toBe('42%');
    expect(formatPercent(42, 'de-DE')).toBe('42\u00a0%');
    expect(formatCount(1, 'vault')).toBe('1 vault');
    expect(formatCount(0, 'vault')).toBe('0 vaults');
    expect(formatCount(1200, 'vault', 'vaults', 'de-DE')).toBe('1.200 vaults');
  });

  it('write a stored calendar day as that day in any time zone, west of Greenwich too', () => {
    vi.stubEnv('TZ', 'America/Los_Angeles');
    // a locale no other test formats in, so its formatters are made in this time zone (they are kept per locale)
    const inUtc = (options: Intl.DateTimeFormatOptions, day: number) =>
      new Intl.DateTimeFormat('en-AU', { ...options, timeZone: 'UTC' }).format(day);
    try {
      expect(formatDate('2026-11-29', 'en-AU')).toBe(inUtc({ dateStyle: 'medium' }, Date.UTC(2026, 10, 29)));
      expect(formatDay('2026-03-04', 'en-AU')).toBe(
        inUtc({ weekday: 'long', year: 'numeric', month: 'short', day: 'numeric' }, Date.UTC(2026, 2, 4)),
      );
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("write the age of a tablet's kept data as a time of day today, and with its date on another day", () => {
    const sameDay = new Date(moment.getTime());
    expect(formatTime(moment, 'de-DE', sameDay)).toBe(
      new Intl.DateTimeFormat('de-DE', { timeStyle: 'short' }).format(moment),
    );
    expect(formatTime(moment, 'en-US', sameDay)).toMatch(/^\d{1,2}:05\sPM$/);
    const twoDaysLater = new Date(moment.getTime() + 2 * 24 * 60 * 60_000);
    expect(formatTime(moment, 'en-US', twoDaysLater)).toBe(formatDateTime(moment, 'en-US'));
  });

  it('give one moment the same text wherever it is shown, and en-US when no locale is given', () => {
    expect(formatDateTime(moment.toISOString(), 'en-US')).toBe(formatDateTime(moment, 'en-US'));
    expect(formatDateTime(moment)).toBe(formatDateTime(moment, 'en-US'));
    expect(formatDateTime(moment, 'de-DE')).toMatch(/^04\.03\.2026, \d{2}:05$/);
  });
});
