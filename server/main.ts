import { buildApp } from './app';
import { demoPasswordInUse } from './auth/auth.service';
import { listenHost, loadConfig } from './config';
import { isDatabaseUnavailable, openDatabase } from './db/database';
import { migrateToLatest } from './db/migrate';
import { DEMO_LOGIN, seedDemoIfEmpty } from './demo-seed';

const config = loadConfig();
const database = openDatabase(config.database, { readFromStandby: config.readFromStandby });
await migrateToLatest(database.db);

const app = await buildApp({ config, database });

if (config.seedDemo && (await seedDemoIfEmpty(database.db))) {
  app.log.info(`Seeded the demo company. Sign in with ${DEMO_LOGIN.email} / ${DEMO_LOGIN.password}`);
}

// A safety net behind the error listeners on every database connection: a lost connection that still slips through
// is logged and the server keeps running (the pool opens fresh connections). Any other surprise ends the process,
// as it would without this handler.
process.on('uncaughtException', (error) => {
  if (isDatabaseUnavailable(error)) {
    app.log.error(
      { err: error },
      'a database connection failed outside any request; the server keeps running',
    );
    return;
  }
  app.log.fatal({ err: error }, 'uncaught exception');
  process.exit(1);
});

// after the grace period the connections still open (a stalled upload, a client that never reads) are cut; if the
// shutdown still has not finished a few seconds later, the process ends anyway
const HARD_STOP_AFTER_GRACE_MS = 5_000;

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info(`${signal} received: finishing in-flight requests`);
  setTimeout(() => {
    app.log.warn('shutdown: closing the connections still open after the grace period');
    app.server.closeAllConnections();
  }, config.shutdownGraceMs).unref();
  setTimeout(() => {
    app.log.error('shutdown did not finish in time; exiting');
    process.exit(1);
  }, config.shutdownGraceMs + HARD_STOP_AFTER_GRACE_MS).unref();
  await app.close();
  await database.close();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

// while the demo account keeps its published password, only this machine can reach the server (unless HOST says)
const demoOpen = await demoPasswordInUse(database.db, DEMO_LOGIN);
const host = listenHost(config, demoOpen);
await app.listen({ port: config.port, host });
if (demoOpen && !config.host)
  console.log(
    `Listening on ${host} only: the demo account still has its published password. Reset it (npm run cli -- reset-password) or set HOST to listen on other addresses.`,
  );
const where = config.database.kind === 'sqlite' ? config.database.file : 'PostgreSQL';
console.log(`Warehouse Manager is running at http://localhost:${config.port} (database: ${where})`);
if (demoOpen) console.log(`Demo login: ${DEMO_LOGIN.email} / ${DEMO_LOGIN.password}`);
