import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import type { DatabaseHandle } from '../../db/database';
import { findChunk, insertChunk } from './company-file-jobs.repo';

/** The length of one piece of a file kept in the database. */
const CHUNK_BYTES = 1024 * 1024;

/**
 * Where a job's finished company file is kept until it is downloaded (or replaced by the next one). PostgreSQL: in
 * the database as 1 MB chunks, so that any of several server processes can send it whichever one made it. SQLite:
 * one process on one machine, so a folder beside the database file (the database stays its own size).
 */
export interface CompanyFileStore {
  /** a stream the export writes into; `commit` makes the file downloadable once the stream has finished */
  writer(jobId: number): { stream: Writable; commit: () => Promise<void> };
  reader(jobId: number): Readable;
  remove(jobId: number): Promise<void>;
}

export function companyFileStore(database: DatabaseHandle): CompanyFileStore {
  if (database.engine === 'postgres') return chunkStore(database);
  const file = database.sqlite?.name;
  const folder =
    file && !database.sqlite?.memory
      ? path.join(path.dirname(path.resolve(file)), 'company-files')
      : path.join(os.tmpdir(), `wm-company-files-${process.pid}`);
  return folderStore(folder);
}

function chunkStore(database: DatabaseHandle): CompanyFileStore {
  const { db } = database;
  return {
    writer(jobId) {
      let seq = 0;
      let pending: Buffer[] = [];
      let length = 0;
      const flush = async () => {
        if (length === 0) return;
        const data = Buffer.concat(pending);
        pending = [];
        length = 0;
        await insertChunk(db, jobId, seq, data);
        seq += 1;
      };
      const stream = new Writable({
        write(chunk: Buffer, _encoding, callback) {
          pending.push(chunk);
          length += chunk.length;
          if (length < CHUNK_BYTES) return callback();
          flush().then(() => callback(), callback);
        },
        final(callback) {
          flush().then(() => callback(), callback);
        },
      });
      return { stream, commit: async () => {} };
    },
    reader(jobId) {
      return Readable.from(
        (async function* () {
          for (let seq = 0; ; seq += 1) {
            const chunk = await findChunk(db, jobId, seq);
            if (!chunk) return;
            yield chunk;
          }
        })(),
      );
    },
    // the chunks go with their job row (on delete cascade)
    async remove() {},
  };
}

function folderStore(folder: string): CompanyFileStore {
  const fileOf = (jobId: number) => path.join(folder, `company-file-${jobId}.tar`);
  return {
    writer(jobId) {
      fs.mkdirSync(folder, { recursive: true });
      const partial = `${fileOf(jobId)}.partial`;
      return {
        stream: fs.createWriteStream(partial),
        commit: async () => fs.promises.rename(partial, fileOf(jobId)),
      };
    },
    reader: (jobId) => fs.createReadStream(fileOf(jobId)),
    async remove(jobId) {
      await fs.promises.rm(fileOf(jobId), { force: true });
      await fs.promises.rm(`${fileOf(jobId)}.partial`, { force: true });
    },
  };
}
