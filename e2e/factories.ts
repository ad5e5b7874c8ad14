import fs from 'node:fs';
import path from 'node:path';
import { backupFileName, writeRecord } from '../server/backups/backup-files';
import { backupFolderOf } from '../server/backups/sqlite-backups';
import { markSelfContained } from '../server/backups/sqlite-file-check';
import { openDatabase, type DatabaseHandle } from '../server/db/database';
import { insertAttachment } from '../server/features/vaults/attachments.repo';
import { E2E_DATABASE_FILE } from './e2e-env';

// The browser tests' one way to arrange data and read what was saved: the builders of the server's one factories
// module (the same services as the API) on the test server's database, plus the few changes no screen makes
// (a colleague's save, a rack or fields taken away behind the page's back) and the stored rows the specs check.
// Specs hold no SQL of their own.
export * from '../server/factories';

let handle: DatabaseHandle | undefined;
/** The test server's own database. */
export function e2eDatabase(): DatabaseHandle {
  handle ??= openDatabase({ kind: 'sqlite', file: E2E_DATABASE_FILE });
  return handle;
}
const db = () => e2eDatabase().db;

/** Removes a company and everything it holds. */
export async function removeCompany(companyId: number): Promise<void> {
  await db().deleteFrom('companies').where('id', '=', companyId).execute();
}

/** A rack taken away behind the page's back. */
export async function removeRack(rackId: number): Promise<void> {
  await db().deleteFrom('racks').where('id', '=', rackId).execute();
}

/** A warehouse left without fields. */
export async function removeFields(warehouseId: number): Promise<void> {
  await db().deleteFrom('fields').where('warehouse_id', '=', warehouseId).execute();
}

/** A colleague's save of the vault: its version moves on, so an edit begun before it is refused. */
export async function saveVaultElsewhere(vaultId: number): Promise<void> {
  await db()
    .updateTable('vaults')
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('id', '=', vaultId)
    .execute();
}

/** A vault received on another day: its move-in, as billing reads it (issue 28). */
export async function receivedOn(vaultId: number, day: string): Promise<void> {
  await db()
    .updateTable('vaults')
    .set({ created_at: `${day}T12:00:00.000Z` })
    .where('id', '=', vaultId)
    .execute();
}

/** Time passing for the company's invoices: they fall due on `day` (holds, decision 039). */
export async function invoicesDueOn(companyId: number, day: string): Promise<void> {
  await db().updateTable('invoices').set({ due_date: day }).where('company_id', '=', companyId).execute();
}

/** A vault as the specs check it: where it stands, its label, note, customer and order. */
const storedVaults = () =>
  db()
    .selectFrom('vaults as v')
    .innerJoin('customers as c', 'c.id', 'v.customer_id')
    .leftJoin('orders as o', 'o.id', 'v.order_id')
    .select(['v.field_id', 'v.position', 'v.label_code', 'v.note', 'c.name as customer', 'o.name as order']);

/** What the database holds, for the checks after a journey. */
export const stored = {
  warehouse: (id: number) =>
    db()
      .selectFrom('warehouses')
      .select(['rows', 'cols', 'field_capacity', 'width', 'length', 'grid_x', 'grid_y'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow(),
  /** undefined once the rack is gone */
  rack: (id: number) =>
    db()
      .selectFrom('racks')
      .select(['id', 'name', 'x', 'y', 'width', 'orientation', 'capacity'])
      .where('id', '=', id)
      .executeTakeFirst(),
  rackNamed: (warehouseId: number, name: string) =>
    db()
      .selectFrom('racks')
      .select(['id', 'x', 'y', 'orientation', 'capacity'])
      .where('warehouse_id', '=', warehouseId)
      .where('name', '=', name)
      .executeTakeFirstOrThrow(),
  shelfCapacities: (rackId: number) =>
    db().selectFrom('shelves').select('capacity').where('rack_id', '=', rackId).orderBy('id').execute(),
  /** undefined once the pallet is gone */
  pallet: (id: number) =>
    db()
      .selectFrom('pallets')
      .select(['id', 'shelf_id', 'slot_index', 'shelf_spots', 'weight'])
      .where('id', '=', id)
      .executeTakeFirst(),
  palletNumbered: (shelfId: number, palletNumber: string) =>
    db()
      .selectFrom('pallets')
      .select(['id', 'slot_index', 'shelf_spots', 'weight'])
      .where('shelf_id', '=', shelfId)
      .where('pallet_number', '=', palletNumber)
      .executeTakeFirstOrThrow(),
  palletsOfCompany: (companyId: number) =>
    db()
      .selectFrom('pallets')
      .select(['pallet_number', 'slot_index', 'shelf_spots'])
      .where('company_id', '=', companyId)
      .orderBy('pallet_number')
      .execute(),
  vaultsOfCompany: (companyId: number) =>
    db().selectFrom('vaults').select(['name', 'position']).where('company_id', '=', companyId).execute(),
  vault: (id: number) => storedVaults().where('v.id', '=', id).executeTakeFirstOrThrow(),
  vaultNamed: (companyId: number, name: string) =>
    storedVaults().where('v.company_id', '=', companyId).where('v.name', '=', name).executeTakeFirstOrThrow(),
  attachmentIds: (vaultId: number) =>
    db().selectFrom('attachments').select('id').where('vault_id', '=', vaultId).execute(),
  checklistFiller: async (id: number) =>
    (
      await db()
        .selectFrom('checklists')
        .select('filled_out_by')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).filled_out_by,
};

/** A file attached to a vault, as an upload would store it. */
export async function attachFile(
  companyId: number,
  vaultId: number,
  file: { fileName: string; contentType: string; content: Buffer },
): Promise<void> {
  await insertAttachment(db(), { companyId, vaultId, ...file });
}

/**
 * A real backup of the test server's database in its backup folder, named and recorded as taken at `takenAt`, as
 * the server's schedule would have left it (the page then shows it as the last good one).
 */
export async function placeBackupTakenAt(takenAt: Date): Promise<string> {
  const folder = backupFolderOf(E2E_DATABASE_FILE);
  fs.mkdirSync(folder, { recursive: true });
  const file = backupFileName(takenAt);
  const target = path.join(folder, file);
  await e2eDatabase().sqlite!.backup(target);
  markSelfContained(target);
  writeRecord(folder, {
    lastGood: { file, takenAt: takenAt.toISOString(), bytes: fs.statSync(target).size },
    lastFailure: null,
  });
  return file;
}
