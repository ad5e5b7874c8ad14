import { type ColumnMapping, type ImportKind, recogniseHeaders } from '@domain/rules/import-columns';
import type { ImportDryRunDto, ImportProblemDto, ImportRecordDto } from '@domain/schemas/import.schema';
import { fieldName } from '@domain/rules/field-names';
import { warehouseSlug } from '@domain/rules/text';
import type { Actor } from '../../auth/actor';
import { type Db, isUniqueViolation } from '../../db/database';
import { isPostgres, lockWarehouses, type Trx } from '../../db/locks';
import { recordEvent } from '../../events/event-log.repo';
import { type HttpError, badRequest, conflict, notFound } from '../../http/errors';
import { insertFields, setFieldFull, setFieldType } from '../fields/fields.repo';
import { findShelvesOfRacks, insertRack, insertShelves } from '../racks/racks.repo';
import { deleteUnusedCustomers, deleteUnusedOrders } from '../../customers/customers.repo';
import { openImportedAccounts, removeAccountsWithOrders } from '../accounts/accounts.service';
import { deleteWarehouseRow, insertWarehouse } from '../warehouses/warehouses.repo';
import { DUPLICATE_WAREHOUSE } from '../warehouses/warehouses.service';
import {
  type ImportRow,
  beginBulkVaultWrites,
  countChangedItems,
  deleteVaults,
  endBulkVaultWrites,
  findCompanyFields,
  findCompanyWarehouses,
  findImport,
  findImportItems,
  findImports,
  findOrCreateNames,
  findVaultStates,
  findVaultsOnImported,
  insertImport,
  insertVaults,
  lockImport,
  markUndone,
  warehouseInUse,
} from './import.repo';
import { type Sheet, readSheet } from './read-sheet';
import { type VaultPlan, cellReader, planVaultImport } from './vault-import';
import { planPalletImport } from './pallet-import';
import { deletePallets, findPalletStates, insertPallets } from './pallet-import.repo';

export const IMPORT_NOT_FOUND = 'Import not found';
export const ALREADY_UNDONE = 'This import has already been undone.';
export const importChanged = (count: number, what: 'vaults' | 'pallets' = 'vaults') =>
  `${count} of the ${what} of this import changed since (edited, moved${what === 'vaults' ? ', staged' : ''} or deleted), so it can no longer be undone.`;
/** a vault put on top of an imported one since: deleting the import would leave it floating over a gap */
export const standsOnImport = (vault: string | null, field: string) =>
  `${vault ? `Vault ${vault}` : 'A vault'} in field ${field} now stands on a vault of this import, so undoing it would leave an empty slot under it. Stage or move that vault first.`;
export const NOTHING_TO_IMPORT = 'The file has no rows to import.';
export const INVALID_MAPPING = 'The column mapping could not be read.';

/** The problems listed in a refused commit's message; the dry run lists them all. */
const LISTED_PROBLEMS = 20;

export interface ImportUpload {
  fileName: string;
  content: Buffer;
  /** the column mapping the user chose, as JSON from the form; absent: the recognised one */
  mapping?: string;
  createWarehouses: boolean;
  allowRepeatedNumbers: boolean;
}

/** The mapping of the form (column -> header), or the recognised one. */
function mappingOf(raw: string | undefined, sheet: Sheet, kind: ImportKind = 'vaults'): ColumnMapping {
  if (raw === undefined || raw.trim() === '') return recogniseHeaders(kind, sheet.headers);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw badRequest(INVALID_MAPPING);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw badRequest(INVALID_MAPPING);
  const mapping: ColumnMapping = {};
  for (const [column, header] of Object.entries(parsed)) {
    if (header === null || header === '') continue;
    if (typeof header !== 'string' || header.length > 200) throw badRequest(INVALID_MAPPING);
    mapping[column] = header;
  }
  return mapping;
}

function dryRunAnswer(upload: ImportUpload, sheet: Sheet, plan: VaultPlan): ImportDryRunDto {
  const placed = plan.vaults.filter((v) => v.position !== null).length;
  return {
    kind: 'vaults',
    file_name: upload.fileName,
    headers: sheet.headers,
    mapping: plan.mapping,
    row_count: sheet.rows.length,
    placed_count: placed,
    staged_count: plan.vaults.length - placed,
    account_count: plan.accounts.length,
    new_warehouses: plan.newWarehouses.map((w) => ({
      name: w.name,
      rows: w.rows,
      cols: w.cols,
      field_capacity: w.field_capacity,
    })),
    problems: plan.problems,
    warnings: plan.warnings,
  };
}

/** POST /api/import/vaults/dry-run: reads the file and checks every row; writes nothing. */
export async function dryRunVaultImport(
  db: Db,
  companyId: number,
  upload: ImportUpload,
): Promise<ImportDryRunDto> {
  const sheet = await readSheet(upload.content);
  const plan = await planVaultImport(db, companyId, sheet, mappingOf(upload.mapping, sheet), upload);
  return dryRunAnswer(upload, sheet, plan);
}

const describeProblem = (p: ImportProblemDto) => `Row ${p.row}, ${p.column}: ${p.message}`;

function refuse(problems: ImportProblemDto[]): HttpError {
  const listed = problems.slice(0, LISTED_PROBLEMS).map(describeProblem);
  if (problems.length > LISTED_PROBLEMS)
    listed.push(`... and ${problems.length - LISTED_PROBLEMS} more problems; the dry run lists them all.`);
  return badRequest('Nothing was imported: the file has problems.', ...listed);
}

/**
 * POST /api/import/vaults: the dry run, inside one transaction that then writes every row, or none. The
 * warehouses the file names are locked for update (a layout-sized change: no vault of theirs moves meanwhile), so
 * the slots the dry run saw free are still free when the rows go in.
 */
/** The company's warehouses the file names (read before they are locked, so the plan sees them as locked). */
async function namedWarehouseIds(
  db: Db,
  companyId: number,
  sheet: Sheet,
  mapping: ColumnMapping,
): Promise<number[]> {
  const cell = cellReader(mapping, sheet.headers);
  const names = new Set(sheet.rows.map((r) => cell(r.cells, 'warehouse').toLowerCase()));
  return (await findCompanyWarehouses(db, companyId))
    .filter((w) => names.has(w.name.trim().toLowerCase()))
    .map((w) => w.id);
}

export async function commitVaultImport(
  db: Db,
  actor: Actor,
  upload: ImportUpload,
): Promise<ImportRecordDto> {
  const sheet = await readSheet(upload.content);
  const mapping = mappingOf(upload.mapping, sheet);
  try {
    const importId = await db.transaction().execute(async (trx) => {
      await lockWarehouses(trx, await namedWarehouseIds(trx, actor.companyId, sheet, mapping), 'update');
      const plan = await planVaultImport(trx, actor.companyId, sheet, mapping, upload);
      if (plan.problems.length > 0) throw refuse(plan.problems);
      if (plan.vaults.length === 0 && plan.newWarehouses.length === 0) throw badRequest(NOTHING_TO_IMPORT);
      return writeVaults(trx, actor, upload, sheet, plan);
    });
    return presentImport((await findImport(db, actor.companyId, importId))!);
  } catch (error) {
    // a warehouse of the same name created by someone else meanwhile
    if (isUniqueViolation(error)) throw conflict(DUPLICATE_WAREHOUSE);
    throw error;
  }
}

async function writeVaults(
  trx: Trx,
  actor: Actor,
  upload: ImportUpload,
  sheet: Sheet,
  plan: VaultPlan,
): Promise<number> {
  const { companyId } = actor;
  // the new warehouses with their whole field grid, as adding them by hand makes them
  const created = new Map<string, number>();
  for (const w of plan.newWarehouses) {
    const warehouseId = await insertWarehouse(trx, {
      companyId,
      name: w.name,
      slug: warehouseSlug(w.name),
      rows: w.rows,
      cols: w.cols,
      fieldCapacity: w.field_capacity,
      length: w.length,
      width: w.width,
      gridX: w.gridX,
      gridY: w.gridY,
    });
    const cells: { companyId: number; warehouseId: number; col: number; row: number }[] = [];
    for (let col = 1; col <= w.cols; col++)
      for (let row = 1; row <= w.rows; row++) cells.push({ companyId, warehouseId, col, row });
    await insertFields(trx, cells);
    created.set(w.name, warehouseId);
    await recordEvent(trx, {
      companyId,
      userId: actor.userId,
      kind: 'warehouse.added',
      entityType: 'warehouse',
      entityId: warehouseId,
      warehouseId,
      payload: { name: w.name, imported: true },
    });
  }
  const newFields = new Map<string, number>();
  if (created.size > 0)
    for (const f of await findCompanyFields(trx, companyId))
      newFields.set(`${f.warehouse_id}:${f.col}:${f.row}`, f.id);
  // the couchboxes of the file's new warehouses (upper and lower field), as the field's type change makes them
  for (const w of plan.newWarehouses) {
    const warehouseId = created.get(w.name)!;
    const fieldId = (col: number, row: number) => newFields.get(`${warehouseId}:${col}:${row}`)!;
    for (const c of w.couchboxes) {
      await setFieldType(trx, companyId, fieldId(c.col, c.row), 'couchbox-T');
      await setFieldType(trx, companyId, fieldId(c.col, c.row + 1), 'couchbox-B');
    }
  }

  const customers = await findOrCreateNames(
    trx,
    'customers',
    companyId,
    plan.vaults.map((v) => v.details.customerName),
  );
  const orders = await findOrCreateNames(
    trx,
    'orders',
    companyId,
    plan.vaults.flatMap((v) => (v.details.orderName ? [v.details.orderName] : [])),
  );
  const warehouseOf = (v: (typeof plan.vaults)[number]) =>
    typeof v.warehouse === 'string' ? created.get(v.warehouse)! : v.warehouse;
  await beginBulkVaultWrites(trx);
  const ids = await insertVaults(
    trx,
    companyId,
    plan.vaults.map((v) => ({
      name: v.details.name,
      customerId: customers.get(v.details.customerName)!,
      orderId: v.details.orderName ? orders.get(v.details.orderName)! : null,
      fieldId:
        v.fieldId ??
        (v.warehouse === null ? null : newFields.get(`${warehouseOf(v)}:${v.col}:${v.fieldRow}`)!),
      position: v.position,
      type: v.details.type,
      note: v.details.note,
    })),
  );
  // the storage accounts the file's account columns open, once their orders' vaults are in (issue 28)
  await openImportedAccounts(
    trx,
    actor,
    upload.fileName,
    plan.accounts.map((a) => ({ orderId: orders.get(a.orderName)!, terms: a.terms })),
  );
  const placed = plan.vaults.filter((v) => v.position !== null).length;
  const warehouseIds = new Set(plan.vaults.map(warehouseOf));
  await endBulkVaultWrites(
    trx,
    companyId,
    [...warehouseIds].filter((id): id is number => id !== null),
    warehouseIds.has(null),
  );
  const importId = await insertImport(
    trx,
    {
      companyId,
      userId: actor.userId,
      kind: 'vaults',
      fileName: upload.fileName,
      rowCount: sheet.rows.length,
      placedCount: placed,
      stagedCount: plan.vaults.length - placed,
      createdWarehouses: [...created.values()],
    },
    ids,
  );
  // full flags last: a full field takes no new vault, but the file's vaults were in it before it was marked full
  for (const w of plan.newWarehouses)
    for (const f of w.fullFields)
      await setFieldFull(trx, companyId, newFields.get(`${created.get(w.name)!}:${f.col}:${f.row}`)!, true);
  await recordImportEvents(trx, actor, 'vaults.imported', importId, warehouseIds);
  return importId;
}

/** One event per warehouse the import touched (null: the stage), so every screen showing one refreshes. */
async function recordImportEvents(
  trx: Trx,
  actor: Actor,
  kind: string,
  importId: number,
  warehouseIds: Set<number | null>,
): Promise<void> {
  for (const warehouseId of [...warehouseIds].sort((a, b) => (a ?? 0) - (b ?? 0)))
    await recordEvent(trx, {
      companyId: actor.companyId,
      userId: actor.userId,
      kind,
      entityType: 'warehouse',
      entityId: warehouseId,
      warehouseId,
      payload: { importId },
    });
}

/**
 * Why each of these imports can no longer be undone (missing: it can): undone already, some of its vaults or pallets
 * changed or gone, or a vault put on top of one of its vaults since. The undo and the import list both ask this.
 */
async function undoRefusals(
  db: Db,
  companyId: number,
  rows: readonly ImportRow[],
): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  const open = rows.filter((r) => r.undone_at === null);
  for (const r of rows) if (r.undone_at !== null) out.set(r.id, ALREADY_UNDONE);
  for (const kind of ['vaults', 'pallets'] as const) {
    const ids = open.filter((r) => (r.kind === 'pallets' ? 'pallets' : 'vaults') === kind).map((r) => r.id);
    for (const [id, n] of await countChangedItems(db, companyId, kind, ids))
      out.set(id, importChanged(n, kind));
    if (kind === 'vaults')
      for (const [id, on] of await findVaultsOnImported(
        db,
        companyId,
        ids.filter((i) => !out.has(i)),
      ))
        out.set(id, standsOnImport(on.name, fieldName(on.col, on.row)));
  }
  return out;
}

export function presentImport(row: ImportRow, undoRefusal: string | null = null): ImportRecordDto {
  return {
    id: row.id,
    kind: row.kind === 'pallets' ? 'pallets' : 'vaults',
    file_name: row.file_name,
    username: row.username,
    created_at: row.created_at,
    row_count: Number(row.row_count),
    placed_count: Number(row.placed_count),
    staged_count: Number(row.staged_count),
    created_warehouses: JSON.parse(row.created_warehouses) as number[],
    undone_at: row.undone_at,
    can_undo: row.undone_at === null && undoRefusal === null,
    undo_refusal: row.undone_at !== null ? ALREADY_UNDONE : undoRefusal,
  };
}

/** GET /api/imports: the company's latest imports, newest first. */
export async function listImports(db: Db, companyId: number): Promise<ImportRecordDto[]> {
  const rows = await findImports(db, companyId, 50);
  const refusals = await undoRefusals(db, companyId, rows);
  return rows.map((r) => presentImport(r, refusals.get(r.id) ?? null));
}

/**
 * POST /api/imports/{id}/undo: deletes the vaults the import created, and the warehouses it created once empty, in one
 * transaction; refused while any of its vaults changed since (its version moved on) or is gone. The vaults'
 * warehouses are locked for update first, so no vault of theirs changes between the check and the delete.
 */
export async function undoImport(db: Db, actor: Actor, importId: number): Promise<ImportRecordDto> {
  const { companyId } = actor;
  await db.transaction().execute(async (trx) => {
    const found = await findImport(trx, companyId, importId);
    if (!found) throw notFound(IMPORT_NOT_FOUND);
    const itemIds = await findImportItems(trx, companyId, importId);
    const pallets = found.kind === 'pallets';
    const states = () =>
      pallets ? findPalletStates(trx, companyId, itemIds) : findVaultStates(trx, companyId, itemIds);
    const createdWarehouses = JSON.parse(found.created_warehouses) as number[];
    await lockWarehouses(
      trx,
      [...(await states()).map((v) => v.warehouse_id), ...createdWarehouses],
      'update',
    );
    const record = await lockImport(trx, companyId, importId, isPostgres(trx));
    if (!record) throw notFound(IMPORT_NOT_FOUND);
    if (record.undone_at !== null) throw conflict(ALREADY_UNDONE);
    const now = await states();
    // under the locks: its items unchanged, and no vault put on top of one of them since (never leave a gap)
    const refusal = (await undoRefusals(trx, companyId, [{ ...found, undone_at: null }])).get(importId);
    if (refusal !== undefined) throw conflict(refusal);
    const touched = now.map((v) => v.warehouse_id);
    if (pallets) await deletePallets(trx, companyId, itemIds);
    else {
      await beginBulkVaultWrites(trx);
      await deleteVaults(trx, companyId, itemIds);
      await endBulkVaultWrites(
        trx,
        companyId,
        touched.filter((id): id is number => id !== null),
        touched.includes(null),
      );
    }
    await deleteUnusedCustomers(trx, companyId, [...new Set(now.map((v) => v.customer_id))]);
    const orderIds = now.flatMap((v) => ('order_id' in v && v.order_id !== null ? [v.order_id] : []));
    // an account the import's orders leave without an order goes too (refused if it has invoices or payments)
    await removeAccountsWithOrders(trx, companyId, [...new Set(orderIds)], () =>
      deleteUnusedOrders(trx, companyId, [...new Set(orderIds)]),
    );
    for (const warehouseId of createdWarehouses)
      if (!(await warehouseInUse(trx, companyId, warehouseId)))
        await deleteWarehouseRow(trx, companyId, warehouseId);
    await markUndone(trx, companyId, importId);
    await recordImportEvents(trx, actor, `${found.kind}.import-undone`, importId, new Set(touched));
  });
  return presentImport((await findImport(db, companyId, importId))!);
}

/** POST /api/import/pallets/dry-run */
export async function dryRunPalletImport(
  db: Db,
  companyId: number,
  upload: ImportUpload,
): Promise<ImportDryRunDto> {
  const sheet = await readSheet(upload.content);
  const plan = await planPalletImport(db, companyId, sheet, mappingOf(upload.mapping, sheet, 'pallets'), {
    createRacks: upload.createWarehouses,
  });
  return {
    kind: 'pallets',
    file_name: upload.fileName,
    headers: sheet.headers,
    mapping: plan.mapping,
    row_count: sheet.rows.length,
    placed_count: plan.pallets.length,
    staged_count: 0,
    account_count: 0,
    new_warehouses: [],
    problems: plan.problems,
    warnings: [],
  };
}

/** POST /api/import/pallets: every row onto its shelf, or none; the racks' warehouses are locked for update. */
export async function commitPalletImport(
  db: Db,
  actor: Actor,
  upload: ImportUpload,
): Promise<ImportRecordDto> {
  const sheet = await readSheet(upload.content);
  const mapping = mappingOf(upload.mapping, sheet, 'pallets');
  const importId = await db.transaction().execute(async (trx) => {
    await lockWarehouses(trx, await namedWarehouseIds(trx, actor.companyId, sheet, mapping), 'update');
    const plan = await planPalletImport(trx, actor.companyId, sheet, mapping, {
      createRacks: upload.createWarehouses,
    });
    if (plan.problems.length > 0) throw refuse(plan.problems);
    if (plan.pallets.length === 0 && plan.newRacks.length === 0) throw badRequest(NOTHING_TO_IMPORT);
    // the racks the file describes, with their shelves; the pallets' stand-in shelf ids become the real ones
    const shelfIds = new Map<number, number>();
    for (const rack of plan.newRacks) {
      const rackId = await insertRack(trx, { companyId: actor.companyId, ...rack });
      await insertShelves(trx, actor.companyId, rackId, rack.shelfIds.length, rack.capacity);
      const made = await findShelvesOfRacks(trx, actor.companyId, [rackId]);
      for (const shelf of made) shelfIds.set(rack.shelfIds[Number(shelf.position) - 1]!, shelf.id);
      await recordEvent(trx, {
        companyId: actor.companyId,
        userId: actor.userId,
        kind: 'rack.added',
        entityType: 'rack',
        entityId: rackId,
        warehouseId: rack.warehouseId,
        payload: { name: rack.name, imported: true },
      });
    }
    const customers = await findOrCreateNames(
      trx,
      'customers',
      actor.companyId,
      plan.pallets.map((p) => p.customerName),
    );
    const orderNames = plan.pallets.flatMap((p) => (p.orderName ? [p.orderName] : []));
    const orders = await findOrCreateNames(trx, 'orders', actor.companyId, orderNames);
    const ids = await insertPallets(
      trx,
      actor.companyId,
      plan.pallets.map((p) => ({
        shelfId: p.shelfId < 0 ? shelfIds.get(p.shelfId)! : p.shelfId,
        slotIndex: p.slotIndex,
        customerId: customers.get(p.customerName)!,
        orderId: p.orderName ? orders.get(p.orderName)! : null,
        name: p.name,
        palletNumber: p.palletNumber,
        notes: p.notes,
        weight: p.weight,
        shelfSpots: p.spots,
      })),
    );
    const importId = await insertImport(
      trx,
      {
        companyId: actor.companyId,
        userId: actor.userId,
        kind: 'pallets',
        fileName: upload.fileName,
        rowCount: sheet.rows.length,
        placedCount: ids.length,
        stagedCount: 0,
        createdWarehouses: [],
      },
      ids,
    );
    await recordImportEvents(
      trx,
      actor,
      'pallets.imported',
      importId,
      new Set([...plan.pallets.map((p) => p.warehouseId), ...plan.newRacks.map((r) => r.warehouseId)]),
    );
    return importId;
  });
  return presentImport((await findImport(db, actor.companyId, importId))!);
}
