import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import type { Db } from '../db/database';
import { HttpError } from '../http/errors';
import { exportCompanyFile } from '../transfer/company-file';

/** A folder for a test file's company files, removed after its last test; `exportTo` writes the next file there. */
export function companyFileFolder(label: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `wm-${label}-`));
  afterAll(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });
  let fileNumber = 0;
  return {
    dir,
    /** The company's file, exported from `db` into the folder; its path. */
    async exportTo(db: Db, company: string): Promise<string> {
      fileNumber += 1;
      const file = path.join(dir, `company-${fileNumber}.tar`);
      await exportCompanyFile(db, company, fs.createWriteStream(file));
      return file;
    },
  };
}

export const sha256 = (file: string) =>
  crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/** The lines a refused import lists (heading first). */
export async function refusal(promise: Promise<unknown>): Promise<string[]> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!error) throw new Error('the import was expected to be refused, and it was not');
  if (!(error instanceof HttpError)) throw error;
  return error.messages;
}
