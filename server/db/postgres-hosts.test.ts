import { describe, expect, it } from 'vitest';
import {
  chooseReadNode,
  chooseWritable,
  describeHost,
  type HostProbe,
  parsePostgresHosts,
  probeState,
} from './postgres-hosts';

const writable: HostProbe = { state: 'writable' };
const readOnly: HostProbe = { state: 'read-only' };
const unreachable: HostProbe = { state: 'unreachable' };
const fenced: HostProbe = { state: 'fenced' };

describe('parsePostgresHosts', () => {
  it('splits a libpq-style host list into one URL per host, keeping user, database and parameters', () => {
    const list = parsePostgresHosts(
      'postgres://app:s3cret@db1:5433,db2/warehouse?sslmode=require&target_session_attrs=read-write',
    );
    expect(list.hosts).toEqual([
      { host: 'db1', port: 5433 },
      { host: 'db2', port: 5432 },
    ]);
    expect(list.hosts.map((h) => list.urlFor(h))).toEqual([
      'postgres://app:s3cret@db1:5433/warehouse?sslmode=require',
      'postgres://app:s3cret@db2:5432/warehouse?sslmode=require',
    ]);
  });

  it('reads a single host, IPv6 addresses in brackets, and a URL without user or database', () => {
    expect(parsePostgresHosts('postgresql://127.0.0.1:6000').hosts).toEqual([
      { host: '127.0.0.1', port: 6000 },
    ]);
    const list = parsePostgresHosts('postgres://[::1]:5433,[fe80::2]/db');
    expect(list.hosts).toEqual([
      { host: '::1', port: 5433 },
      { host: 'fe80::2', port: 5432 },
    ]);
    expect(list.urlFor(list.hosts[0]!)).toBe('postgres://[::1]:5433/db');
    expect(describeHost(list.hosts[1]!)).toBe('[fe80::2]:5432');
  });

  it('names a host once even when the list repeats it', () => {
    expect(parsePostgresHosts('postgres://u@a:1,a:1,b:2/d').hosts).toHaveLength(2);
  });

  it('refuses a URL it cannot read with a readable message', () => {
    expect(() => parsePostgresHosts('mysql://a/b')).toThrow(/postgres:\/\//);
    expect(() => parsePostgresHosts('postgres://u@/d')).toThrow(/no database host/);
    expect(() => parsePostgresHosts('postgres://a:1,,b:2/d')).toThrow(/cannot be read/);
    expect(() => parsePostgresHosts('postgres://a:99999/d')).toThrow(/"a:99999"/);
  });
});

describe('chooseWritable', () => {
  it('takes the one writable node', () => {
    expect(chooseWritable([readOnly, writable], undefined)).toBe(1);
    expect(chooseWritable([unreachable, writable], 0)).toBe(1);
  });

  it('keeps the node written to so far while it is writable', () => {
    expect(chooseWritable([writable, writable], 1)).toBe(1);
  });

  it('has no answer while no node is writable', () => {
    expect(chooseWritable([unreachable, readOnly], 0)).toBeUndefined();
    expect(chooseWritable([], undefined)).toBeUndefined();
  });

  it('does not write to a promoted node that still refuses writes (fenced), nor keep the current one once it is', () => {
    // pg_auto_failover's stop_replication: the standby is promoted, default_transaction_read_only still on
    expect(chooseWritable([unreachable, fenced], undefined)).toBeUndefined();
    expect(chooseWritable([fenced, readOnly], 0)).toBeUndefined();
    // once it takes writes, it is the one
    expect(chooseWritable([unreachable, writable], 0)).toBe(1);
  });

  it('has no answer for two writable nodes of which neither is the current one (an old primary back too early)', () => {
    expect(chooseWritable([writable, writable], undefined)).toBeUndefined();
    expect(chooseWritable([writable, writable, unreachable], 2)).toBeUndefined();
  });
});

describe('chooseReadNode', () => {
  it('prefers a standby, then the primary', () => {
    expect(chooseReadNode([writable, readOnly], undefined)).toBe(1);
    expect(chooseReadNode([writable, unreachable], undefined)).toBe(0);
    expect(chooseReadNode([unreachable, unreachable], undefined)).toBeUndefined();
  });

  it('keeps the standby read so far while it still is one', () => {
    expect(chooseReadNode([readOnly, readOnly], 1)).toBe(1);
    expect(chooseReadNode([writable, readOnly], 1)).toBe(1);
    expect(chooseReadNode([readOnly, unreachable], 1)).toBe(0);
  });

  it('reads a fenced node (promoted, not yet taking writes) when no standby answers: it has every commit', () => {
    expect(chooseReadNode([unreachable, fenced], undefined)).toBe(1);
    expect(chooseReadNode([unreachable, fenced], 1)).toBe(1);
    expect(chooseReadNode([readOnly, fenced], 1)).toBe(0);
  });

  it('leaves a promoted standby for the next standby that answers (the old primary back)', () => {
    // the node read so far was promoted and the old primary is not back yet: read the primary meanwhile
    expect(chooseReadNode([unreachable, writable], 1)).toBe(1);
    // the old primary is back as the new standby: reads move to it
    expect(chooseReadNode([readOnly, writable], 1)).toBe(0);
  });
});

describe('probeState', () => {
  it("reads recovery and transaction_read_only as libpq's target_session_attrs=read-write does", () => {
    expect(probeState(true, 'on')).toBe('read-only');
    expect(probeState(false, 'off')).toBe('writable');
    expect(probeState(false, 'on')).toBe('fenced');
  });
});
