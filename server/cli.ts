import { parseArgs } from 'node:util';
import { NewAccountSchema } from '../domain/schemas/auth.schema';
import { createAccount, resetPassword } from './auth/auth.service';
import { loadConfig } from './config';
import { openDatabase } from './db/database';
import { migrateToLatest } from './db/migrate';
import { HttpError } from './http/errors';

const USAGE = `Usage:
  npm run cli -- create-user --company "Acme Moving" --email a@b.c --password '...'
  npm run cli -- reset-password --email a@b.c --password '...'`;

async function main() {
  const [command, ...rest] = process.argv.slice(2);
  const { values } = parseArgs({
    args: rest,
    options: { company: { type: 'string' }, email: { type: 'string' }, password: { type: 'string' } },
  });
  if (command !== 'create-user' && command !== 'reset-password') {
    console.error(USAGE);
    process.exit(2);
  }
  const config = loadConfig();
  const database = openDatabase(config.database);
  try {
    await migrateToLatest(database.db);
    if (command === 'create-user') {
      const parsed = NewAccountSchema.safeParse(values);
      if (!parsed.success) throw new Error(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n'));
      const { company, user } = await createAccount(database.db, parsed.data);
      console.log(`Created user ${user.email} in company "${company.name}".`);
    } else {
      const parsed = NewAccountSchema.pick({ email: true, password: true }).safeParse(values);
      if (!parsed.success) throw new Error(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n'));
      await resetPassword(database.db, parsed.data.email, parsed.data.password);
      console.log(`Password reset for ${parsed.data.email}.`);
    }
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof HttpError ? error.messages.join('\n') : error instanceof Error ? error.message : error);
  process.exit(1);
});
