import fs from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');
const SHOWN_PROBLEMS = 3;

/** Opens the file read-only and runs PRAGMA integrity_check; its findings, or the error that stopped it. */
function integrityFindings(file: string): string[] {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const hasCompanies = db
      .prepare(`select 1 from sqlite_master where type = 'table' and name = 'companies'`)
      .get();
    const rows = db.pragma('integrity_check') as { integrity_check: string }[];
    const findings = rows.map((r) => r.integrity_check).filter((r) => r !== 'ok');
    return findings.length > 0 || hasCompanies ? findings : [NOT_OURS];
  } finally {
    db.close();
  }
}
const NOT_OURS = 'not a Warehouse Manager database';

// the same check on a worker thread: on a large database it takes seconds, which the server's requests do not wait for
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
let db;
try {
  db = new SQLite(workerData.file, { readonly: true, fileMustExist: true });
  const hasCompanies = db.prepare("select 1 from sqlite_master where type = 'table' and name = 'companies'").get();
  const findings = db.pragma('integrity_check').map((r) => r.integrity_check).filter((r) => r !== 'ok');
  parentPort.postMessage({ findings: findings.length > 0 || hasCompanies ? findings : [${JSON.stringify(NOT_OURS)}] });
} catch (error) {
  parentPort.postMessage({ error: String(error && error.message || error) });
} finally {
  if (db) db.close();
}`;

function integrityFindingsOffThread(file: string): Promise<string[]> {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver } });
    worker.once('message', (answer: { findings?: string[]; error?: string }) => {
      if (answer.error !== undefined) reject(new Error(answer.error));
      else resolve(answer.findings ?? []);
    });
    worker.once('error', reject);
  });
}

/**
 * Marks a copied database file as a rollback-journal one (header bytes 18 and 19: 1 instead of WAL's 2). A copy is one
 * self-contained file; left in WAL mode, every open would want a -wal and -shm beside it, even a read-only one.
 */
export function markSelfContained(file: string): void {
  const fd = fs.openSync(file, 'r+');
  try {
    const versions = Buffer.alloc(2);
    fs.readSync(fd, versions, 0, 2, 18);
    if (versions[0] === 2 && versions[1] === 2) fs.writeSync(fd, Buffer.from([1, 1]), 0, 2, 18);
  } finally {
    fs.closeSync(fd);
  }
}

function headerProblem(file: string): string | undefined {
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const header = Buffer.alloc(SQLITE_HEADER.length);
      fs.readSync(fd, header, 0, header.length, 0);
      return header.equals(SQLITE_HEADER) ? undefined : `${file} is not a SQLite database.`;
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    return `${file} cannot be read: ${(error as Error).message}`;
  }
}

function findingsProblem(file: string, findings: string[]): string | undefined {
  if (findings.length === 0) return undefined;
  if (findings[0] === NOT_OURS) return `${file} is a SQLite database, but not one of Warehouse Manager.`;
  const shown = findings.slice(0, SHOWN_PROBLEMS).join('; ');
  return `${file} is damaged (integrity check: ${shown}${findings.length > SHOWN_PROBLEMS ? '; ...' : ''}).`;
}

/**
 * Why a file cannot serve as this app's database: not a SQLite file, damaged (PRAGMA integrity_check fails), or not
 * a Warehouse Manager database. Undefined when it is sound. The file is only read.
 */
export function sqliteFileProblem(file: string): string | undefined {
  const header = headerProblem(file);
  if (header) return header;
  try {
    return findingsProblem(file, integrityFindings(file));
  } catch (error) {
    return `${file} is damaged: ${(error as Error).message}`;
  }
}

/** The same check on a worker thread, for the server. */
export async function sqliteFileProblemOffThread(file: string): Promise<string | undefined> {
  const header = headerProblem(file);
  if (header) return header;
  try {
    return findingsProblem(file, await integrityFindingsOffThread(file));
  } catch (error) {
    return `${file} is damaged: ${(error as Error).message}`;
  }
}
