import { describe, expect, it } from 'vitest';
import { type DatedBackup, backupsToKeep } from './retention';

const RULE = { keepDaily: 7, keepWeekly: 4 };

/** A backup taken at a local time (the calendar retention counts in), named after it. */
const at = (day: string, time = '02:30'): DatedBackup => ({
  file: `${day} ${time}`,
  takenAt: new Date(`${day}T${time}:00`),
});

/** The nights from `first` to `last`, one 02:30 backup each: the fake clock. */
function nights(first: string, last: string): DatedBackup[] {
  const out: DatedBackup[] = [];
  const day = new Date(`${first}T12:00:00`);
  const end = new Date(`${last}T12:00:00`);
  for (; day <= end; day.setDate(day.getDate() + 1)) {
    const iso = `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`;
    out.push(at(iso));
  }
  return out;
}

/** Runs the schedule backup by backup, pruning after each as the server does, and answers what is left. */
function runSchedule(backups: DatedBackup[]): string[] {
  let kept: DatedBackup[] = [];
  for (const backup of backups) {
    kept.push(backup);
    const keep = backupsToKeep(kept, RULE);
    kept = kept.filter((b) => keep.has(b.file));
  }
  return kept.map((b) => b.file).sort();
}

describe('backup retention: 7 daily and 4 weekly', () => {
  // nightly from 1 September to Thursday 26 November 2026, with two backups taken by hand in the afternoon
  const taken = [
    ...nights('2026-09-01', '2026-11-26'),
    at('2026-11-20', '15:00'),
    at('2026-11-26', '15:00'),
  ].sort((a, b) => a.takenAt.getTime() - b.takenAt.getTime());
  const expected = [
    // the newest of each of the last 7 days; on the 20th and 26th the afternoon's
    '2026-11-26 15:00',
    '2026-11-25 02:30',
    '2026-11-24 02:30',
    '2026-11-23 02:30',
    '2026-11-22 02:30',
    '2026-11-21 02:30',
    '2026-11-20 15:00',
    // the newest of each of the 4 last weeks (Monday to Sunday): the two older weeks' Sundays
    '2026-11-15 02:30',
    '2026-11-08 02:30',
  ].sort();

  it('keeps the newest of each of the last seven days and of the last four weeks', () => {
    const keep = backupsToKeep(taken, RULE);
    expect([...keep].sort()).toEqual(expected);
  });

  it('ends with the same backups when it prunes after every backup, as the server does', () => {
    expect(runSchedule(taken)).toEqual(expected);
  });

  it('keeps only the newest of several backups of one day', () => {
    const day = [at('2026-11-26', '02:30'), at('2026-11-26', '09:00'), at('2026-11-26', '17:45')];
    expect([...backupsToKeep(day, RULE)]).toEqual(['2026-11-26 17:45']);
  });

  it('counts days that have a backup, so a server that was off for weeks keeps its last ones', () => {
    const sparse = [at('2026-06-01'), at('2026-07-15'), at('2026-11-26')];
    expect([...backupsToKeep(sparse, RULE)].sort()).toEqual(sparse.map((b) => b.file).sort());
  });

  it('keeps dailies only when no weekly is asked for, and always the newest backup', () => {
    const keep = backupsToKeep(taken, { keepDaily: 2, keepWeekly: 0 });
    expect([...keep].sort()).toEqual(['2026-11-25 02:30', '2026-11-26 15:00']);
    expect([...backupsToKeep(taken, { keepDaily: 0, keepWeekly: 0 })]).toEqual(['2026-11-26 15:00']);
    expect(backupsToKeep([], RULE).size).toBe(0);
  });
});
