import fs from 'node:fs';
import path from 'node:path';
import type SQLite from 'better-sqlite3';
import { Cron } from 'croner';
import lockfile from 'proper-lockfile';
import type { BackupConfig } from '../config';
import {
  type BackupFile,
  type BackupRecord,
  PARTIAL_SUFFIX,
  backupFileName,
  listBackups,
  readRecord,
  writeRecord,
} from './backup-files';
import { backupsToKeep } from './retention';
import { markSelfContained, sqliteFileProblemOffThread } from './sqlite-file-check';

/** The last good backup older than this is worth a warning (issue 25). */
export const BACKUP_OVERDUE_MS = 2 * 24 * 3600_000;

/** Pages copied per step of the online backup (4 KiB each): a few milliseconds of the event loop at a time. */
const PAGES_PER_STEP = 2_000;
/** A write by another process restarts the online copy; after this many restarts the rest is copied in one step. */
const RESTARTS_BEFORE_ONE_STEP = 3;
/** The folder lock is refreshed while held; one left by a process that died is taken over after this long. */
const LOCK_STALE_MS = 60_000;

interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface BackupsStatus {
  folder: string;
  schedule: string | null;
  nextRun: Date | null;
  running: boolean;
  lastGood: BackupFile | null;
  lastFailure: BackupRecord['lastFailure'];
  /** the kept backups, newest first */
  kept: BackupFile[];
  overdue: boolean;
  keepDaily: number;
  keepWeekly: number;
}

export class BackupBusyError extends Error {
  constructor() {
    super('A backup is being taken right now. Wait for it to finish.');
  }
}

/**
 * A SQLite database's automatic backups (decision 029): on the schedule, an online copy into the backup folder,
 * checked with PRAGMA integrity_check before it gets its name, then old ones pruned. One process at a time holds
 * the folder's lock, so several servers on one database file take one backup per run between them.
 */
export class SqliteBackups {
  private job: Cron | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly sqlite: SQLite.Database,
    readonly folder: string,
    private readonly config: BackupConfig,
    private readonly log: Log,
  ) {}

  /** Starts the schedule; a timer that keeps no process alive. */
  start(): void {
    if (!this.config.schedule || this.job) return;
    this.job = new Cron(this.config.schedule, { unref: true, protect: true, catch: true }, async (job) => {
      const dueAt = job.currentRun() ?? new Date();
      await this.runScheduled(dueAt).catch((error: unknown) => this.recordFailure(error));
    });
  }

  /** Stops the schedule and waits for a backup under way. */
  async stop(): Promise<void> {
    this.job?.stop();
    this.job = undefined;
    await this.running;
  }

  nextRun(): Date | null {
    return this.job?.nextRun() ?? null;
  }

  isRunning(): boolean {
    return this.running !== undefined;
  }

  /** A scheduled run: skipped when another process holds the lock or has already taken this run's backup. */
  async runScheduled(dueAt: Date): Promise<void> {
    const release = await this.tryLock();
    if (!release) {
      this.log.info({ folder: this.folder }, 'backup: another process is taking this backup');
      return;
    }
    const lastGood = readRecord(this.folder).lastGood;
    if (lastGood && new Date(lastGood.takenAt).getTime() >= dueAt.getTime()) {
      await release();
      return;
    }
    await this.runLocked(release);
  }

  /** Begins a backup now (the admin page's button) and answers once it has begun; refused while one is under way. */
  async begin(): Promise<void> {
    if (this.running) throw new BackupBusyError();
    const release = await this.tryLock();
    if (!release) throw new BackupBusyError();
    void this.runLocked(release);
  }

  /** Takes a backup now and waits for it; false when another one was under way. */
  async takeNow(): Promise<boolean> {
    const release = await this.tryLock();
    if (!release) return false;
    await this.runLocked(release);
    return true;
  }

  status(now = new Date()): BackupsStatus {
    const record = readRecord(this.folder);
    const kept = listBackups(this.folder);
    const recorded = record.lastGood && kept.find((b) => b.file === record.lastGood!.file);
    const lastGood = recorded ?? kept[0] ?? null;
    return {
      folder: this.folder,
      schedule: this.config.schedule,
      nextRun: this.nextRun(),
      running: this.isRunning(),
      lastGood,
      lastFailure: record.lastFailure,
      kept,
      overdue: !lastGood || now.getTime() - lastGood.takenAt.getTime() > BACKUP_OVERDUE_MS,
      keepDaily: this.config.keepDaily,
      keepWeekly: this.config.keepWeekly,
    };
  }

  private async tryLock(): Promise<(() => Promise<void>) | undefined> {
    fs.mkdirSync(this.folder, { recursive: true });
    try {
      return await lockfile.lock(this.folder, {
        lockfilePath: path.join(this.folder, 'backup.lock'),
        stale: LOCK_STALE_MS,
        realpath: false,
        onCompromised: (error) =>
          this.log.warn({ err: error }, 'backup: the folder lock was lost; the backup goes on'),
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ELOCKED') return undefined;
      throw error;
    }
  }

  private runLocked(release: () => Promise<void>): Promise<void> {
    const run = this.copyCheckAndPrune()
      .catch((error: unknown) => this.recordFailure(error))
      .finally(async () => {
        this.running = undefined;
        await release().catch(() => undefined);
      });
    this.running = run;
    return run;
  }

  /** Logged, and kept in the folder's record for the page, when the folder can be written. */
  private recordFailure(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    this.log.error({ err: error }, 'backup failed');
    try {
      writeRecord(this.folder, {
        ...readRecord(this.folder),
        lastFailure: { at: new Date().toISOString(), message },
      });
    } catch (recordError) {
      this.log.error({ err: recordError }, 'backup: the failure could not be recorded');
    }
  }

  private async copyCheckAndPrune(): Promise<void> {
    this.removePartials();
    const takenAt = new Date();
    const file = backupFileName(takenAt);
    const target = path.join(this.folder, file);
    const partial = `${target}${PARTIAL_SUFFIX}`;
    try {
      await this.copyOnline(partial);
      markSelfContained(partial);
      const problem = await sqliteFileProblemOffThread(partial);
      if (problem) throw new Error(`The new backup failed its check: ${problem}`);
      fs.renameSync(partial, target);
    } finally {
      fs.rmSync(partial, { force: true });
    }
    const bytes = fs.statSync(target).size;
    writeRecord(this.folder, {
      lastGood: { file, takenAt: takenAt.toISOString(), bytes },
      lastFailure: readRecord(this.folder).lastFailure,
    });
    this.log.info({ file, bytes }, 'backup taken and checked');
    this.prune();
  }

  /** SQLite's online backup, a step at a time; writes from other processes restart it, so it ends in one step. */
  private async copyOnline(partial: string): Promise<void> {
    let restarts = 0;
    let lastRemaining = Infinity;
    await this.sqlite.backup(partial, {
      progress: ({ remainingPages }) => {
        if (remainingPages > lastRemaining) restarts += 1;
        lastRemaining = remainingPages;
        return restarts >= RESTARTS_BEFORE_ONE_STEP ? 0x7fffffff : PAGES_PER_STEP;
      },
    });
  }

  /** Partial files of a run that died; only the lock holder gets here, so none is being written. */
  private removePartials(): void {
    for (const name of fs.readdirSync(this.folder)) {
      if (name.startsWith('backup-') && name.endsWith(PARTIAL_SUFFIX)) {
        fs.rmSync(path.join(this.folder, name), { force: true });
      }
    }
  }

  private prune(): void {
    const backups = listBackups(this.folder);
    const keep = backupsToKeep(backups, this.config);
    for (const backup of backups) {
      if (keep.has(backup.file)) continue;
      fs.rmSync(path.join(this.folder, backup.file), { force: true });
      this.log.info({ file: backup.file }, 'backup pruned by retention');
    }
  }
}

/** The backup folder of a database file: BACKUP_DIR, or `backups` next to the file. */
export function backupFolderOf(databaseFile: string, dir?: string): string {
  return dir ?? path.join(path.dirname(databaseFile), 'backups');
}

/** Why this installation takes no automatic backups, or its backups. */
export type AutomaticBackups = { on: true; service: SqliteBackups } | { on: false; reason: string };

export const POSTGRES_BACKUPS =
  'PostgreSQL installations back up with PostgreSQL tools (pg_dump, continuous archiving); see the README.';

export function automaticBackups(
  config: BackupConfig,
  sqlite: SQLite.Database | undefined,
  log: Log,
): AutomaticBackups {
  if (!sqlite) return { on: false, reason: POSTGRES_BACKUPS };
  if (sqlite.memory) return { on: false, reason: 'An in-memory database is not backed up.' };
  if (!config.schedule) return { on: false, reason: 'Automatic backups are off (BACKUP_SCHEDULE=off).' };
  return {
    on: true,
    service: new SqliteBackups(sqlite, backupFolderOf(sqlite.name, config.dir), config, log),
  };
}
