// The primary pool (decision 034) against a real PostgreSQL: a node pg_auto_failover has promoted but not yet opened
// for writes, a host that hangs like a frozen machine, and a pool whose connections are all taken.
import net from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { scratchDatabase } from '../test/scratch-database';
import { isDatabaseUnavailable } from './database';
import { parsePostgresHosts } from './postgres-hosts';
import { ConnectionWaitError, NoWritableNodeError, PrimaryPool } from './primary-pool';

const postgresConfigured = loadConfig().testPostgresUrl !== undefined;

async function eventually<T>(attempt: () => Promise<T>, what: string, limitMs = 10_000): Promise<T> {
  const until = Date.now() + limitMs;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (Date.now() > until) throw new Error(`gave up waiting: ${what} (${String(error)})`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** A host that accepts connections and never answers, as a frozen machine's kernel does. */
async function silentHost() {
  let accepted = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    accepted: () => accepted,
    /** connections still open: a probe gives up on the host by closing its connection */
    open: () => sockets.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The scratch database's URL with `extraHosts` listed before its own host, as DATABASE_URL lists a pair. */
function hostList(url: string, extraHosts: string[] = []) {
  const u = new URL(url);
  const user = u.username ? `${u.username}${u.password ? `:${u.password}` : ''}@` : '';
  return parsePostgresHosts(
    `${u.protocol}//${user}${[...extraHosts, u.host].join(',')}${u.pathname}${u.search}`,
  );
}

const smallPool = (url: string) => {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  pool.on('error', () => undefined);
  return pool;
};

describe.skipIf(!postgresConfigured)('the primary pool on a real PostgreSQL', () => {
  let url: string;
  let drop: () => Promise<void>;
  let databaseName: string;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: loadConfig().testPostgresUrl });
    await client.connect();
    await client.query(statement);
    await client.end();
  };
  /** Every new session on the database is read-only, as pg_auto_failover leaves a standby it has just promoted. */
  const fence = () => admin(`alter database ${databaseName} set default_transaction_read_only = on`);
  const unfence = () => admin(`alter database ${databaseName} reset default_transaction_read_only`);

  beforeAll(async () => {
    ({ url, drop } = await scratchDatabase('postgres', 'primary_pool'));
    databaseName = new URL(url).pathname.slice(1);
  });
  afterAll(async () => {
    await drop();
  });

  it('does not write to a promoted node that still refuses writes (503), and writes there once it takes them', async () => {
    await fence();
    const pool = new PrimaryPool(hostList(url), smallPool);
    try {
      const refused = await pool.connect().catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(NoWritableNodeError);
      expect(isDatabaseUnavailable(refused)).toBe(true);
      expect(pool.writableNode).toBeUndefined();

      await unfence();
      const client = await eventually(() => pool.connect(), 'the node taking writes');
      const { rows } = await client.query<{ ro: string }>(
        `select current_setting('transaction_read_only') as ro`,
      );
      client.release();
      expect(rows[0]!.ro).toBe('off');
      expect(pool.writableNode).toBe(new URL(url).host);
    } finally {
      await unfence();
      await pool.end();
    }
  });

  it('while no node takes writes, answers each request at once instead of searching for it: a host that hangs is asked a few times, not once a request', async () => {
    const frozen = await silentHost();
    await fence();
    const pool = new PrimaryPool(hostList(url, [`127.0.0.1:${frozen.port}`]), smallPool);
    try {
      // the process's first request waits for the first search (the frozen host answers nothing within its time)
      expect(await pool.connect().catch((error: unknown) => error)).toBeInstanceOf(NoWritableNodeError);
      const answers: unknown[] = [];
      for (let i = 0; i < 30; i++) answers.push(await pool.connect().catch((error: unknown) => error));
      expect(answers.every((answer) => answer instanceof NoWritableNodeError)).toBe(true);
      // before, each of the 30 waited for a search of its own, and each search opened a connection to the frozen host
      expect(frozen.accepted()).toBeLessThanOrEqual(5);

      // the promoted node opens for writes: it is found although the other host still hangs
      await unfence();
      const client = await eventually(() => pool.connect(), 'the node taking writes');
      client.release();
      expect(pool.writableNode).toBe(new URL(url).host);
    } finally {
      await unfence();
      await pool.end();
      await frozen.close();
    }
  });

  it('takes the node that answers it takes writes without waiting out a host that hangs', async () => {
    const frozen = await silentHost();
    const pool = new PrimaryPool(hostList(url, [`127.0.0.1:${frozen.port}`]), smallPool);
    try {
      const client = await pool.connect();
      client.release();
      expect(pool.writableNode).toBe(new URL(url).host);
      // the search did not wait until it gave up on the frozen host: its connection is still open
      expect(frozen.accepted()).toBe(1);
      expect(frozen.open()).toBe(1);
    } finally {
      await pool.end();
      await frozen.close();
    }
  });

  it('refuses a request (503) that found every connection taken for too long; the connection it waited for serves the next one', async () => {
    const pool = new PrimaryPool(hostList(url), smallPool);
    try {
      const holder = await pool.connect();
      const refused = await pool.connect().catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ConnectionWaitError);
      expect(isDatabaseUnavailable(refused)).toBe(true);
      holder.release();
      // the pool has one connection: the request that gave up must not keep it
      const next = await pool.connect();
      const { rows } = await next.query<{ one: number }>('select 1 as one');
      next.release();
      expect(rows[0]!.one).toBe(1);
    } finally {
      await pool.end();
    }
  });
});
