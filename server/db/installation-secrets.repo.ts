import type { Db } from './database';
import { nowIso } from './database';

/**
 * The installation's secret of that name (base64), created with `create()` when it is missing. Every server process
 * on the database reads the same value; when two create it at once, the first write wins and both read it back.
 */
export async function readOrCreateInstallationSecret(
  db: Db,
  name: string,
  create: () => string,
): Promise<string> {
  const find = () =>
    db.selectFrom('installation_secrets').select('value').where('name', '=', name).executeTakeFirst();
  const found = await find();
  if (found) return found.value;
  await db
    .insertInto('installation_secrets')
    .values({ name, value: create(), created_at: nowIso() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const created = await find();
  if (!created) throw new Error(`The installation secret ${name} could not be stored.`);
  return created.value;
}
