import type { Insertable } from 'kysely';
import type { Db } from '../server/db/database';
import type { Database } from '../server/db/schema';

/** Bulk inserts for the benchmark dataset: chunked so one statement stays under the engines' parameter limits. */
export async function insertMany<T extends keyof Database>(
  db: Db,
  table: T,
  rows: Insertable<Database[T]>[],
): Promise<number[]> {
  const ids: number[] = [];
  const columns = rows[0] ? Object.keys(rows[0]).length : 1;
  const chunk = Math.max(1, Math.floor(30_000 / columns));
  for (let i = 0; i < rows.length; i += chunk) {
    const inserted = await db
      .insertInto(table)
      .values(rows.slice(i, i + chunk) as never)
      .returning('id' as never)
      .execute();
    for (const row of inserted as unknown as { id: number }[]) ids.push(Number(row.id));
  }
  return ids;
}
