import path from 'node:path';
import { Cron } from 'croner';
import { z } from 'zod';

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  // unset or empty: see listenHost
  HOST: z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()),
  DATABASE_URL: z
    .string()
    .regex(/^(sqlite:|postgres:\/\/|postgresql:\/\/)/, 'DATABASE_URL must start with sqlite: or postgres://')
    .optional(),
  SEED_DEMO: booleanFlag.default(true),
  COOKIE_SECURE: booleanFlag.default(false),
  TRUST_PROXY: booleanFlag.default(false),
  SESSION_TTL_HOURS: z.coerce
    .number()
    .positive()
    .default(24 * 14),
  SESSION_MAX_DAYS: z.coerce.number().positive().default(30),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['short', 'json']).default('short'),
  LOGIN_RATE_LIMIT: z.coerce.number().int().positive().default(100),
  CONTACT_FORM_ID: z.string().optional(),
  CONTACT_INBOX_COMPANY: z.string().optional(),
  TEST_POSTGRES_URL: z.string().optional(),
  NODE_ENV: z.string().default('development'),
  WEB_DIST_DIR: z.string().default('dist/web'),
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().positive().default(120),
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).default(10),
  // the address people reach the product at (https://wm.example.com): every printed or mailed link starts with it
  PUBLIC_URL: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .url({ protocol: /^https?$/, error: 'PUBLIC_URL must be an http:// or https:// address' })
      .transform((v) => v.replace(/\/+$/, ''))
      .optional(),
  ),
  // the time zone of times printed in reports (an IANA name such as Europe/Berlin); default UTC
  REPORT_TIME_ZONE: z
    .string()
    .refine(isTimeZone, 'REPORT_TIME_ZONE must be a time zone name such as Europe/Berlin')
    .default('UTC'),
  // automatic backups of a SQLite database: where, when (a cron pattern in local time, or off) and how many are kept
  BACKUP_DIR: z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()),
  BACKUP_SCHEDULE: z
    .string()
    .default('30 2 * * *')
    .refine((v) => v === 'off' || isCronPattern(v), {
      message: 'BACKUP_SCHEDULE must be a cron pattern (e.g. "30 2 * * *" for 02:30 every night) or off',
    }),
  BACKUP_KEEP_DAILY: z.coerce.number().int().min(1).max(1000).default(7),
  BACKUP_KEEP_WEEKLY: z.coerce.number().int().min(0).max(1000).default(4),
  READ_FROM_STANDBY: booleanFlag.default(false),
  // every JSON answer parsed with its route's declared schema before it is sent (decision 045); default: in tests
  CHECK_RESPONSES: booleanFlag.optional(),
  // webhooks (decision 044): how often each process looks for due deliveries (0: no timer; tests tick it themselves),
  // and whether plain http:// to this machine is allowed (a receiver on the same machine, tests)
  WEBHOOK_POLL_SECONDS: z.coerce.number().min(0).default(5),
  WEBHOOK_LOOPBACK_HTTP: booleanFlag.default(false),
  // real e-mail (issue 29): smtp://user:pass@host:587 or smtps://...; unset: the app shows links to copy
  SMTP_URL: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .regex(/^smtps?:\/\//, 'SMTP_URL must start with smtp:// or smtps://')
      .optional(),
  ),
  MAIL_FROM: z.string().default('Warehouse Manager <no-reply@warehouse-manager.invalid>'),
  // how often the mail worker looks for due mail; 0: never by itself (tests drive it)
  MAIL_POLL_SECONDS: z.coerce.number().min(0).default(5),
});

/** Whether the runtime knows this IANA time zone name. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function isCronPattern(pattern: string): boolean {
  try {
    new Cron(pattern, { paused: true }).stop();
    return true;
  } catch {
    return false;
  }
}

export interface BackupConfig {
  /** the backup folder; undefined: a `backups` folder next to the database file */
  dir: string | undefined;
  /** cron pattern (5 fields, or 6 with seconds) in the server's local time; null: no automatic backups */
  schedule: string | null;
  /** the newest backup of each of this many most recent days is kept */
  keepDaily: number;
  /** and the newest of each of this many most recent weeks (Monday to Sunday) */
  keepWeekly: number;
}

export type DatabaseTarget = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

export interface AppConfig {
  port: number;
  /** the address to listen on when HOST is set; without it, see `listenHost` */
  host: string | undefined;
  database: DatabaseTarget;
  seedDemo: boolean;
  cookieSecure: boolean;
  /** read the client address from X-Forwarded-For (only behind a proxy that sets it) */
  trustProxy: boolean;
  /** sliding session lifetime, renewed while used */
  sessionTtlMs: number;
  /** absolute session lifetime from sign-in */
  sessionMaxAgeMs: number;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  /** short: one human-readable line per API request and message; json: pino's JSON lines */
  logFormat: 'short' | 'json';
  /** failed sign-ins per client address within 15 minutes before the address is turned away */
  loginRateLimit: number;
  contactFormId: string | undefined;
  /** the company whose users may read the landing page's contact messages (default: the first company) */
  contactInboxCompany: string | undefined;
  testPostgresUrl: string | undefined;
  webDistDir: string;
  /** a request, its body (an upload) included, must arrive within this time, or it is answered 408 */
  requestTimeoutMs: number;
  /** on SIGTERM, how long in-flight requests may finish before the remaining connections are closed */
  shutdownGraceMs: number;
  /** PUBLIC_URL without a trailing slash: the start of every link the product prints or hands out; unset: the address the request came to */
  publicUrl: string | undefined;
  /** the time zone of report times when the browser names none */
  reportTimeZone: string;
  /** automatic backups, on SQLite only (decision 029) */
  backups: BackupConfig;
  /**
   * PostgreSQL with several hosts in DATABASE_URL: exports read a standby, which may lag a second behind (decision
   * 034); everything else reads the primary
   */
  readFromStandby: boolean;
  /** answers are checked against their routes' declared schemas (tests; decision 045) */
  checkResponses: boolean;
  /** how often the webhook worker looks for due deliveries, 0 for never (decision 044) */
  webhookPollMs: number;
  /** webhook endpoints may be http:// on 127.0.0.1 or localhost */
  webhookLoopbackHttp: boolean;
  /** real e-mail (decision 042): null without SMTP_URL, when the app shows links to copy */
  mail: MailConfig | null;
}

export interface MailConfig {
  smtpUrl: string;
  /** the From header of every mail */
  from: string;
  /** how often the outbox worker looks for due mail; 0: only when its tick is called */
  pollMs: number;
}

export const DEFAULT_SQLITE_FILE = path.resolve('data', 'warehouse.db');

export function databaseTargetFromUrl(url: string | undefined): DatabaseTarget {
  if (!url) return { kind: 'sqlite', file: DEFAULT_SQLITE_FILE };
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length);
    return { kind: 'sqlite', file: file === ':memory:' ? file : path.resolve(file) };
  }
  return { kind: 'postgres', url };
}

/** This process's environment with some variables set: for a test's app or a server process a test starts. */
export function environmentWith(overrides: Record<string, string>): NodeJS.ProcessEnv {
  return { ...process.env, ...overrides };
}

/**
 * The failover drill's own switches (`npm run test:failover`): FAILOVER_PHASES=3 runs the third phase only (while
 * working on it), FAILOVER_TIMELINE=1 prints every write's timing around each fault.
 */
export function failoverDrillOptions(env: NodeJS.ProcessEnv = process.env): {
  phases: number[] | undefined;
  timeline: boolean;
} {
  return { phases: env.FAILOVER_PHASES?.split(',').map(Number), timeline: Boolean(env.FAILOVER_TIMELINE) };
}

/**
 * Where the server listens: HOST when set; otherwise every interface, except while the demo account still has the
 * password the README publishes, when only this machine (127.0.0.1) may reach it.
 */
export function listenHost(config: AppConfig, demoPasswordInUse: boolean): string {
  if (config.host) return config.host;
  return demoPasswordInUse ? '127.0.0.1' : '0.0.0.0';
}

/** The only reader of process.env: validates it once and answers a typed configuration. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const details = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${details}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    database: databaseTargetFromUrl(e.DATABASE_URL),
    seedDemo: e.SEED_DEMO,
    cookieSecure: e.COOKIE_SECURE,
    trustProxy: e.TRUST_PROXY,
    sessionTtlMs: e.SESSION_TTL_HOURS * 3600_000,
    sessionMaxAgeMs: e.SESSION_MAX_DAYS * 24 * 3600_000,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    loginRateLimit: e.LOGIN_RATE_LIMIT,
    contactFormId: e.CONTACT_FORM_ID,
    contactInboxCompany: e.CONTACT_INBOX_COMPANY,
    testPostgresUrl: e.TEST_POSTGRES_URL,
    webDistDir: path.resolve(e.WEB_DIST_DIR),
    requestTimeoutMs: Math.round(e.REQUEST_TIMEOUT_SECONDS * 1000),
    shutdownGraceMs: Math.round(e.SHUTDOWN_GRACE_SECONDS * 1000),
    publicUrl: e.PUBLIC_URL,
    reportTimeZone: e.REPORT_TIME_ZONE,
    backups: {
      dir: e.BACKUP_DIR === undefined ? undefined : path.resolve(e.BACKUP_DIR),
      schedule: e.BACKUP_SCHEDULE === 'off' ? null : e.BACKUP_SCHEDULE,
      keepDaily: e.BACKUP_KEEP_DAILY,
      keepWeekly: e.BACKUP_KEEP_WEEKLY,
    },
    readFromStandby: e.READ_FROM_STANDBY,
    checkResponses: e.CHECK_RESPONSES ?? e.NODE_ENV === 'test',
    webhookPollMs: Math.round(e.WEBHOOK_POLL_SECONDS * 1000),
    webhookLoopbackHttp: e.WEBHOOK_LOOPBACK_HTTP,
    mail: e.SMTP_URL
      ? { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM, pollMs: Math.round(e.MAIL_POLL_SECONDS * 1000) }
      : null,
  };
}
