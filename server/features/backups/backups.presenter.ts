import type { BackupFileDto, BackupsDto, HealthBackupsDto } from '@domain/schemas/backup.schema';
import type { BackupFile } from '../../backups/backup-files';
import type { AutomaticBackups } from '../../backups/sqlite-backups';

const presentFile = (b: BackupFile): BackupFileDto => ({
  file: b.file,
  takenAt: b.takenAt.toISOString(),
  bytes: b.bytes,
});

export function presentBackups(backups: AutomaticBackups): BackupsDto {
  if (!backups.on) return { automatic: false, reason: backups.reason };
  const s = backups.service.status();
  return {
    automatic: true,
    folder: s.folder,
    schedule: s.schedule ?? '',
    nextRun: s.nextRun?.toISOString() ?? null,
    running: s.running,
    lastGood: s.lastGood && presentFile(s.lastGood),
    lastFailure: s.lastFailure,
    kept: s.kept.map(presentFile),
    overdue: s.overdue,
    keepDaily: s.keepDaily,
    keepWeekly: s.keepWeekly,
  };
}

/** What the public health check tells of backups: no file names or folders. */
export function presentHealthBackups(backups: AutomaticBackups): HealthBackupsDto {
  if (!backups.on) return { automatic: false, reason: backups.reason };
  const s = backups.service.status();
  return {
    automatic: true,
    lastGood: s.lastGood && { takenAt: s.lastGood.takenAt.toISOString(), bytes: s.lastGood.bytes },
    overdue: s.overdue,
  };
}
