import { describe, expect, it } from 'vitest';
import { dayAgainstToday } from './days';

describe('a chosen day against today', () => {
  it('lets yesterday, today and tomorrow through, for every time zone', () => {
    expect(dayAgainstToday('2026-11-29', '2026-11-30')).toBe('now');
    expect(dayAgainstToday('2026-11-30', '2026-11-30')).toBe('now');
    expect(dayAgainstToday('2026-12-01', '2026-11-30')).toBe('now');
  });

  it('names the days before and after that, across months and years', () => {
    expect(dayAgainstToday('2026-11-28', '2026-11-30')).toBe('past');
    expect(dayAgainstToday('2020-01-01', '2026-11-30')).toBe('past');
    expect(dayAgainstToday('2026-12-02', '2026-11-30')).toBe('future');
    expect(dayAgainstToday('2027-01-01', '2026-12-31')).toBe('now');
    expect(dayAgainstToday('2027-01-02', '2026-12-31')).toBe('future');
  });
});
