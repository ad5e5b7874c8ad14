import type { AddWarehouseInput } from '@domain/schemas/warehouse.schema';
import type { WarehouseDto, WarehouseStats, WarehouseSummaryDto } from '@domain/schemas/warehouse.schema';
import { createHash } from 'node:crypto';
import { revisionTag } from '../../http/revalidation';
import { type StatsVault, countVaults } from '@domain/rules/placeholders';
import { warehouseSlug } from '@domain/rules/text';
import type { Db } from '../../db/database';
import { isUniqueViolation } from '../../db/database';
import { recordEvent, recordEvents } from '../../events/event-log.repo';
import type { Trx } from '../../db/locks';
import { fieldName } from '@domain/rules/field-names';
import { conflict, notFound } from '../../http/errors';
import { presentField } from '../fields/fields.presenter';
import { findFieldsOfWarehouse, insertFields } from '../fields/fields.repo';
import { findAttachmentsOfWarehouse } from '../vaults/attachments.repo';
import { deleteUnusedCustomers, deleteUnusedOrders } from '../../customers/customers.repo';
import { attachmentsByVault, presentVault } from '../vaults/vaults.presenter';
import { findVaultsOfWarehouse } from '../vaults/vaults.repo';
import type { Actor } from '../../auth/actor';
import { lockWarehouseLayout, requireWarehouse, WAREHOUSE_NOT_FOUND } from './warehouse-access';
import { NO_VAULTS, presentWarehouse, presentWarehouseSummary } from './warehouses.presenter';
import {
  type WarehouseCountsRow,
  type WarehouseWithStatsRow,
  deleteWarehouseRow,
  findWarehouseWithStats,
  findWarehouseNamed,
  findWarehouseRevision,
  insertWarehouse,
  listWarehousesWithStats,
} from './warehouses.repo';
import { naturalCompare } from '@domain/rules/text';

export const DUPLICATE_WAREHOUSE = 'A warehouse with this name already exists.';

function statsOf(c: WarehouseCountsRow | undefined): WarehouseStats {
  return c
    ? {
        vaultCount: c.vault_count,
        realVaultCount: c.real_count,
        emptyVaultCount: c.empty_vault_count,
        emptyCouchboxCount: c.empty_couchbox_count,
      }
    : NO_VAULTS;
}

/** The company's warehouses with their counts, and the tag of this state of the list (issue 11). */
export async function listCompanyWarehousesTagged(
  db: Db,
  companyId: number,
): Promise<{ tag: string; present: () => WarehouseSummaryDto[] }> {
  // in natural order (Warehouse 2 before Warehouse 10), the same on both engines and in every browser
  const rows = (await listWarehousesWithStats(db, companyId)).sort(
    (a, b) => naturalCompare(a.name, b.name) || a.id - b.id,
  );
  // the list changes when a warehouse comes or goes, or one of them is written to (which moves its revision on)
  const state = rows.map((r) => `${r.id}:${r.version}:${r.revision}`).join(',');
  const tag = revisionTag('c', companyId, createHash('sha1').update(state).digest('base64url'));
  return { tag, present: () => rows.map((row) => presentWarehouseSummary(row, statsOf(row))) };
}

export async function listCompanyWarehouses(db: Db, companyId: number): Promise<WarehouseSummaryDto[]> {
  return (await listCompanyWarehousesTagged(db, companyId)).present();
}

/** The tag of a warehouse's current state, or undefined when the company has no such warehouse. */
export async function warehouseTag(
  db: Db,
  companyId: number,
  warehouseId: number,
  answer: 'warehouse' | 'racks',
): Promise<string | undefined> {
  const row = await findWarehouseRevision(db, companyId, warehouseId);
  return row && revisionTag(answer === 'warehouse' ? 'w' : 'r', warehouseId, row.version, row.revision);
}

/** One warehouse with its fields and their vaults in four queries, whatever its size. */
export async function loadWarehouse(db: Db, companyId: number, warehouseId: number): Promise<WarehouseDto> {
  const row = await requireWarehouse(db, companyId, warehouseId);
  const [fields, vaults, attachments] = await Promise.all([
    findFieldsOfWarehouse(db, companyId, warehouseId),
    findVaultsOfWarehouse(db, companyId, warehouseId),
    findAttachmentsOfWarehouse(db, companyId, warehouseId),
  ]);
  const fieldsById = new Map(fields.map((field) => [field.id, field]));
  const files = attachmentsByVault(attachments);
  const vaultsByField = new Map<number, ReturnType<typeof presentVault>[]>();
  const customers = new Set<string>();
  const orders = new Set<string>();
  // ascending ids, as the answer's maps list them, whatever order the database returned
  vaults.sort((a, b) => a.id - b.id);
  for (const vault of vaults) {
    const field = fieldsById.get(vault.field_id!);
    if (!field) continue;
    // completes the driver's fresh row in place: copying 1,000s of rows with a spread costs more than the query
    const placed = Object.assign(vault, {
      field_col: field.col,
      field_row: field.row,
      warehouse_id: row.id,
      warehouse_name: row.name,
    });
    let list = vaultsByField.get(field.id);
    if (!list) vaultsByField.set(field.id, (list = []));
    list.push(presentVault(placed, files.get(vault.id)));
    customers.add(vault.customer_name);
    if (vault.order_name) orders.add(vault.order_name);
  }
  const sorted = (names: Set<string>) => [...names].sort(naturalCompare);
  return presentWarehouse(
    row,
    countVaults(vaults),
    fields.map((field) => presentField(field, vaultsByField.get(field.id) ?? [])),
    { customers: sorted(customers), orders: sorted(orders) },
  );
}

/** The lean warehouse (no fields) with its counts; used where an answer names the warehouse a change touched. */
/** A warehouse's summary once `vault` has left it, from its row as read before the vault was counted out. */
export function summaryWithoutVault(row: WarehouseWithStatsRow, vault: StatsVault): WarehouseSummaryDto {
  const stats = statsOf(row);
  const leaving = countVaults([vault]);
  return presentWarehouseSummary(row, {
    vaultCount: stats.vaultCount - leaving.vaultCount,
    realVaultCount: stats.realVaultCount - leaving.realVaultCount,
    emptyVaultCount: stats.emptyVaultCount - leaving.emptyVaultCount,
    emptyCouchboxCount: stats.emptyCouchboxCount - leaving.emptyCouchboxCount,
  });
}

export async function loadWarehouseSummary(
  db: Db,
  companyId: number,
  warehouseId: number,
): Promise<WarehouseSummaryDto> {
  const row = await findWarehouseWithStats(db, companyId, warehouseId);
  if (!row) throw notFound(WAREHOUSE_NOT_FOUND);
  return presentWarehouseSummary(row, statsOf(row));
}

/** Creates the warehouse and its whole field grid (A1..A{rows}, B1.., ...) in one transaction. */
export async function createWarehouse(
  db: Db,
  actor: Actor,
  input: AddWarehouseInput & { gridX?: number; gridY?: number },
): Promise<WarehouseDto> {
  const slug = warehouseSlug(input.name);
  try {
    const id = await db.transaction().execute(async (trx) => {
      const clash = await findWarehouseNamed(trx, actor.companyId, input.name, slug);
      if (clash) throw conflict(DUPLICATE_WAREHOUSE);
      const warehouseId = await insertWarehouse(trx, {
        companyId: actor.companyId,
        name: input.name,
        slug,
        rows: input.rows,
        cols: input.cols,
        fieldCapacity: input.field_capacity,
        length: input.length,
        width: input.width,
        gridX: input.gridX,
        gridY: input.gridY,
      });
      const cells: { companyId: number; warehouseId: number; col: number; row: number }[] = [];
      for (let col = 1; col <= input.cols; col++) {
        for (let row = 1; row <= input.rows; row++)
          cells.push({ companyId: actor.companyId, warehouseId, col, row });
      }
      await insertFields(trx, cells);
      await recordEvent(trx, {
        companyId: actor.companyId,
        userId: actor.userId,
        kind: 'warehouse.added',
        entityType: 'warehouse',
        entityId: warehouseId,
        warehouseId,
        payload: { name: input.name },
      });
      return warehouseId;
    });
    return await loadWarehouse(db, actor.companyId, id);
  } catch (error) {
    // a second request with the same name can pass the check before the first commits
    if (isUniqueViolation(error)) throw conflict(DUPLICATE_WAREHOUSE);
    throw error;
  }
}

/**
 * A step another feature runs inside the delete of a warehouse, before its rows go: the racks feature records the
 * removal of each pallet, the checks feature keeps the reports of the warehouse's checks. Registered once at start-up
 * by `server/features/feature-routes.ts` (the core imports no other feature).
 */
export type WarehouseRemovalStep = (
  trx: Trx,
  actor: Actor,
  warehouse: { id: number; name: string },
) => Promise<Record<string, unknown>>;

const removalSteps = new Set<WarehouseRemovalStep>();

export function onWarehouseRemoval(step: WarehouseRemovalStep): void {
  removalSteps.add(step);
}

/**
 * Deletes the warehouse with everything in it (the schema cascades), then customers and orders nothing uses any more.
 * The history keeps where each unit was: one 'vault.removed' event per vault (its place, names as they were), the
 * other features' removals, and a 'warehouse.deleted' event that lists what went with the warehouse (issue 34).
 */
export async function deleteWarehouse(
  db: Db,
  actor: Actor,
  warehouseId: number,
): Promise<{ message: string; id: number }> {
  await db.transaction().execute(async (trx) => {
    // the delete cascades over the whole aggregate: a layout change like any other
    const row = await lockWarehouseLayout(trx, actor.companyId, warehouseId);
    const [fields, vaults] = await Promise.all([
      findFieldsOfWarehouse(trx, actor.companyId, warehouseId),
      findVaultsOfWarehouse(trx, actor.companyId, warehouseId),
    ]);
    const names = new Map(fields.map((f) => [f.id, fieldName(f.col, f.row)]));
    vaults.sort((a, b) => a.id - b.id);
    const removed = vaults.map((v) => ({
      id: v.id,
      number: v.name,
      customer: v.customer_name,
      order: v.order_name,
      type: v.type,
      field: names.get(v.field_id!) ?? '',
      position: v.position ?? 0,
    }));
    await recordEvents(
      trx,
      removed.map((v) => ({
        companyId: actor.companyId,
        userId: actor.userId,
        kind: 'vault.removed',
        entityType: 'vault',
        entityId: v.id,
        warehouseId,
        warehouseName: row.name,
        subject: v.number,
        customer: v.customer,
        payload: {
          reason: 'warehouse-deleted',
          before: { warehouseId, warehouse: row.name, field: v.field, position: v.position },
          after: null,
          vault: { order: v.order, type: v.type },
        },
      })),
    );
    const others: Record<string, unknown> = {};
    for (const step of removalSteps) Object.assign(others, await step(trx, actor, row));
    await deleteWarehouseRow(trx, actor.companyId, warehouseId);
    await deleteUnusedCustomers(trx, actor.companyId);
    await deleteUnusedOrders(trx, actor.companyId);
    await recordEvent(trx, {
      companyId: actor.companyId,
      userId: actor.userId,
      kind: 'warehouse.deleted',
      entityType: 'warehouse',
      entityId: warehouseId,
      warehouseId,
      warehouseName: row.name,
      payload: {
        name: row.name,
        fields: fields.length,
        vaults: removed.map((v) => ({
          id: v.id,
          number: v.number,
          customer: v.customer,
          field: v.field,
          position: v.position,
        })),
        ...others,
      },
    });
  });
  return { message: 'Warehouse deleted successfully', id: warehouseId };
}
