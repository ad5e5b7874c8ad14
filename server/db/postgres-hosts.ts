/**
 * A PostgreSQL URL with several hosts, as libpq writes it (decision 034):
 * `postgres://user:password@db1:5432,db2:5432/warehouse?sslmode=require`. node-postgres connects to one host only,
 * so the list is split into one URL per host here, and the app finds the writable one itself (`primary-pool.ts`).
 */
export interface PostgresHost {
  host: string;
  port: number;
}

export interface PostgresHostList {
  hosts: PostgresHost[];
  /** the URL of one host, with the user, password, database and parameters of the original */
  urlFor(host: PostgresHost): string;
}

const DEFAULT_PORT = 5432;

// libpq's own choice of session: the app always looks for the writable node itself, so the parameter is dropped
const DROPPED_PARAMETERS = ['target_session_attrs'];

/** `db1:5432`, `db2` (port 5432) or `[::1]:5433`; undefined when it is not one */
function parseHost(text: string): PostgresHost | undefined {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  const plain = /^([^:[\]]+)(?::(\d+))?$/.exec(text);
  const match = bracketed ?? plain;
  if (!match) return undefined;
  const port = match[2] === undefined ? DEFAULT_PORT : Number(match[2]);
  if (!Number.isInteger(port) || port < 1 || port > 65535) return undefined;
  return { host: match[1]!, port };
}

function hostText({ host, port }: PostgresHost): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** Names a host as the health check shows it: `db1:5432`. */
export function describeHost(host: PostgresHost): string {
  return hostText(host);
}

/** Splits a `postgres://` URL into its hosts; throws a readable error for a URL it cannot read. */
export function parsePostgresHosts(url: string): PostgresHostList {
  const scheme = /^(postgres(?:ql)?:\/\/)/.exec(url)?.[1];
  if (!scheme) throw new Error('DATABASE_URL must start with postgres:// or postgresql://');
  const rest = url.slice(scheme.length);
  // user info ends at the last @ before the path (a password may hold an @ once percent-encoded, but be lenient)
  const pathStart = rest.search(/[/?]/);
  const authority = pathStart < 0 ? rest : rest.slice(0, pathStart);
  const tail = pathStart < 0 ? '' : rest.slice(pathStart);
  const at = authority.lastIndexOf('@');
  const userInfo = at < 0 ? '' : authority.slice(0, at + 1);
  const hostPart = authority.slice(at + 1);
  if (hostPart === '') throw new Error('DATABASE_URL names no database host');
  const hosts: PostgresHost[] = [];
  for (const text of hostPart.split(',')) {
    const host = parseHost(text.trim());
    if (!host) throw new Error(`DATABASE_URL has a host that cannot be read: "${text}"`);
    if (!hosts.some((h) => h.host === host.host && h.port === host.port)) hosts.push(host);
  }
  const queryStart = tail.indexOf('?');
  const dbPath = queryStart < 0 ? tail : tail.slice(0, queryStart);
  const params = new URLSearchParams(queryStart < 0 ? '' : tail.slice(queryStart + 1));
  for (const name of DROPPED_PARAMETERS) params.delete(name);
  const query = params.size > 0 ? `?${params.toString()}` : '';
  return {
    hosts,
    urlFor: (host) => `${scheme}${userInfo}${hostText(host)}${dbPath}${query}`,
  };
}

/**
 * What asking one host found: `writable` (the primary, taking writes), `read-only` (a standby, in recovery),
 * `fenced` (out of recovery but refusing writes: `default_transaction_read_only` is on, as pg_auto_failover leaves a
 * promoted standby until the old primary is known to be demoted, and as libpq's `target_session_attrs=read-write`
 * checks), or `unreachable` (no answer).
 */
export type HostProbe =
  { state: 'writable' } | { state: 'read-only' } | { state: 'fenced' } | { state: 'unreachable' };

/** Reads a host's answer to `select pg_is_in_recovery(), current_setting('transaction_read_only')`. */
export function probeState(inRecovery: boolean, transactionReadOnly: string): HostProbe['state'] {
  if (inRecovery) return 'read-only';
  return transactionReadOnly === 'on' ? 'fenced' : 'writable';
}

/**
 * The node to write to, given what each host answered (in the order of the host list), or undefined when there is
 * none. A fenced node (promoted, but not taking writes yet) is none. The node written to so far stays chosen while it
 * is writable. Two writable nodes with neither the current
 * one (an old primary that runs again and has not yet learnt it was replaced) is no answer: writes wait (503) until
 * only one is left, rather than going to a node the cluster has given up.
 */
export function chooseWritable(
  probes: readonly HostProbe[],
  current: number | undefined,
): number | undefined {
  const writable = probes.flatMap((probe, index) => (probe.state === 'writable' ? [index] : []));
  if (current !== undefined && writable.includes(current)) return current;
  return writable.length === 1 ? writable[0] : undefined;
}

/**
 * The node for reads that may lag behind (statistics, exports): the standby read so far while it still is one, else
 * another standby, else the primary (the one read so far first; a fenced one, being promoted, has every commit too);
 * undefined when no node answers. A standby that was promoted is read only until a standby answers again (the old
 * primary back as the new standby), so that the reads do not stay on the primary for good after the first failover.
 */
export function chooseReadNode(
  probes: readonly HostProbe[],
  current: number | undefined,
): number | undefined {
  if (current !== undefined && probes[current]?.state === 'read-only') return current;
  const standby = probes.findIndex((probe) => probe.state === 'read-only');
  if (standby >= 0) return standby;
  const primaryLike = (probe: HostProbe | undefined) =>
    probe?.state === 'writable' || probe?.state === 'fenced';
  if (current !== undefined && primaryLike(probes[current])) return current;
  const primary = probes.findIndex(primaryLike);
  return primary >= 0 ? primary : undefined;
}
