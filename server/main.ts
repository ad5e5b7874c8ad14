import { buildApp } from './app';
import { demoPasswordInUse } from './auth/auth.service';
import { listenHost, loadConfig } from './config';
import { openDatabase } from './db/database';
import { migrateToLatest } from './db/migrate';
import { DEMO_LOGIN, seedDemoIfEmpty } from './db/seed';

const config = loadConfig();
const database = openDatabase(config.database);
await migrateToLatest(database.db);

const app = await buildApp({ config, database });

if (config.seedDemo && (await seedDemoIfEmpty(database.db))) {
  app.log.info(`Seeded the demo company. Sign in with ${DEMO_LOGIN.email} / ${DEMO_LOGIN.password}`);
}

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info(`${signal} received: finishing in-flight requests`);
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
