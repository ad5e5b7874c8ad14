import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { NewAccountSchema } from '../domain/schemas/auth.schema';
import { createAccount, resetPassword } from './auth/auth.service';
import { loadConfig } from './config';
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
  backup         --out backup.db                                          (consistent copy of the SQLite database, safe while the server runs)`;

type Options = Partial<Record<'company' | 'email' | 'password' | 'out' | 'in', string>>;

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

async function main() {
  const [name, ...rest] = process.argv.slice(2);
  const command = name ? commands[name] : undefined;
  if (!command) {
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
    },
  });
  const database = openDatabase(loadConfig().database);
  try {
    await migrateToLatest(database.db);
    console.log(await command(database, values));
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
