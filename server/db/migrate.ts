import { type Migration, Migrator } from 'kysely';
import type { Db } from './database';
import * as initialSchema from './migrations/0001-initial-schema';
import * as lookupIndexes from './migrations/0002-lookup-indexes';
import * as warehouseStats from './migrations/0005-warehouse-stats-and-revisions';

// Listed here, not read from disk, so the same code runs from source and from any bundle.
const migrations: Record<string, Migration> = {
  '0001-initial-schema': initialSchema,
  '0002-lookup-indexes': lookupIndexes,
  '0005-warehouse-stats-and-revisions': warehouseStats,
};

export async function migrateToLatest(db: Db): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
