import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifySchema,
} from 'fastify';
import { FILE_TOO_LARGE, MAX_UPLOAD_BYTES } from '@domain/rules/capacity';
import { authRoutes } from './auth/auth.routes';
import { startHousekeeping } from './auth/housekeeping';
import { automaticBackups } from './backups/sqlite-backups';
import { guardRoutesByRole } from './auth/route-roles';
import { sessionPlugin } from './auth/session.plugin';
import type { AppConfig } from './config';
import type { DatabaseHandle } from './db/database';
import { limitBodyTime } from './http/body-timeout';
import { idempotencyKeys } from './http/idempotency';
import { HttpError, databaseFault, lostRaceConflict } from './http/errors';
import { contentSecurityPolicy, refuseCrossSiteWrites, securityHeaders } from './http/security';
import { EventFeed } from './events/event-feed';
import { startEventIndexing } from './events/event-indexing';
import { NotificationListener } from './db/notification-listener';
import { SessionCache } from './auth/session-cache';
import { loadFields } from './features/fields/field-loader';
import { eventsRoutes } from './events/events.routes';
import { featureRoutes } from './features/feature-routes';
import { serveWebBuild } from './features/app-shell/app-shell';
import { shortLogStream } from './http/short-log';
import { runAsActor } from './events/event-actor';
import { WebhookWorker } from './features/api-access/webhook-worker';
import { startMailOutbox } from './mail/mail-outbox';
import { portalSessionPlugin } from './features/portal/portal-session';
import { declareRoutes, isAnswerMismatch } from './http/declared-routes';
import { openApiRoute, registerOpenApi } from './http/openapi';

const CONNECTION_IDLE_MS = 90_000;
const KEEP_ALIVE_MS = 72_000;

/** Methods that change nothing. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
export interface RouteEntry {
  method: string;
  url: string;
  /** what the route declares (params, querystring, body, response), for the contract test (decision 045) */
  schema: FastifySchema | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    routeTable: RouteEntry[];
    /** the process's webhook worker (decision 044); tests drive it by its tick */
    webhookWorker: WebhookWorker;
  }
}

export interface AppDeps {
  config: AppConfig;
  database: DatabaseHandle;
  logger?: boolean;
  /** where request logs go (standard output by default); tests read them */
  logStream?: NodeJS.WritableStream;
}

export async function buildApp({
  config,
  database,
  logger = true,
  logStream,
}: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger
      ? {
          level: config.logLevel,
          redact: [
            'req.headers.cookie',
            'req.headers.authorization',
            'req.headers["x-checklist-key"]',
            'res.headers["set-cookie"]',
          ],
          // a checklist link's key never reaches the logs
          serializers: {
            req: (request: FastifyRequest) => ({
              method: request.method,
              url: request.url.replace(/([?&]key=)[^&]*/g, '$1[redacted]'),
              host: request.host,
              remoteAddress: request.ip,
            }),
          },
          ...(logStream
            ? { stream: logStream }
            : config.logFormat === 'short'
              ? { stream: shortLogStream() }
              : {}),
        }
      : false,
    trustProxy: config.trustProxy,
    // JSON bodies are small; the upload routes raise their own limit (vaults.routes.ts), public ones lower it
    bodyLimit: 100 * 1024,
    return503OnClosing: true,
    // a request must reach its route within this time (408 otherwise), checked every second; Node stops counting
    // once it has, so limitBodyTime below holds its body (an upload) to the same limit
    requestTimeout: config.requestTimeoutMs,
    http: { connectionsCheckingInterval: Math.min(1000, config.requestTimeoutMs / 2) },
    // a connection silent both ways this long is closed; live-update streams send a heartbeat every 25 s
    connectionTimeout: CONNECTION_IDLE_MS,
    // above the 60 s idle time-out of common proxies and load balancers, so they close idle connections first
    keepAliveTimeout: KEEP_ALIVE_MS,
    // a warehouse name in a checklist link grows several times over once percent-encoded
    routerOptions: { maxParamLength: 1000 },
    // the router's own refusals (a malformed or over-long path) answer in the API's error shape as well
    frameworkErrors: (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) =>
      error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? reply.status(414).send({ errors: ['The address is too long.'] })
        : reply.status(400).send({ errors: ['The request could not be read.'] }),
  });

  limitBodyTime(app, config.requestTimeoutMs);
  // a write sent again with its Idempotency-Key answers its first answer (decision 043); before compression, so the
  // kept answer is the route's own
  idempotencyKeys(app, database.db);

  // every route the server answers, collected as it is added, so tests can prove they cover each one
  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat())
      routeTable.push({ method, url: route.url, schema: route.schema });
  });

  // routes declare their input and answer with zod schemas; bad input is refused before the handler (decision 045)
  declareRoutes(app, { check: config.checkResponses });

  app.setErrorHandler((error: FastifyError & { errors?: unknown }, request, reply) => {
    if (error instanceof HttpError) return reply.status(error.statusCode).send({ errors: error.messages });
    if (isAnswerMismatch(error)) {
      // only while answers are checked (tests): loud, with the problems named
      request.log.error({ err: error }, 'answer does not match its declaration');
      return reply.status(500).send({ errors: [error.message] });
    }
    const lostRace = lostRaceConflict(error);
    if (lostRace) return reply.status(lostRace.statusCode).send({ errors: lostRace.messages });
    const status = error.statusCode ?? 500;
    const fault = databaseFault(error);
    if (fault) {
      database.faults.note(error);
      if (fault.statusCode === 507) request.log.error({ err: error }, 'request failed: the disk is full');
      else request.log.warn({ err: error }, 'request failed: the database is not reachable');
      return reply.status(fault.statusCode).send({ errors: fault.messages });
    }
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(500).send({ errors: ['Something went wrong on our side. Please try again.'] });
    }
    if (Array.isArray(error.errors)) return reply.status(status).send({ errors: error.errors });
    if (error.code === 'FST_REQ_FILE_TOO_LARGE' || (status === 413 && request.isMultipart())) {
      return reply.status(413).send({ errors: [FILE_TOO_LARGE] });
    }
    if (status === 413) return reply.status(413).send({ errors: ['The request is too large.'] });
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.status(415).send({ errors: ['Unsupported content type.'] });
    }
    // Fastify's own 4xx (bad JSON, bad multipart, ...): a readable message without internals
    const message = error.code?.startsWith('FST_') ? 'The request could not be read.' : error.message;
    return reply.status(status).send({ errors: [message] });
  });

  await app.register(helmet, {
    contentSecurityPolicy: contentSecurityPolicy(config.contactFormId ? ['https://formspree.io'] : []),
    crossOriginEmbedderPolicy: false,
    // sent by securityHeaders, and only over HTTPS
    strictTransportSecurity: false,
  });
  securityHeaders(app, { cookieSecure: config.cookieSecure });
  await app.register(compress, { threshold: 1024 });
  await app.register(cookie);
  await app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 5, fields: 50 } });
  await app.register(rateLimit, { global: false });
  refuseCrossSiteWrites(app);
  // PostgreSQL: the process's LISTEN connection, for the live feed and the session cache (decision 024)
  // with a PostgreSQL pair, it listens on the writable node and moves with it (decision 034)
  const primary = database.primary;
  const listener = database.postgresUrl
    ? new NotificationListener(primary ? () => primary.primaryUrl() : database.postgresUrl, app.log)
    : undefined;
  if (primary && listener) primary.onSwitch(() => listener.reconnect());
  const sessionCache = listener ? new SessionCache(listener) : undefined;
  await app.register(sessionPlugin, {
    db: database.db,
    cache: sessionCache,
    ttlMs: config.sessionTtlMs,
    maxAgeMs: config.sessionMaxAgeMs,
    secureCookie: config.cookieSecure,
  });
  // a change made through an API token records the token's name in the history (decision 044)
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.apiToken && request.user)
      runAsActor(`${request.user.username} via token ${request.apiToken.name}`, done);
    else done();
  });
  // the customer portal's own sessions and cookie (issue 29), apart from the staff's
  await app.register(portalSessionPlugin, { db: database.db, secureCookie: config.cookieSecure });
  startHousekeeping(app, database.db, { sessionMaxAgeMs: config.sessionMaxAgeMs });
  // real e-mail (issue 29, decision 042): the outbox's worker, with SMTP_URL only
  startMailOutbox(app, database.db, config.mail, config.publicUrl);
  // the history's search keys, written shortly after the writes that recorded events (decision 021)
  startEventIndexing(app, database);
  // every API route declares the role it needs (server/auth/route-roles.ts), checked once the session is read
  guardRoutesByRole(app);

  // the OpenAPI document collects every route added after it (decision 045)
  await registerOpenApi(app);

  await app.register(authRoutes, {
    db: database.db,
    limits: { failuresPerAddress: config.loginRateLimit },
  });
  // SQLite's automatic backups on their schedule (decision 029); PostgreSQL backs up with its own tools
  const backups = automaticBackups(config.backups, database.sqlite, app.log);
  if (backups.on) {
    app.addHook('onReady', async () => backups.service.start());
    app.addHook('onClose', async () => backups.service.stop());
  }
  // webhooks: one worker per process sends the outbox (decision 044); a write may have filled it, so it is nudged then
  const webhookWorker = new WebhookWorker({
    db: database.db,
    engine: database.engine,
    log: app.log,
    allowInternal: config.webhookLoopbackHttp,
  });
  app.decorate('webhookWorker', webhookWorker);
  await app.register(featureRoutes, { config, database, backups });
  // a change in a warehouse a stream watches carries its fields' new state, read once per change (decision 023)
  const feed = new EventFeed(database, listener, (companyId, fieldIds) =>
    loadFields(database.db, companyId, fieldIds),
  );
  // a request that may have written has committed once it is answered: the feed reads now, and tells the other
  // processes (decision 026)
  app.addHook('onResponse', async (request, reply) => {
    if (!READS.has(request.method) && reply.statusCode < 400) {
      feed.noteWrite();
      if (config.webhookPollMs > 0) webhookWorker.nudge();
    }
  });
  // the feed follows the log from the start, so it knows the present before the first stream opens
  app.addHook('onReady', async () => {
    sessionCache?.open();
    listener?.start();
    feed.start();
    if (config.webhookPollMs > 0) webhookWorker.start(config.webhookPollMs);
  });
  app.addHook('onClose', async () => {
    await webhookWorker.stop();
    sessionCache?.close();
    await feed.stop();
    await listener?.stop();
  });
  await app.register(eventsRoutes, { db: database.db, feed });
  openApiRoute(app);

  const shell = await serveWebBuild(app, { db: database.db, webDistDir: config.webDistDir });

  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || request.method !== 'GET' || !shell) {
      return reply.status(404).send({ errors: ['Not found'] });
    }
    // every client-side route is served the app's shell
    return shell.send(request, reply);
  });

  return app;
}
