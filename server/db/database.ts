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
import { describeHost, parsePostgresHosts } from './postgres-hosts';
import { PrimaryPool } from './primary-pool';
import type { Database } from './schema';

export type Engine = 'sqlite' | 'postgres';
export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  /**
   * For reads that may lag a second behind the writes (statistics, exports): a standby when DATABASE_URL names
   * several hosts and READ_FROM_STANDBY is on (decision 034); otherwise the same as `db`.
   */
  readDb: Db;
  engine: Engine;
  close(): Promise<void>;
  /** the raw SQLite connection (online backup, integrity checks); undefined on PostgreSQL */
  sqlite?: SQLite.Database;
  /** the connection URL on PostgreSQL (possibly with several hosts) */
  postgresUrl?: string;
  /** PostgreSQL with several hosts: finds and follows the writable node (decision 034) */
  primary?: PrimaryPool;
  /** PostgreSQL: the node written to now (`db1:5432`), undefined while there is none */
  writableNode?: () => string | undefined;
  /** database faults seen lately (a full disk), for the health check */
  faults: FaultLog;
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
  constructor(
    config: SqliteDialectConfig,
    private readonly sqlite: SQLite.Database,
  ) {
    super(config);
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  /**
   * After some errors (SQLITE_FULL, SQLITE_IOERR, SQLITE_NOMEM, ...) SQLite has already rolled the transaction back
   * itself. A second ROLLBACK then fails with "no transaction is active", and that error would replace the real one.
   */
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (!this.sqlite.inTransaction) return;
    await super.rollbackTransaction(connection);
  }
}

class ImmediateTransactionDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  readonly #sqlite: SQLite.Database;
  constructor(config: SqliteDialectConfig, sqlite: SQLite.Database) {
    super(config);
    this.#config = config;
    this.#sqlite = sqlite;
  }
  override createDriver(): Driver {
    return new ImmediateTransactionDriver(this.#config, this.#sqlite);
  }
}

/** How long the health check reports failing writes after a disk-full error. */
const DISK_FULL_MEMORY_MS = 60_000;

/** Remembers database faults the health check reports after the failed request has long been answered. */
export class FaultLog {
  private diskFullAt: number | undefined;

  note(error: unknown): void {
    if (isDiskFull(error)) this.diskFullAt = Date.now();
  }

  /** why writes fail right now, as far as recent errors tell; undefined when none did */
  writesFailing(now = Date.now()): 'disk full' | undefined {
    return this.diskFullAt !== undefined && now - this.diskFullAt < DISK_FULL_MEMORY_MS
      ? 'disk full'
      : undefined;
  }
}

/** Statements longer than this, or with more parameters (bulk inserts, imports), are sent unnamed. */
const PG_NAMED_MAX_SQL = 8_000;
const PG_NAMED_MAX_PARAMETERS = 100;
/** How many different statements get a name; a connection keeps each one it has used until it closes. */
const PG_NAMED_MAX_STATEMENTS = 1_000;

/**
 * Sends the app's parameterised statements as named prepared statements (decision 014): PostgreSQL then parses and
 * plans each one once per connection instead of on every run, which was a third of its CPU per vault write. The
 * name follows the SQL text, so the same statement gets the same name on every connection of the process.
 */
function withNamedStatements(client: pg.PoolClient, names: Map<string, string>): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (text: unknown, values?: unknown, callback?: unknown) => {
    if (
      typeof text !== 'string' ||
      !Array.isArray(values) ||
      values.length === 0 ||
      values.length > PG_NAMED_MAX_PARAMETERS ||
      text.length > PG_NAMED_MAX_SQL
    ) {
      return query(text, values, callback);
    }
    let name = names.get(text);
    if (name === undefined && names.size < PG_NAMED_MAX_STATEMENTS) {
      name = `wm${names.size + 1}`;
      names.set(text, name);
    }
    return query(name === undefined ? { text, values } : { name, text, values }, callback);
  };
}

/**
 * A request waits this long for a pooled connection (a free one, or a new one PostgreSQL accepts), then fails (503)
 * instead of hanging. A database that is down refuses at once; this bounds a busy pool and a silent network.
 */
const PG_CONNECT_TIMEOUT_MS = 10_000;

export interface OpenOptions {
  /** PostgreSQL with several hosts: reads that may lag behind (`readDb`) go to a standby */
  readFromStandby?: boolean;
}

export function openDatabase(target: DatabaseTarget, options: OpenOptions = {}): DatabaseHandle {
  if (target.kind === 'sqlite') {
    if (target.file !== ':memory:') fs.mkdirSync(path.dirname(target.file), { recursive: true });
    const sqlite = new SQLite(target.file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    const db = new Kysely<Database>({
      dialect: new ImmediateTransactionDialect({ database: withStatementCache(sqlite) }, sqlite),
    });
    return { db, readDb: db, engine: 'sqlite', sqlite, faults: new FaultLog(), close: () => db.destroy() };
  }
  const hostList = parsePostgresHosts(target.url);
  const statementNames = new Map<string, string>();
  const makePool = (url: string) => createPostgresPool(url, statementNames);
  if (hostList.hosts.length === 1) {
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: makePool(target.url) }) });
    return {
      db,
      readDb: db,
      engine: 'postgres',
      postgresUrl: target.url,
      writableNode: () => describeHost(hostList.hosts[0]!),
      faults: new FaultLog(),
      close: () => db.destroy(),
    };
  }
  // several hosts: a primary and its standby (decision 034); the app finds the writable one itself
  const primary = new PrimaryPool(hostList, makePool);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: primary }) });
  const readDb = options.readFromStandby
    ? new Kysely<Database>({
        dialect: new PostgresDialect({ pool: new PrimaryPool(hostList, makePool, 'standby') }),
      })
    : db;
  return {
    db,
    readDb,
    engine: 'postgres',
    postgresUrl: target.url,
    primary,
    writableNode: () => primary.writableNode,
    faults: new FaultLog(),
    close: async () => {
      if (readDb !== db) await readDb.destroy();
      await db.destroy();
    },
  };
}

/** A pool of connections to one PostgreSQL host, set up as the app needs them. */
function createPostgresPool(url: string, statementNames: Map<string, string>): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
    // notice a server that vanished without closing the connection (a failover, a cut network)
    keepAlive: true,
    types: {
      getTypeParser: ((oid: number, format?: string) =>
        oid === PG_INT8 || oid === PG_NUMERIC
          ? (value: string) => Number(value)
          : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    },
  });
  // A connection dropped by the server (restart, failover, pg_terminate_backend) emits 'error'. The pool listens on
  // idle connections only, and an 'error' event nobody listens to ends the process, so every connection gets a
  // listener of its own for its whole life. The query running on it fails by itself (503); the pool drops the broken
  // connection when it comes back and opens fresh ones.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
    // the connection's own slot for the kept counts (migration 0016); it runs before the first query on the
    // connection. Before that migration (the first connection of a new database) there is no sequence yet, and the
    // triggers fall back to the backend's process id. On a standby (reads only) the sequence cannot advance.
    client
      .query(`select set_config('wm.slot', (nextval('wm_connection_slots') % 64)::text, false)`)
      .catch(() => undefined);
    withNamedStatements(client, statementNames);
  });
  pool.on('error', () => undefined);
  return pool;
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

const UNREACHABLE_CODES = new Set([
  // the network: refused, reset, unreachable, timed out, unknown host
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  // PostgreSQL: too many connections, shutting down, crashed, starting up, refusing connections
  '53300',
  '57P01',
  '57P02',
  '57P03',
  '57P05',
  // a write reached a node that has just become a standby (a failover): the writable node is elsewhere now
  '25006',
  // SQLite: the database file cannot be opened
  'SQLITE_CANTOPEN',
]);

// node-postgres words its own connection failures without a code
const UNREACHABLE_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /is not queryable/,
  /^Client has encountered a connection error/,
];

/** The database cannot be reached right now (down, restarting, unreachable); trying again later may work. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (error === null || typeof error !== 'object') return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || code.startsWith('08'))) return true;
  if (typeof message === 'string' && UNREACHABLE_MESSAGES.some((pattern) => pattern.test(message)))
    return true;
  // a connection to a host name with several addresses fails with one error per address
  if (error instanceof AggregateError) return error.errors.some(isDatabaseUnavailable);
  return false;
}

/** The database's disk is full: SQLITE_FULL, PostgreSQL's disk_full (53100), or the file system's ENOSPC. */
export function isDiskFull(error: unknown): boolean {
  const code = (error as DriverError | null)?.code;
  return code === 'SQLITE_FULL' || code === '53100' || code === 'ENOSPC';
}

export function nowIso(): string {
  return new Date().toISOString();
}
