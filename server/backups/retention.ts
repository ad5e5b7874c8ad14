/** One kept backup as retention sees it: its file name and when it was taken. */
export interface DatedBackup {
  file: string;
  takenAt: Date;
}

export interface RetentionRule {
  /** the newest backup of each of this many most recent days that have one */
  keepDaily: number;
  /** the newest backup of each of this many most recent weeks (Monday to Sunday) that have one */
  keepWeekly: number;
}

const pad = (n: number) => String(n).padStart(2, '0');
const localDay = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** The local date of the Monday that starts the week of `d`. */
function localWeek(d: Date): string {
  const monday = new Date(d.getFullYear(), d.getMonth(), d.getDate());
  monday.setDate(monday.getDate() - ((monday.getDay() + 6) % 7));
  return localDay(monday);
}

function newestPerPeriod(sorted: DatedBackup[], periodOf: (d: Date) => string, periods: number): string[] {
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const backup of sorted) {
    if (seen.size >= periods) break;
    const period = periodOf(backup.takenAt);
    if (seen.has(period)) continue;
    seen.add(period);
    kept.push(backup.file);
  }
  return kept;
}

/**
 * Grandfather-father-son retention: the newest backup of each of the last `keepDaily` days that have a backup,
 * and the newest of each of the last `keepWeekly` weeks; a backup either rule keeps stays. Days and weeks are the
 * server's local calendar, as the schedule is. The newest backup is always kept. Pure: the files' times are the clock.
 */
export function backupsToKeep(backups: DatedBackup[], rule: RetentionRule): Set<string> {
  const newestFirst = [...backups].sort((a, b) => b.takenAt.getTime() - a.takenAt.getTime());
  return new Set([
    ...newestPerPeriod(newestFirst, localDay, Math.max(1, rule.keepDaily)),
    ...newestPerPeriod(newestFirst, localWeek, rule.keepWeekly),
  ]);
}
