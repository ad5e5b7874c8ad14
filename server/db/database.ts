import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  type SqliteDatabase,
  type SqliteDialectConfig,
} from 'kysely';
import pg from 'pg';
import type { DatabaseTarget } from '../config';
import type { Database } from './schema';

export type Engine = 'sqlite' | 'postgres';
export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  engine: Engine;
  close(): Promise<void>;
  /** the raw SQLite connection (online backup, integrity checks); undefined on PostgreSQL */
  sqlite?: SQLite.Database;
  /** the connection URL on PostgreSQL, for a LISTEN connection of its own */
  postgresUrl?: string;
}

const PG_INT8 = 20;
const PG_NUMERIC = 1700;

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every statement anew, and preparing costs about as much as running a small query. The same
 * SQL texts come back request after request, so their prepared statements are kept (least recently used out).
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      const cached = cache.get(sql);
      // a statement still being iterated (a streamed query) cannot run again until it is done
      if (cached && !cached.busy) {
        cache.delete(sql);
        cache.set(sql, cached);
        return cached;
      }
      const statement = sqlite.prepare(sql);
      if (!cached) {
        cache.set(sql, statement);
        if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      }
      return statement;
    },
  };
}

/**
 * Kysely opens SQLite transactions with a plain (deferred) BEGIN. A deferred transaction that reads and then
 * writes while another connection (the CLI, a backup, a test's factories) has written since gets SQLITE_BUSY at
 * once, without waiting for the busy timeout. BEGIN IMMEDIATE takes the write lock up front, so it waits instead.
 */
class ImmediateTransactionDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateTransactionDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver(): Driver {
    return new ImmediateTransactionDriver(this.#config);
  }
}

export function openDatabase(target: DatabaseTarget): DatabaseHandle {
  if (target.kind === 'sqlite') {
    if (target.file !== ':memory:') fs.mkdirSync(path.dirname(target.file), { recursive: true });
    const sqlite = new SQLite(target.file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    const db = new Kysely<Database>({
      dialect: new ImmediateTransactionDialect({ database: withStatementCache(sqlite) }),
    });
    return { db, engine: 'sqlite', sqlite, close: () => db.destroy() };
  }
  const pool = new pg.Pool({
    connectionString: target.url,
    max: 10,
    types: {
      getTypeParser: ((oid: number, format?: string) =>
        oid === PG_INT8 || oid === PG_NUMERIC
          ? (value: string) => Number(value)
          : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    },
  });
  // an idle connection dropped by the server (restart, failover) must not crash the process; the pool reconnects
  pool.on('error', () => undefined);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, engine: 'postgres', postgresUrl: target.url, close: () => db.destroy() };
}

interface DriverError {
  code?: string;
}

/** A unique constraint refused the write (two people took the same slot, a duplicate name, ...). */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as DriverError | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

export function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as DriverError | null)?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

export function nowIso(): string {
  return new Date().toISOString();
}
