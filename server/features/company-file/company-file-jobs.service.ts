import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { CompanyFileJobDto } from '@domain/schemas/company-file.schema';
import type { SessionUser } from '@domain/schemas/auth.schema';
import type { DatabaseHandle } from '../../db/database';
import { HttpError, notFound } from '../../http/errors';
import { exportCompanyFile } from '../../transfer/company-file';
import { companyFileStore } from './company-file-store';
import {
  deleteJob,
  findJob,
  findLatestJob,
  findOtherJobs,
  finishJob,
  insertJob,
  openSnapshotReader,
  updateProgress,
} from './company-file-jobs.repo';

/** A running job moves its row on at least this often, from whichever process runs it. */
const HEARTBEAT_MS = 5_000;
/** A running job whose row has not moved for this long lost its process (a restart, a crash). */
export const STALE_AFTER_MS = 60_000;
const PROGRESS_EVERY_MS = 500;

export const JOB_NOT_FOUND = 'That company file is not there any more. Start a new download.';
export const JOB_NOT_READY = 'That company file is not ready yet.';
export const JOB_LOST =
  'The server stopped while it was making the file, so it was not finished. Start the download again.';

type JobRow = NonNullable<Awaited<ReturnType<typeof findLatestJob>>>;

/** The name the browser saves the file under: the company's name and the day it was made. */
function fileNameOf(companyName: string, createdAt: string): string {
  const slug =
    companyName
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'company';
  return `${slug}-${createdAt.slice(0, 10)}.tar`;
}

function isStale(job: JobRow, now = Date.now()): boolean {
  return job.status === 'running' && now - Date.parse(job.updated_at) > STALE_AFTER_MS;
}

export function presentJob(job: JobRow, companyName: string): CompanyFileJobDto {
  const lost = isStale(job);
  return {
    id: job.id,
    status: lost ? 'failed' : job.status,
    done: job.done,
    total: job.total,
    bytes: Number(job.bytes),
    error: lost ? JOB_LOST : job.error,
    requestedBy: job.requested_by,
    createdAt: job.created_at,
    fileName: fileNameOf(companyName, job.created_at),
  };
}

/** The downloads of the company file that this process runs; the app waits for them when it closes. */
export class CompanyFileJobs {
  readonly #running = new Set<Promise<void>>();
  readonly #store;

  constructor(private readonly database: DatabaseHandle) {
    this.#store = companyFileStore(database);
  }

  async latest(user: SessionUser): Promise<CompanyFileJobDto | null> {
    const job = await findLatestJob(this.database.db, user.companyId);
    return job ? presentJob(job, user.company.name) : null;
  }

  /**
   * Starts making the company file in the background and answers at once; while one is being made for the company
   * that one is answered instead. A new file replaces the company's earlier ones.
   */
  async start(user: SessionUser): Promise<CompanyFileJobDto> {
    const { db } = this.database;
    const latest = await findLatestJob(db, user.companyId);
    if (latest?.status === 'running' && !isStale(latest)) return presentJob(latest, user.company.name);
    const job = await insertJob(db, user.companyId, user.username);
    for (const other of await findOtherJobs(db, user.companyId, job.id)) {
      await this.#store.remove(other.id);
      await deleteJob(db, user.companyId, other.id);
    }
    const run = this.#run(user.companyId, job.id, user.company.name).finally(() => this.#running.delete(run));
    this.#running.add(run);
    return presentJob(job, user.company.name);
  }

  async #run(companyId: number, jobId: number, companyName: string): Promise<void> {
    const { db } = this.database;
    let progress = { done: 0, total: 0 };
    let writing: Promise<void> | null = null;
    let lastWrite = 0;
    // one progress write at a time, none awaited by the export (on an in-memory SQLite it shares the connection)
    const report = (force = false) => {
      if (writing || (!force && Date.now() - lastWrite < PROGRESS_EVERY_MS)) return;
      lastWrite = Date.now();
      writing = updateProgress(db, companyId, jobId, progress.done, progress.total)
        .catch(() => {})
        .finally(() => {
          writing = null;
        });
    };
    const heartbeat = setInterval(() => report(true), HEARTBEAT_MS);
    const reader = openSnapshotReader(this.database);
    const { stream, commit } = this.#store.writer(jobId);
    let bytes = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        bytes += chunk.length;
        callback(null, chunk);
      },
    });
    const stored = pipeline(counter, stream);
    stored.catch(() => {});
    try {
      await exportCompanyFile(reader.db, companyName, counter, {
        onProgress: (now) => {
          progress = now;
          report();
        },
      });
      await stored;
      await commit();
      clearInterval(heartbeat);
      await writing;
      await updateProgress(db, companyId, jobId, progress.total, progress.total);
      await finishJob(db, companyId, jobId, { status: 'ready', bytes });
    } catch (error) {
      clearInterval(heartbeat);
      await writing;
      counter.destroy();
      stream.destroy();
      await this.#store.remove(jobId).catch(() => {});
      const message =
        error instanceof HttpError
          ? error.messages.join(' ')
          : 'The company file could not be made. Try again; if it keeps failing, tell your administrator.';
      await finishJob(db, companyId, jobId, { status: 'failed', error: message }).catch(() => {});
    } finally {
      clearInterval(heartbeat);
      await reader.close();
    }
  }

  /** The finished file of one of the company's jobs, to send. */
  async download(user: SessionUser, jobId: number) {
    const job = await findJob(this.database.db, user.companyId, jobId);
    if (!job) throw notFound(JOB_NOT_FOUND);
    const shown = presentJob(job, user.company.name);
    if (shown.status === 'failed') throw new HttpError(409, [shown.error ?? JOB_LOST]);
    if (shown.status !== 'ready') throw new HttpError(409, [JOB_NOT_READY]);
    return { job: shown, stream: this.#store.reader(jobId) };
  }

  /** Waits for the jobs this process runs (the app closes after them). */
  async close(): Promise<void> {
    await Promise.allSettled([...this.#running]);
  }
}
