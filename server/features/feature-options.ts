import type { AppConfig } from '../config';
import type { AutomaticBackups } from '../backups/sqlite-backups';
import type { DatabaseHandle } from '../db/database';

/** What every feature's routes plugin is given; apart from feature-routes.ts, which registers them all. */
export interface FeatureOptions {
  config: AppConfig;
  database: DatabaseHandle;
  /** the SQLite database's automatic backups, or why there are none (decision 029) */
  backups: AutomaticBackups;
}
