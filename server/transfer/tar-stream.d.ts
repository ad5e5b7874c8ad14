// The part of tar-stream 2.x (no types of its own) the company file uses (decision 028).
declare module 'tar-stream' {
  import type { Readable, Writable } from 'node:stream';

  export interface Headers {
    name: string;
    size?: number;
    mode?: number;
    mtime?: Date;
    type?: string;
    uid?: number;
    gid?: number;
  }

  export interface Pack extends Readable {
    entry(headers: Headers, buffer: Buffer | string, callback?: (error?: Error | null) => void): Writable;
    entry(headers: Headers, callback?: (error?: Error | null) => void): Writable;
    finalize(): void;
  }

  export type EntryListener = (
    headers: Required<Pick<Headers, 'name' | 'size' | 'type'>> & Headers,
    stream: Readable,
    next: (error?: unknown) => void,
  ) => void;

  export interface Extract extends Writable {
    on(event: 'entry', listener: EntryListener): this;
    on(event: 'finish' | 'close', listener: () => void): this;
    on(event: 'error', listener: (error: Error) => void): this;
  }

  export function pack(): Pack;
  export function extract(): Extract;
}
