import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { NewAccountSchema } from '@domain/schemas/auth.schema';
import { createAccount, resetPassword } from './auth/auth.service';
import { loadConfig } from './config';
import { restoreDatabase } from './backups/restore';
import { type DatabaseHandle, openDatabase } from './db/database';
import { migrateToLatest } from './db/migrate';
import { HttpError } from './http/errors';
import { looksLikeArchive } from './transfer/company-archive';
import { checkCompanyFile, exportCompanyFile, importCompanyFile } from './transfer/company-file';
import { type CompanyExport, importCompany } from './transfer/company-transfer';

const USAGE = `Usage: npm run cli -- <command> [options]
  create-user    --company "Acme Moving" --email a@b.c --password '...'   (creates the company if needed)
  reset-password --email a@b.c --password '...'                          (signs the user out everywhere)
  Passwords: at least 12 characters and hard to guess (a passphrase of several unrelated words works well).
  export         --company "Acme Moving" --out acme.tar                   (the company file: all its data, attachments included)
  import         --in acme.tar                                            (into the database DATABASE_URL names; also reads the older .json files)
  verify         --in acme.tar                                            (checks a company file without a database; exit code 1 when damaged)
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
    // written next to its place and renamed, so a failed export never leaves a half file under the name
    const partial = `${options.out!}.partial`;
    try {
      const { rows, attachments } = await exportCompanyFile(
        database.db,
        options.company!,
        fs.createWriteStream(partial),
      );
      fs.renameSync(partial, options.out!);
      return `Exported "${options.company!}" (${rows} rows, ${attachments} attachments) to ${options.out}.`;
    } finally {
      fs.rmSync(partial, { force: true });
    }
  },
  async import(database, options) {
    need(options, 'in');
    if (!fs.existsSync(options.in!)) throw new Error(`${options.in} does not exist.`);
    if (looksLikeArchive(options.in!)) {
      const { rows } = await importCompanyFile(database.db, options.in!);
      return `Imported the company file ${options.in} (${rows} rows).`;
    }
    // a company file of version 1: one JSON document, as exports wrote it before issue 25
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

/** Checks a company file without a database: prints every problem, member and line first; false when damaged. */
async function verify(options: Options): Promise<boolean> {
  need(options, 'in');
  if (!fs.existsSync(options.in!)) throw new Error(`${options.in} does not exist.`);
  if (!looksLikeArchive(options.in!)) {
    console.error(
      `${options.in} is not a company file archive (an older .json export is checked by its import).`,
    );
    return false;
  }
  const check = await checkCompanyFile(options.in!);
  if (check.problems.length === 0 && check.manifest) {
    console.log(
      `${options.in} is a whole company file of "${check.manifest.company.name}": ${check.rows} rows and ${Object.keys(check.manifest.members).length} members, every hash and reference correct.`,
    );
    return true;
  }
  const count = check.problems.length + check.unlisted;
  console.error(`${options.in} is damaged (${count} ${count === 1 ? 'problem' : 'problems'}):`);
  for (const problem of check.problems) console.error(problem);
  if (check.unlisted > 0) console.error(`and ${check.unlisted} more`);
  return false;
}

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
  if (name === 'verify') {
    const { values } = parseArgs({ args: rest, options: { in: { type: 'string' } } });
    process.exit((await verify(values)) ? 0 : 1);
  }
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
