import fs from 'node:fs';
import path from 'node:path';
import type { DatedBackup } from './retention';

/** A finished, checked backup in the backup folder. */
export interface BackupFile extends DatedBackup {
  bytes: number;
}

/** What the backup folder remembers beside its files: the last good backup and the last failed attempt. */
export interface BackupRecord {
  lastGood: { file: string; takenAt: string; bytes: number } | null;
  lastFailure: { at: string; message: string } | null;
}

const RECORD_FILE = 'backup-status.json';
/** backup-2026-11-28T02-30-00-000Z.db: the UTC time it was taken, which retention reads back */
const BACKUP_NAME = /^backup-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z\.db$/;
/** a backup still being written or checked carries this ending until it is renamed */
export const PARTIAL_SUFFIX = '.partial';

export function backupFileName(takenAt: Date): string {
  return `backup-${takenAt.toISOString().replace(/:/g, '-').replace('.', '-')}`.replace(/Z$/, 'Z.db');
}

export function takenAtOf(file: string): Date | undefined {
  const m = BACKUP_NAME.exec(file);
  return m ? new Date(`${m[1]}T${m[2]}:${m[3]}:${m[4]}.${m[5]}Z`) : undefined;
}

/** The folder's finished backups, newest first; other files (partial ones, anything else) are not backups. */
export function listBackups(dir: string): BackupFile[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    // none yet, or a folder this process cannot read: no backup to count on (the page and health warn)
    return [];
  }
  const backups: BackupFile[] = [];
  for (const file of names) {
    const takenAt = takenAtOf(file);
    if (!takenAt) continue;
    try {
      backups.push({ file, takenAt, bytes: fs.statSync(path.join(dir, file)).size });
    } catch {
      // pruned by another process since the folder was read
    }
  }
  return backups.sort((a, b) => b.takenAt.getTime() - a.takenAt.getTime());
}

export function readRecord(dir: string): BackupRecord {
  try {
    const parsed = JSON.parse(fs.readFileSync(path.join(dir, RECORD_FILE), 'utf8')) as Partial<BackupRecord>;
    return { lastGood: parsed.lastGood ?? null, lastFailure: parsed.lastFailure ?? null };
  } catch {
    return { lastGood: null, lastFailure: null };
  }
}

/** Written beside and renamed, so a reader never sees half a record. */
export function writeRecord(dir: string, record: BackupRecord): void {
  const file = path.join(dir, RECORD_FILE);
  const partial = `${file}.${process.pid}${PARTIAL_SUFFIX}`;
  fs.writeFileSync(partial, `${JSON.stringify(record, null, 2)}\n`);
  fs.renameSync(partial, file);
}
