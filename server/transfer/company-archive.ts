import crypto from 'node:crypto';
import fs from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import tar from 'tar-stream';
import type { TenantTable } from './transfer.repo';
import type { EXPORT_FORMAT } from './transfer-format';
import { TABLES, TABLE_RULES, entityTables } from './transfer-format';

/**
 * The company file (issue 25, decision 028): a tar archive of one NDJSON member per table (`tables/<table>.ndjson`,
 * the tables in TABLE_RULES order, so every reference points to a member read before), each attachment's bytes as
 * `attachments/<id>` right after the attachments' rows, and `manifest.json` last, with the format, the company, the
 * row count of each table and the SHA-256 of every member. Written and read as a stream, member by member.
 */
export const ARCHIVE_VERSION = 2;
export const MANIFEST = 'manifest.json';
export const tableMember = (table: TenantTable) => `tables/${table}.ndjson`;
export const attachmentMember = (id: number) => `attachments/${id}`;

export interface Manifest {
  format: typeof EXPORT_FORMAT;
  version: typeof ARCHIVE_VERSION;
  /** `locale`: absent from files written before companies had one */
  company: { name: string; created_at: string; locale?: string };
  /** rows per table */
  rows: Record<TenantTable, number>;
  /** every other member of the archive: its SHA-256 (hex) and length in bytes */
  members: Record<string, { sha256: string; bytes: number }>;
}

/** The tables some column of another row points into: the ones whose ids the transfer has to keep while it streams. */
export const REFERENCED_TABLES: ReadonlySet<TenantTable> = new Set(
  TABLES.flatMap((table) =>
    Object.values(TABLE_RULES[table] as Record<string, { kind: string; table?: TenantTable }>).flatMap(
      (rule) => (rule.kind === 'entity' ? entityTables() : rule.table ? [rule.table] : []),
    ),
  ),
);

/**
 * A set of ids kept compactly: 8 bytes an id in a typed array while they come in rising order (as every file the app
 * writes has them), a plain Set only for a file whose ids do not rise. `indexOf` is the position in the rising list.
 */
export class IdSet {
  #sorted = new Float64Array(1024);
  #length = 0;
  #loose: Set<number> | null = null;

  /** false when the id was already in the set */
  add(id: number): boolean {
    if (this.#loose) {
      if (this.#loose.has(id)) return false;
      this.#loose.add(id);
      return true;
    }
    if (this.#length === 0 || id > this.#sorted[this.#length - 1]!) {
      if (this.#length === this.#sorted.length) {
        const grown = new Float64Array(this.#sorted.length * 2);
        grown.set(this.#sorted);
        this.#sorted = grown;
      }
      this.#sorted[this.#length++] = id;
      return true;
    }
    if (this.has(id)) return false;
    this.#loose = new Set(this.#sorted.subarray(0, this.#length));
    this.#loose.add(id);
    return true;
  }

  has(id: number): boolean {
    return this.#loose ? this.#loose.has(id) : this.indexOf(id) >= 0;
  }

  /** the id's position from 0 in the rising list; -1 when absent (only for a set whose ids rose) */
  indexOf(id: number): number {
    let low = 0;
    let high = this.#length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const value = this.#sorted[middle]!;
      if (value === id) return middle;
      if (value < id) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }

  /** the id at a position of the rising list */
  idAt(index: number): number {
    return this.#sorted[index]!;
  }

  get size(): number {
    return this.#loose ? this.#loose.size : this.#length;
  }
}

const sha256 = () => crypto.createHash('sha256');

/** Writes an archive member by member; every member gets the same header fields, so equal data makes equal files. */
export class ArchiveWriter {
  readonly #pack = tar.pack();
  readonly #done: Promise<void>;
  readonly members: Manifest['members'] = {};

  constructor(out: Writable) {
    this.#done = new Promise((resolve, reject) => {
      out.on('error', reject);
      out.on('finish', () => resolve());
      this.#pack.on('error', reject);
    });
    this.#pack.pipe(out);
  }

  #header(name: string, size: number) {
    return { name, size, mode: 0o644, mtime: new Date(0), uid: 0, gid: 0 };
  }

  async addBuffer(name: string, content: Buffer, listed = true): Promise<void> {
    if (listed)
      this.members[name] = { sha256: sha256().update(content).digest('hex'), bytes: content.length };
    await new Promise<void>((resolve, reject) => {
      this.#pack.entry(this.#header(name, content.length), content, (error) =>
        error ? reject(error) : resolve(),
      );
    });
  }

  /** a member whose bytes are in a file already (a spooled table), with the hash taken while it was written */
  async addFile(name: string, file: string, hash: { sha256: string; bytes: number }): Promise<void> {
    this.members[name] = hash;
    await new Promise<void>((resolve, reject) => {
      const entry = this.#pack.entry(this.#header(name, hash.bytes), (error) =>
        error ? reject(error) : resolve(),
      );
      const source = fs.createReadStream(file);
      source.on('error', reject);
      source.pipe(entry);
    });
  }

  async finish(): Promise<void> {
    this.#pack.finalize();
    await this.#done;
  }

  destroy(error: Error): void {
    this.#pack.destroy(error);
  }
}

/** A table's NDJSON spooled to a file (a tar header needs the length first), hashed and counted as it is written. */
export class SpoolFile {
  readonly #stream: fs.WriteStream;
  readonly #hash = sha256();
  bytes = 0;
  rows = 0;

  constructor(readonly file: string) {
    this.#stream = fs.createWriteStream(file);
  }

  async writeRow(row: unknown): Promise<void> {
    const line = Buffer.from(`${JSON.stringify(row)}\n`);
    this.#hash.update(line);
    this.bytes += line.length;
    this.rows += 1;
    if (!this.#stream.write(line))
      await new Promise<void>((resolve) => this.#stream.once('drain', () => resolve()));
  }

  async close(): Promise<{ sha256: string; bytes: number }> {
    await new Promise<void>((resolve, reject) => {
      this.#stream.on('error', reject);
      this.#stream.end(() => resolve());
    });
    return { sha256: this.#hash.digest('hex'), bytes: this.bytes };
  }
}

export interface Member {
  name: string;
  /** the length its header announces */
  size: number;
  type: string;
  stream: Readable;
}

/** Why an archive could not be read to its end, in words for the person holding the file. */
export class ArchiveDamaged extends Error {}

/**
 * Reads the archive member by member: `onMember` gets each one and must read its stream to the end (or not at all).
 * A file cut short or that is no tar archive rejects with ArchiveDamaged naming the member it broke in.
 */
export async function readArchive(file: string, onMember: (member: Member) => Promise<void>): Promise<void> {
  const extract = tar.extract();
  let current: string | null = null;
  let count = 0;
  await new Promise<void>((resolve, reject) => {
    const fail = (error: unknown) => {
      if (error instanceof ArchiveDamaged || !(error instanceof Error) || !isTarError(error)) reject(error);
      else
        reject(
          new ArchiveDamaged(
            current
              ? `the archive ends in the middle of member ${current} (the file is cut short)`
              : count === 0
                ? 'the file is not a company file (no tar archive)'
                : 'the archive is cut short or damaged after its last whole member',
          ),
        );
    };
    extract.on('entry', (header, stream, next) => {
      current = header.name;
      count += 1;
      let ended = false;
      stream.on('end', () => {
        ended = true;
      });
      onMember({ name: header.name, size: header.size, type: header.type, stream }).then(
        () => {
          const go = () => {
            current = null;
            next();
          };
          if (ended) go();
          else {
            stream.on('end', go);
            stream.resume();
          }
        },
        (error: unknown) => {
          extract.destroy(error as Error);
          fail(error);
        },
      );
    });
    extract.on('error', fail);
    extract.on('finish', () => resolve());
    const input = fs.createReadStream(file);
    input.on('error', reject);
    input.pipe(extract);
  });
}

function isTarError(error: Error): boolean {
  return /Unexpected end of data|Invalid tar header|Invalid checksum|unexpected end/i.test(error.message);
}

/** A member's bytes as they come, hashed; `onChunk` sees each piece. Resolves with the hash and length. */
export async function readMember(
  member: Member,
  onChunk: (chunk: Buffer) => void | Promise<void> = () => {},
): Promise<{ sha256: string; bytes: number }> {
  const hash = sha256();
  let bytes = 0;
  for await (const chunk of member.stream as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
    await onChunk(chunk);
  }
  return { sha256: hash.digest('hex'), bytes };
}

/** Splits a member into lines as they come (numbered from 1), without holding more than the current line. */
export function lineSplitter(onLine: (line: string, number: number) => void | Promise<void>) {
  let rest = Buffer.alloc(0);
  let number = 0;
  return {
    async push(chunk: Buffer) {
      let data = rest.length > 0 ? Buffer.concat([rest, chunk]) : chunk;
      let newline = data.indexOf(10);
      while (newline >= 0) {
        number += 1;
        await onLine(data.subarray(0, newline).toString('utf8'), number);
        data = data.subarray(newline + 1);
        newline = data.indexOf(10);
      }
      rest = Buffer.from(data);
    },
    async end() {
      if (rest.length > 0) {
        number += 1;
        await onLine(rest.toString('utf8'), number);
        rest = Buffer.alloc(0);
      }
    },
  };
}

/** Whether the file starts like a tar archive (a company file of version 2) rather than JSON (version 1). */
export function looksLikeArchive(file: string): boolean {
  const handle = fs.openSync(file, 'r');
  try {
    const head = Buffer.alloc(512);
    const read = fs.readSync(handle, head, 0, 512, 0);
    return read === 512 && head.subarray(257, 262).toString('latin1') === 'ustar';
  } finally {
    fs.closeSync(handle);
  }
}
