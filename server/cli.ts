import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { NewAccountSchema } from '../domain/schemas/auth.schema';
import { createAccount, resetPassword } from './auth/auth.service';
import { loadConfig } from './config';
import { restoreDatabase } from './backups/restore';
import { type DatabaseHandle, openDatabase } from './db/database';
import { migrateToLatest } from './db/migrate';
import { HttpError } from './http/errors';
import { type CompanyExport, exportCompany, importCompany } from './transfer/company-transfer';

const USAGE = `Usage: npm run cli -- <command> [options]
  create-user    --company "Acme Moving" --email a@b.c --password '...'   (creates the company if needed)
  reset-password --email a@b.c --password '...'                          (signs the user out everywhere)
  Passwords: at least 12 characters and hard to guess (a passphrase of several unrelated words works well).
  export         --company "Acme Moving" --out acme.json                  (the company's complete data, attachments included)
  import         --in acme.json                                           (into the database DATABASE_URL names)
  backup         --out backup.db                                          (consistent copy of the SQLite database, safe while the server runs)
  restore        --from backups/backup-....db                              (puts a backup in place of the SQLite database; stop the server first)`;

type Options = Partial<Record<'company' | 'email' | 'password' | 'out' | 'in' | 'from', string>>;

function need(options: Options, ...names: (keyof Options)[]) {
  const missing = names.filter((n) => !options[n]);
  if (missing.length > 0) throw new Error(`Missing ${missing.map((n) => `--${n}`).join(', ')}.\n\n${USAGE}`);
}

function parsed<T>(
  result:
    | { success: true; data: T }
    | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } },
): T {
  if (!result.success)
    throw new Error(result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n'));
  return result.data;
}

const commands: Record<string, (database: DatabaseHandle, options: Options) => Promise<string>> = {
  async 'create-user'(database, options) {
    const input = parsed(NewAccountSchema.safeParse(options));
    const { company, user } = await createAccount(database.db, input);
    return `Created user ${user.email} in company "${company.name}".`;
  },
  async 'reset-password'(database, options) {
    const input = parsed(NewAccountSchema.pick({ email: true, password: true }).safeParse(options));
    await resetPassword(database.db, input.email, input.password);
    return `Password reset for ${input.email}. Every session of that user has been signed out.`;
  },
  async export(database, options) {
    need(options, 'company', 'out');
    const data = await exportCompany(database.db, options.company!);
    // written next to its place and renamed, so a failed export never leaves a half file under the name
    const partial = `${options.out!}.partial`;
    fs.writeFileSync(partial, JSON.stringify(data));
    fs.renameSync(partial, options.out!);
    const rows = Object.values(data.tables).reduce((sum, rows) => sum + rows.length, 0);
    return `Exported "${data.company.name}" (${rows} rows) to ${options.out}.`;
  },
  async import(database, options) {
    need(options, 'in');
    let data: unknown;
    try {
      data = JSON.parse(fs.readFileSync(options.in!, 'utf8'));
    } catch (error) {
      throw new Error(`${options.in} is not a readable JSON file: ${(error as Error).message}`);
    }
    const { rows } = await importCompany(database.db, data);
    return `Imported "${(data as CompanyExport).company.name}" (${rows} rows).`;
  },
  async backup(database, options) {
    need(options, 'out');
    if (!database.sqlite) throw new Error('backup copies the SQLite database; for PostgreSQL use pg_dump.');
    fs.mkdirSync(path.dirname(path.resolve(options.out!)), { recursive: true });
    await database.sqlite.backup(options.out!);
    return `Backed up the database to ${options.out}.`;
  },
};

function restore(options: Options): string {
  need(options, 'from');
  const target = loadConfig().database;
  if (target.kind !== 'sqlite' || target.file === ':memory:') {
    throw new Error(
      'restore puts a backup in place of a SQLite database file; for PostgreSQL use pg_restore or your archive (see the README).',
    );
  }
  const aside = restoreDatabase(target.file, options.from!);
  return `Restored ${options.from} to ${target.file}.${aside ? ` The replaced database is kept at ${aside}.` : ''} Start the server again.`;
}

async function main() {
  const [name, ...rest] = process.argv.slice(2);
  const command = name ? commands[name] : undefined;
  if (!command && name !== 'restore') {
    console.error(USAGE);
    process.exit(2);
  }
  const { values } = parseArgs({
    args: rest,
    options: {
      company: { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      out: { type: 'string' },
      in: { type: 'string' },
      from: { type: 'string' },
    },
  });
  // restore works on the database file with no connection of its own open, so it runs before the others' opening
  if (name === 'restore') {
    console.log(restore(values));
    return;
  }
  const database = openDatabase(loadConfig().database);
  try {
    await migrateToLatest(database.db);
    console.log(await command!(database, values));
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(
    error instanceof HttpError ? error.messages.join('\n') : error instanceof Error ? error.message : error,
  );
  process.exit(1);
});
