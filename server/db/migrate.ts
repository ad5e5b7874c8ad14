import { type Migration, Migrator } from 'kysely';
import type { Db } from './database';
import * as initialSchema from './migrations/0001-initial-schema';
import * as lookupIndexes from './migrations/0002-lookup-indexes';
import * as checklistKeys from './migrations/0003-checklist-keys-and-limits';
import * as installationSecrets from './migrations/0004-installation-secrets';
import * as warehouseStats from './migrations/0005-warehouse-stats-and-revisions';
import * as rolesTeamHistory from './migrations/0006-roles-team-and-history';
import * as stripedStats from './migrations/0010-striped-warehouse-stats';
import * as pullLists from './migrations/0007-pull-lists-and-release';
import * as spreadsheetImports from './migrations/0009-spreadsheet-imports';
import * as labelsAndChecks from './migrations/0008-labels-and-checks';
import * as warehouseChecks from './migrations/0011-warehouse-checks';
import * as connectionSlots from './migrations/0016-connection-slots';
import * as eventSearch from './migrations/0017-event-search';
import * as fieldRowVersions from './migrations/0018-field-row-versions';
import * as eventSearchProgress from './migrations/0019-event-search-progress';
import * as sessionNotices from './migrations/0020-session-notices';
import * as eventLogWithoutForeignKeys from './migrations/0021-event-log-without-foreign-keys';
import * as fallbackSlotsApart from './migrations/0022-fallback-slots-apart';
import * as eventsAnnounced from './migrations/0023-events-announced-by-their-writer';
import * as companyFileJobs from './migrations/0026-company-file-jobs';
import * as keptCheckReports from './migrations/0030-kept-check-reports';
import * as searchIndexes from './migrations/0035-search-indexes';
import * as companyLocale from './migrations/0037-company-locale';
import * as storageBilling from './migrations/0040-storage-billing';
import * as bulkEventWrites from './migrations/0041-bulk-event-writes';
import * as idempotencyKeys from './migrations/0044-idempotency-keys';
import * as apiTokensAndWebhooks from './migrations/0045-api-tokens-and-webhooks';
import * as mailOutboxAndPortal from './migrations/0046-mail-outbox-and-portal';
import * as customerRequests from './migrations/0047-customer-requests';
import * as conditionInventories from './migrations/0048-condition-inventories';
import * as palletsBilled from './migrations/0049-pallets-billed';
import * as mailAttachments from './migrations/0050-mail-attachments';

// Listed here, not read from disk, so the same code runs from source and from any bundle.
const migrations: Record<string, Migration> = {
  '0001-initial-schema': initialSchema,
  '0002-lookup-indexes': lookupIndexes,
  '0003-checklist-keys-and-limits': checklistKeys,
  '0004-installation-secrets': installationSecrets,
  '0005-warehouse-stats-and-revisions': warehouseStats,
  '0006-roles-team-and-history': rolesTeamHistory,
  '0010-striped-warehouse-stats': stripedStats,
  '0007-pull-lists-and-release': pullLists,
  '0009-spreadsheet-imports': spreadsheetImports,
  '0008-labels-and-checks': labelsAndChecks,
  '0011-warehouse-checks': warehouseChecks,
  '0016-connection-slots': connectionSlots,
  '0017-event-search': eventSearch,
  '0018-field-row-versions': fieldRowVersions,
  '0019-event-search-progress': eventSearchProgress,
  '0020-session-notices': sessionNotices,
  '0021-event-log-without-foreign-keys': eventLogWithoutForeignKeys,
  '0022-fallback-slots-apart': fallbackSlotsApart,
  '0023-events-announced-by-their-writer': eventsAnnounced,
  '0026-company-file-jobs': companyFileJobs,
  '0030-kept-check-reports': keptCheckReports,
  '0035-search-indexes': searchIndexes,
  '0037-company-locale': companyLocale,
  '0040-storage-billing': storageBilling,
  '0041-bulk-event-writes': bulkEventWrites,
  '0044-idempotency-keys': idempotencyKeys,
  '0045-api-tokens-and-webhooks': apiTokensAndWebhooks,
  '0046-mail-outbox-and-portal': mailOutboxAndPortal,
  '0047-customer-requests': customerRequests,
  '0048-condition-inventories': conditionInventories,
  '0049-pallets-billed': palletsBilled,
  '0050-mail-attachments': mailAttachments,
};

/** Migrates to the newest migration, or up to and including `target` (tests of a migration on older data). */
export async function migrateToLatest(db: Db, target?: string): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await (target ? migrator.migrateTo(target) : migrator.migrateToLatest());
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
