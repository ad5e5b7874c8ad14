import type { CheckDto, CheckSummaryDto, CheckVaultDto } from '@domain/schemas/check.schema';
import type { Db } from '../../db/database';
import { nowIso } from '../../db/database';

export interface FieldPlaceRow {
  id: number;
  col: number;
  row: number;
}

/** The warehouse's fields, or the named ones of them (ids of other warehouses or companies are left out). */
export async function findWarehouseFields(
  db: Db,
  companyId: number,
  warehouseId: number,
  fieldIds?: number[],
): Promise<FieldPlaceRow[]> {
  let query = db
    .selectFrom('fields')
    .select(['id', 'col', 'row'])
    .where('company_id', '=', companyId)
    .where('warehouse_id', '=', warehouseId);
  if (fieldIds) query = query.where('id', 'in', fieldIds);
  return query.orderBy('id').execute();
}

export async function insertCheck(
  db: Db,
  check: { companyId: number; warehouseId: number; startedBy: string },
): Promise<number> {
  const row = await db
    .insertInto('warehouse_checks')
    .values({
      company_id: check.companyId,
      warehouse_id: check.warehouseId,
      started_by: check.startedBy,
      started_at: nowIso(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The covered fields, and every vault standing in them now as expected there. */
export async function insertCoverage(
  db: Db,
  companyId: number,
  checkId: number,
  fieldIds: number[],
): Promise<void> {
  // in slices, so a big warehouse stays within the engines' limits on bound values
  for (let i = 0; i < fieldIds.length; i += 500) {
    const slice = fieldIds.slice(i, i + 500);
    await db
      .insertInto('warehouse_check_fields')
      .values(slice.map((fieldId) => ({ company_id: companyId, check_id: checkId, field_id: fieldId })))
      .execute();
    await db
      .insertInto('warehouse_check_vaults')
      .columns(['company_id', 'check_id', 'vault_id', 'expected_field_id'])
      .expression((eb) =>
        eb
          .selectFrom('vaults')
          .select((v) => [
            v.val(companyId).as('company_id'),
            v.val(checkId).as('check_id'),
            'vaults.id as vault_id',
            'vaults.field_id as expected_field_id',
          ])
          .where('vaults.company_id', '=', companyId)
          .where('vaults.field_id', 'in', slice)
          .where('vaults.released_at', 'is', null),
      )
      .execute();
  }
}

/** A check as read: its summary and its version. */
export type CheckRow = Omit<CheckSummaryDto, 'warehouse_deleted_at'> & Pick<CheckDto, 'version'>;

function checksQuery(db: Db, companyId: number) {
  return db
    .selectFrom('warehouse_checks as c')
    .innerJoin('warehouses as w', 'w.id', 'c.warehouse_id')
    .select((eb) => [
      'c.id',
      'c.warehouse_id',
      'w.name as warehouse_name',
      'c.started_by',
      'c.started_at',
      'c.finished_by',
      'c.finished_at',
      'c.cancelled_by',
      'c.cancelled_at',
      'c.version',
      eb
        .selectFrom('warehouse_check_fields as f')
        .select((f) => f.fn.countAll<number>().as('n'))
        .whereRef('f.check_id', '=', 'c.id')
        .as('field_count'),
      eb
        .selectFrom('warehouse_check_fields as f')
        .select((f) => f.fn.countAll<number>().as('n'))
        .whereRef('f.check_id', '=', 'c.id')
        .where('f.opened_at', 'is not', null)
        .as('checked_count'),
    ])
    .where('c.company_id', '=', companyId);
}

export async function findCheck(db: Db, companyId: number, checkId: number): Promise<CheckRow | undefined> {
  const row = await checksQuery(db, companyId).where('c.id', '=', checkId).executeTakeFirst();
  return row && counted(row);
}

const counted = <R extends { field_count: unknown; checked_count: unknown }>(row: R) => ({
  ...row,
  field_count: Number(row.field_count),
  checked_count: Number(row.checked_count),
});

/** The ids of a warehouse's checks (its delete keeps their reports). */
export async function findCheckIdsOfWarehouse(
  db: Db,
  companyId: number,
  warehouseId: number,
): Promise<number[]> {
  const rows = await db
    .selectFrom('warehouse_checks')
    .select('id')
    .where('company_id', '=', companyId)
    .where('warehouse_id', '=', warehouseId)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

/** Keeps a check's report as it stands; its warehouse is about to be deleted. */
export async function insertCheckReport(db: Db, companyId: number, report: CheckDto): Promise<void> {
  await db
    .insertInto('check_reports')
    .values({
      company_id: companyId,
      check_id: report.id,
      warehouse_id: report.warehouse_id,
      warehouse_name: report.warehouse_name,
      started_at: report.started_at,
      report: JSON.stringify(report),
      archived_at: report.warehouse_deleted_at ?? nowIso(),
    })
    .execute();
}

/**
 * A kept report as answered: read-only, so its vaults carry no label code (nothing scans into it). Reports kept before
 * the code was part of a check's answer have none either; both answer null.
 */
function keptReport(json: string): CheckDto {
  const report = JSON.parse(json) as CheckDto;
  const uncoded = (vaults: CheckVaultDto[]) => vaults.map((v) => ({ ...v, label_code: null }));
  return {
    ...report,
    fields: report.fields.map((f) => ({
      ...f,
      found: uncoded(f.found),
      missing: uncoded(f.missing),
      not_checked: uncoded(f.not_checked),
      unexpected: uncoded(f.unexpected),
    })),
  };
}

/** The kept report of a check whose warehouse was deleted. */
export async function findCheckReport(
  db: Db,
  companyId: number,
  checkId: number,
): Promise<CheckDto | undefined> {
  const row = await db
    .selectFrom('check_reports')
    .select('report')
    .where('company_id', '=', companyId)
    .where('check_id', '=', checkId)
    .executeTakeFirst();
  return row && keptReport(row.report);
}

/** The company's kept reports, newest first (the last 200). */
export async function findCheckReports(db: Db, companyId: number): Promise<CheckDto[]> {
  const rows = await db
    .selectFrom('check_reports')
    .select('report')
    .where('company_id', '=', companyId)
    .orderBy('check_id', 'desc')
    .limit(200)
    .execute();
  return rows.map((row) => keptReport(row.report));
}

/** Closes an open check, as finished or as cancelled, by `who`; false when it was already closed either way. */
export async function markClosed(
  db: Db,
  companyId: number,
  checkId: number,
  how: 'finished' | 'cancelled',
  who: string,
): Promise<boolean> {
  const at = nowIso();
  const result = await db
    .updateTable('warehouse_checks')
    .set((eb) => ({
      ...(how === 'finished'
        ? { finished_by: who, finished_at: at }
        : { cancelled_by: who, cancelled_at: at }),
      version: eb('version', '+', 1),
    }))
    .where('company_id', '=', companyId)
    .where('id', '=', checkId)
    .where('finished_at', 'is', null)
    .where('cancelled_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Clears what was counted in one field of an open check, so it is counted again: vaults found there are not found
 * (those the check did not expect are forgotten), and the field is not checked until someone opens it again.
 */
export async function clearFieldCount(
  db: Db,
  companyId: number,
  checkId: number,
  fieldId: number,
): Promise<void> {
  await db
    .deleteFrom('warehouse_check_vaults')
    .where('company_id', '=', companyId)
    .where('check_id', '=', checkId)
    .where('found_field_id', '=', fieldId)
    .where('expected_field_id', 'is', null)
    .execute();
  await db
    .updateTable('warehouse_check_vaults')
    .set({ found_field_id: null, found_by: null, found_at: null })
    .where('company_id', '=', companyId)
    .where('check_id', '=', checkId)
    .where('found_field_id', '=', fieldId)
    .execute();
  await db
    .updateTable('warehouse_check_fields')
    .set({ opened_by: null, opened_at: null })
    .where('company_id', '=', companyId)
    .where('check_id', '=', checkId)
    .where('field_id', '=', fieldId)
    .execute();
}

/** The company's checks, newest first (the last 200). */
export async function findChecks(db: Db, companyId: number): Promise<CheckRow[]> {
  const rows = await checksQuery(db, companyId).orderBy('c.id', 'desc').limit(200).execute();
  return rows.map(counted);
}

export interface CheckFieldRow {
  id: number;
  col: number;
  row: number;
  opened_by: string | null;
  opened_at: string | null;
}

export async function findCheckFields(db: Db, companyId: number, checkId: number): Promise<CheckFieldRow[]> {
  return db
    .selectFrom('warehouse_check_fields as cf')
    .innerJoin('fields as f', 'f.id', 'cf.field_id')
    .select(['f.id', 'f.col', 'f.row', 'cf.opened_by', 'cf.opened_at'])
    .where('cf.company_id', '=', companyId)
    .where('cf.check_id', '=', checkId)
    .execute();
}

/** A vault the check met as read: the DTO without the field names (the presenter adds them), any resolution text. */
export type CheckVaultRow = Omit<CheckVaultDto, 'expected_field_name' | 'found_field_name' | 'resolution'> & {
  resolution: string | null;
};

function checkVaultsQuery(db: Db, companyId: number, checkId: number) {
  return db
    .selectFrom('warehouse_check_vaults as cv')
    .innerJoin('vaults as v', 'v.id', 'cv.vault_id')
    .innerJoin('customers as cu', 'cu.id', 'v.customer_id')
    .leftJoin('orders as o', 'o.id', 'v.order_id')
    .select([
      'v.id',
      'v.name',
      'cu.name as customer_name',
      'o.name as order_name',
      'v.type',
      'v.label_code',
      'cv.expected_field_id',
      'cv.found_field_id',
      'cv.found_by',
      'cv.resolution',
      'cv.resolved_by',
      'cv.resolved_at',
    ])
    .where('cv.company_id', '=', companyId)
    .where('cv.check_id', '=', checkId);
}

export async function findCheckVaults(db: Db, companyId: number, checkId: number): Promise<CheckVaultRow[]> {
  return checkVaultsQuery(db, companyId, checkId).orderBy('v.id').execute();
}

export async function findCheckVault(
  db: Db,
  companyId: number,
  checkId: number,
  vaultId: number,
): Promise<CheckVaultRow | undefined> {
  return checkVaultsQuery(db, companyId, checkId).where('v.id', '=', vaultId).executeTakeFirst();
}

/** The check's vaults expected in one field under this number: where the company uses a number twice, the one here. */
export async function findExpectedVaultsNamed(
  db: Db,
  companyId: number,
  checkId: number,
  fieldId: number,
  name: string,
): Promise<CheckVaultRow[]> {
  return checkVaultsQuery(db, companyId, checkId)
    .where('cv.expected_field_id', '=', fieldId)
    .where('v.name', '=', name)
    .limit(2)
    .execute();
}

/**
 * Moves the check's version on. With `onlyOpen` this claims the check for a write while it is still open, which also
 * orders the write after a concurrent finish (the finish changes the same row). False when nothing changed: the check
 * is not the company's, or (with `onlyOpen`) it is finished.
 */
export async function touchCheck(
  db: Db,
  companyId: number,
  checkId: number,
  { onlyOpen }: { onlyOpen: boolean },
): Promise<boolean> {
  let query = db
    .updateTable('warehouse_checks')
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('company_id', '=', companyId)
    .where('id', '=', checkId);
  if (onlyOpen) query = query.where('finished_at', 'is', null).where('cancelled_at', 'is', null);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Marks the field opened by the first who scanned or picked it; false when the check does not cover it. */
export async function openCheckField(
  db: Db,
  companyId: number,
  checkId: number,
  fieldId: number,
  who: string,
): Promise<boolean> {
  const covered = await db
    .selectFrom('warehouse_check_fields')
    .select('id')
    .where('company_id', '=', companyId)
    .where('check_id', '=', checkId)
    .where('field_id', '=', fieldId)
    .executeTakeFirst();
  if (!covered) return false;
  await db
    .updateTable('warehouse_check_fields')
    .set({ opened_by: who, opened_at: nowIso() })
    .where('id', '=', covered.id)
    .where('opened_at', 'is', null)
    .execute();
  return true;
}

/**
 * Counts the vault as found in the field, once: the row is made if the check did not expect the vault, and a vault
 * already found keeps its first field. Answers the field it counts in now (the given one, or where it was found first).
 */
export async function markFound(
  db: Db,
  found: { companyId: number; checkId: number; vaultId: number; fieldId: number; who: string },
): Promise<number | null> {
  const at = nowIso();
  await db
    .insertInto('warehouse_check_vaults')
    .values({
      company_id: found.companyId,
      check_id: found.checkId,
      vault_id: found.vaultId,
      expected_field_id: null,
      found_field_id: found.fieldId,
      found_by: found.who,
      found_at: at,
    })
    .onConflict((oc) =>
      oc
        .columns(['check_id', 'vault_id'])
        .doUpdateSet({ found_field_id: found.fieldId, found_by: found.who, found_at: at })
        .where('warehouse_check_vaults.found_field_id', 'is', null),
    )
    .execute();
  const row = await db
    .selectFrom('warehouse_check_vaults')
    .select('found_field_id')
    .where('check_id', '=', found.checkId)
    .where('vault_id', '=', found.vaultId)
    .executeTakeFirst();
  return row?.found_field_id ?? null;
}

/** Sets the resolution of the check's vault unless it has one; false then. */
export async function claimResolution(
  db: Db,
  companyId: number,
  checkId: number,
  vaultId: number,
  resolution: 'moved' | 'searched',
  who: string,
): Promise<boolean> {
  const result = await db
    .updateTable('warehouse_check_vaults')
    .set({ resolution, resolved_by: who, resolved_at: nowIso() })
    .where('company_id', '=', companyId)
    .where('check_id', '=', checkId)
    .where('vault_id', '=', vaultId)
    .where('resolution', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
