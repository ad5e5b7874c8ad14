import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { markSelfContained, sqliteFileProblem } from './sqlite-file-check';

export class RestoreRefusedError extends Error {}

const stamp = (d: Date) => d.toISOString().replace(/[:.]/g, '-');

/**
 * Refuses while any process has the database open. A WAL database can only leave WAL mode when no other connection
 * holds it, so asking for that is the check; SQLite's own locks answer it, a crashed server leaves none behind.
 * Once it succeeds the file is self-contained (the WAL is checkpointed into it), ready to be moved aside.
 */
function takeOutOfUse(databaseFile: string): void {
  if (!fs.existsSync(databaseFile)) return;
  let db: SQLite.Database | undefined;
  try {
    db = new SQLite(databaseFile, { fileMustExist: true });
    db.pragma('busy_timeout = 0');
    db.pragma('journal_mode = DELETE');
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
      throw new RestoreRefusedError(
        `The database ${databaseFile} is in use: stop the server (every server process using it) and run restore again. Nothing was changed.`,
      );
    }
    // a damaged database, the usual reason to restore, may not even open: it is moved aside as it is
  } finally {
    db?.close();
  }
}

/**
 * Puts a backup in place of the SQLite database, with the server stopped: the backup is copied beside the database
 * and checked (a SQLite file of this app that passes PRAGMA integrity_check) before anything is replaced; the
 * replaced database is kept aside under a dated name. Answers where the replaced database was kept (null: none).
 */
export function restoreDatabase(databaseFile: string, backupFile: string, now = new Date()): string | null {
  const target = path.resolve(databaseFile);
  const source = path.resolve(backupFile);
  if (source === target)
    throw new RestoreRefusedError('The backup is the database itself. Nothing was changed.');
  if (!fs.existsSync(source))
    throw new RestoreRefusedError(`${backupFile} does not exist. Nothing was changed.`);

  fs.mkdirSync(path.dirname(target), { recursive: true });
  const incoming = `${target}.restoring`;
  try {
    fs.copyFileSync(source, incoming);
    markSelfContained(incoming);
    const problem = sqliteFileProblem(incoming);
    if (problem) {
      throw new RestoreRefusedError(`${problem.replace(incoming, backupFile)} Nothing was changed.`);
    }

    // only a sound backup gets this far; the current database is first touched here
    takeOutOfUse(target);
    const ext = path.extname(target);
    const aside = fs.existsSync(target)
      ? path.join(path.dirname(target), `${path.basename(target, ext)}.replaced-${stamp(now)}${ext}`)
      : null;
    if (aside) {
      fs.renameSync(target, aside);
      // left only by a database that could not be opened above; they belong to the replaced file
      for (const side of ['-wal', '-shm']) {
        if (fs.existsSync(target + side)) fs.renameSync(target + side, aside + side);
      }
    }
    fs.renameSync(incoming, target);
    return aside;
  } finally {
    for (const leftover of [incoming, `${incoming}-journal`]) fs.rmSync(leftover, { force: true });
  }
}
