import { fieldName, parseFieldName } from '@domain/rules/field-names';
import { parseScanText } from '@domain/rules/scan-text';
import type { ScannedFieldDto, ScannedVaultDto } from '@domain/schemas/scan.schema';
import type {
  CheckDto,
  CheckScanAnswer,
  CheckScanInput,
  CheckSummaryDto,
  ResolveCheckInput,
  StartCheckInput,
} from '@domain/schemas/check.schema';
import type { Actor } from '../../auth/actor';
import { type Db, nowIso } from '../../db/database';
import { lockWarehouse, type Trx } from '../../db/locks';
import { recordEvent } from '../../events/event-log.repo';
import { badRequest, conflict, notFound } from '../../http/errors';
import { resolveScan } from '../labels/scan.service';
import { moveVaultIn, withConflictMapping } from '../vaults/vaults.service';
import { requireWarehouse } from '../warehouses/warehouse-access';
import {
  claimResolution,
  clearFieldCount,
  findCheck,
  findCheckIdsOfWarehouse,
  findCheckReport,
  findCheckReports,
  insertCheckReport,
  markClosed,
  findCheckFields,
  findCheckVault,
  findCheckVaults,
  findChecks,
  findExpectedVaultsNamed,
  type CheckVaultRow,
  findWarehouseFields,
  insertCheck,
  insertCoverage,
  markFound,
  openCheckField,
  touchCheck,
} from './checks.repo';
import { isDiscrepancy, presentCheck, presentCheckSummary } from './checks.presenter';
import { actorName } from '../../auth/users.repo';

export const CHECK_NOT_FOUND = 'Warehouse check not found';
export const NO_FIELDS = 'This warehouse has no fields to check.';
export const FIELDS_NOT_IN_WAREHOUSE = 'Some of the chosen fields are not fields of this warehouse.';
export const CHECK_FINISHED = 'This check is finished. Start a new check to scan again.';
export const CHECK_CANCELLED = 'This check was cancelled. Start a new check to scan again.';
export const CHECK_CLOSED = 'This check is already finished or cancelled.';
export const CHECK_WAREHOUSE_DELETED =
  'The warehouse of this check was deleted. Its report is kept as it stood and cannot be changed.';
export const CHECK_NOT_FINISHED = 'Finish the check first: discrepancies are resolved from its report.';
export const SCAN_FIELD_FIRST = 'Scan the label of the field you are checking first, or pick the field.';
export const NOT_ON_CHECK = 'This vault is not on the check.';
export const NOT_UNEXPECTED = 'This vault was found where it was expected; there is nothing to move.';
export const NOT_MISSING = 'This vault is not missing.';
export const ALREADY_RESOLVED = 'This discrepancy was already resolved. Please refresh the report.';
export const CHECK_FIELD_NOT_FOUND = 'This field is not part of this check.';
export const fieldNotInCheck = (field: string) => `Field ${field} is not part of this check.`;
export const alreadyFoundIn = (vault: string, field: string) =>
  `Vault ${vault} was already found in field ${field} during this check.`;

/** GET /api/checks: the company's checks, those of deleted warehouses included, newest first. */
export async function listChecks(db: Db, companyId: number): Promise<CheckSummaryDto[]> {
  const [live, kept] = await Promise.all([findChecks(db, companyId), findCheckReports(db, companyId)]);
  const summaries: CheckSummaryDto[] = [
    ...live.map(presentCheckSummary),
    ...kept.map((report) => {
      const { fields: _f, discrepancies: _d, unresolved: _u, version: _v, ...summary } = report;
      return summary;
    }),
  ];
  return summaries.sort((a, b) => b.id - a.id).slice(0, 200);
}

/**
 * GET /api/checks/{id}: per covered field, the vaults expected, found, missing, not checked and unexpected. The check
 * of a deleted warehouse answers its report as it was kept.
 */
export async function loadCheck(db: Db, companyId: number, checkId: number): Promise<CheckDto> {
  const check = await findCheck(db, companyId, checkId);
  if (!check) {
    const kept = await findCheckReport(db, companyId, checkId);
    if (kept) return kept;
    throw notFound(CHECK_NOT_FOUND);
  }
  const [fields, vaults] = await Promise.all([
    findCheckFields(db, companyId, checkId),
    findCheckVaults(db, companyId, checkId),
  ]);
  return presentCheck(check, fields, vaults);
}

const nameOfField = (fields: { id: number; col: number; row: number }[], id: number | null) => {
  const field = id === null ? undefined : fields.find((f) => f.id === id);
  return field ? fieldName(field.col, field.row) : null;
};

/** The live check, open for changes: 404 for no such check, 409 for a kept report, 400 once closed. */
async function requireOpenCheck(db: Db, companyId: number, checkId: number) {
  const check = await findCheck(db, companyId, checkId);
  if (!check) {
    if (await findCheckReport(db, companyId, checkId)) throw conflict(CHECK_WAREHOUSE_DELETED);
    throw notFound(CHECK_NOT_FOUND);
  }
  if (check.cancelled_at !== null) throw badRequest(CHECK_CANCELLED);
  if (check.finished_at !== null) throw badRequest(CHECK_FINISHED);
  return check;
}

/**
 * POST /api/checks: a check of the whole warehouse or the chosen fields. The vaults standing in them now are what the
 * check expects; the warehouse is locked shared like any vault work, so no move is half-seen.
 */
export async function startCheck(db: Db, actor: Actor, input: StartCheckInput): Promise<CheckDto> {
  return db.transaction().execute(async (trx) => {
    const warehouse = await requireWarehouse(trx, actor.companyId, input.warehouse_id);
    await lockWarehouse(trx, warehouse.id, 'share');
    const wanted = input.field_ids ? [...new Set(input.field_ids)] : undefined;
    const fields = await findWarehouseFields(trx, actor.companyId, warehouse.id, wanted);
    if (wanted && fields.length !== wanted.length) throw badRequest(FIELDS_NOT_IN_WAREHOUSE);
    if (fields.length === 0) throw badRequest(NO_FIELDS);
    const who = await actorName(trx, actor.userId);
    const checkId = await insertCheck(trx, {
      companyId: actor.companyId,
      warehouseId: warehouse.id,
      startedBy: who,
    });
    await insertCoverage(
      trx,
      actor.companyId,
      checkId,
      fields.map((f) => f.id),
    );
    await recordEvent(trx, {
      companyId: actor.companyId,
      userId: actor.userId,
      kind: 'check.started',
      entityType: 'check',
      entityId: checkId,
      warehouseId: warehouse.id,
      payload: { fields: fields.map((f) => fieldName(f.col, f.row)) },
    });
    return loadCheck(trx, actor.companyId, checkId);
  });
}

/**
 * POST /api/checks/{id}/scans: a field label opens that field; a vault label counts the vault as found in the field
 * being checked. The text is read like every other scan of the app (labels/scan.service.ts), within the check's
 * warehouse. The check's row is claimed first, so a scan never lands after the finish, and the vault's row is
 * written once: the same vault scanned twice, or by two people at once, counts once.
 */
export async function scanInCheck(
  db: Db,
  actor: Actor,
  checkId: number,
  input: CheckScanInput,
): Promise<CheckScanAnswer> {
  return db.transaction().execute(async (trx) => {
    const check = await requireOpenCheck(trx, actor.companyId, checkId);
    const target = await checkScanTarget(trx, actor.companyId, check, input);
    if (!(await touchCheck(trx, actor.companyId, checkId, { onlyOpen: true })))
      throw conflict(CHECK_FINISHED);
    const who = await actorName(trx, actor.userId);
    const event = {
      companyId: actor.companyId,
      userId: actor.userId,
      entityType: 'check' as const,
      entityId: checkId,
      warehouseId: check.warehouse_id,
      warehouseName: check.warehouse_name,
    };
    if (target.kind === 'field') {
      const field = target.field;
      if (
        field.warehouseId !== check.warehouse_id ||
        !(await openCheckField(trx, actor.companyId, checkId, field.id, who))
      )
        throw badRequest(fieldNotInCheck(field.name));
      await recordEvent(trx, { ...event, kind: 'check.field-opened', payload: { field: field.name } });
      return {
        kind: 'field',
        field_id: field.id,
        field_name: field.name,
        check: await loadCheck(trx, actor.companyId, checkId),
      };
    }
    if (input.field_id === undefined) throw badRequest(SCAN_FIELD_FIRST);
    const fields = await findCheckFields(trx, actor.companyId, checkId);
    const field = fields.find((f) => f.id === input.field_id);
    if (!field) throw badRequest(SCAN_FIELD_FIRST);
    await openCheckField(trx, actor.companyId, checkId, field.id, who);
    const vaultId = target.vault.id;
    const vaultName = target.vault.name ?? target.vault.customerName;
    const before = await findCheckVault(trx, actor.companyId, checkId, vaultId);
    const foundIn = await markFound(trx, {
      companyId: actor.companyId,
      checkId,
      vaultId,
      fieldId: field.id,
      who,
    });
    if (foundIn !== field.id) {
      const first = fields.find((f) => f.id === foundIn);
      throw conflict(alreadyFoundIn(vaultName, first ? fieldName(first.col, first.row) : '?'));
    }
    const again = before?.found_field_id === field.id;
    const result = again ? 'again' : before?.expected_field_id === field.id ? 'found' : 'unexpected';
    if (!again)
      await recordEvent(trx, {
        ...event,
        kind: 'check.scanned',
        subject: target.vault.name,
        customer: target.vault.customerName,
        payload: {
          field: fieldName(field.col, field.row),
          vaultId,
          result,
          expectedField: nameOfField(fields, before?.expected_field_id ?? null),
        },
      });
    const loaded = await loadCheck(trx, actor.companyId, checkId);
    const vault = loaded.fields
      .flatMap((f) => [...f.found, ...f.unexpected])
      .find((v) => v.id === vaultId && v.found_field_id === field.id);
    if (!vault) throw notFound(NOT_ON_CHECK);
    return { kind: 'vault', field_id: field.id, vault, result, check: loaded };
  });
}

type CheckScanTarget =
  | { kind: 'field'; field: ScannedFieldDto }
  | { kind: 'vault'; vault: Pick<ScannedVaultDto, 'id' | 'name' | 'customerName'> };

/**
 * What a scan in a check names. A vault counted by hand (one with no number or label to scan) must be one the check
 * expects. A typed vault number the company uses twice means the one expected in the field being checked; otherwise
 * the text is read like every other scan, within the check's warehouse.
 */
async function checkScanTarget(
  trx: Trx,
  companyId: number,
  check: { id: number; warehouse_id: number },
  input: CheckScanInput,
): Promise<CheckScanTarget> {
  const ofVault = (v: CheckVaultRow) =>
    ({ kind: 'vault', vault: { id: v.id, name: v.name, customerName: v.customer_name } }) as const;
  if (input.vault_id !== undefined) {
    const vault = await findCheckVault(trx, companyId, check.id, input.vault_id);
    if (!vault) throw notFound(NOT_ON_CHECK);
    return ofVault(vault);
  }
  const text = input.text ?? '';
  const words = parseScanText(text);
  if (input.field_id !== undefined && words?.kind === 'words' && !parseFieldName(words.text)) {
    const here = await findExpectedVaultsNamed(trx, companyId, check.id, input.field_id, words.text);
    if (here.length === 1) return ofVault(here[0]!);
  }
  return resolveScan(trx, companyId, { text, warehouseId: check.warehouse_id });
}

/** POST /api/checks/{id}/finish: the report is what the check holds now; history keeps its summary. */
export async function finishCheck(db: Db, actor: Actor, checkId: number): Promise<CheckDto> {
  return db.transaction().execute(async (trx) => {
    const check = await findCheck(trx, actor.companyId, checkId);
    if (!check) {
      if (await findCheckReport(trx, actor.companyId, checkId)) throw conflict(CHECK_WAREHOUSE_DELETED);
      throw notFound(CHECK_NOT_FOUND);
    }
    if (check.cancelled_at !== null) throw conflict(CHECK_CANCELLED);
    const who = await actorName(trx, actor.userId);
    if (!(await markClosed(trx, actor.companyId, checkId, 'finished', who))) throw conflict(CHECK_FINISHED);
    const report = await loadCheck(trx, actor.companyId, checkId);
    await recordEvent(trx, {
      companyId: actor.companyId,
      userId: actor.userId,
      kind: 'check.finished',
      entityType: 'check',
      entityId: checkId,
      warehouseId: check.warehouse_id,
      payload: {
        fields: report.fields.map((f) => f.name),
        notChecked: report.fields.filter((f) => !f.checked).map((f) => f.name),
        found: report.fields.reduce((n, f) => n + f.found.length, 0),
        missing: report.fields.reduce(
          (n, f) => n + f.missing.filter((v) => v.found_field_id === null).length,
          0,
        ),
        unexpected: report.fields.reduce((n, f) => n + f.unexpected.length, 0),
      },
    });
    return report;
  });
}

/**
 * POST /api/checks/{id}/resolve: one discrepancy of a finished check in one step. 'moved' moves an unexpected vault
 * into the field where it was found, through the vault move with all its rules and locks ('Field B4 is full.');
 * 'searched' marks a missing vault as searched for. The resolution is claimed first, so two people resolving the same
 * vault get one success and one clear 409; a refused move leaves it unresolved.
 */
export async function resolveDiscrepancy(
  db: Db,
  actor: Actor,
  checkId: number,
  input: ResolveCheckInput,
): Promise<CheckDto> {
  return withConflictMapping(() =>
    db.transaction().execute(async (trx: Trx) => {
      const check = await findCheck(trx, actor.companyId, checkId);
      if (!check) {
        if (await findCheckReport(trx, actor.companyId, checkId)) throw conflict(CHECK_WAREHOUSE_DELETED);
        throw notFound(CHECK_NOT_FOUND);
      }
      if (check.cancelled_at !== null) throw badRequest(CHECK_CANCELLED);
      if (check.finished_at === null) throw badRequest(CHECK_NOT_FINISHED);
      const row = await findCheckVault(trx, actor.companyId, checkId, input.vault_id);
      const checked = new Set(
        (await findCheckFields(trx, actor.companyId, checkId))
          .filter((f) => f.opened_at !== null)
          .map((f) => f.id),
      );
      if (!row || !isDiscrepancy(row, checked)) throw badRequest(NOT_ON_CHECK);
      if (input.action === 'moved' && row.found_field_id === null) throw badRequest(NOT_UNEXPECTED);
      if (input.action === 'searched' && row.found_field_id !== null) throw badRequest(NOT_MISSING);
      const who = await actorName(trx, actor.userId);
      if (!(await claimResolution(trx, actor.companyId, checkId, row.id, input.action, who)))
        throw conflict(ALREADY_RESOLVED);
      if (input.action === 'moved')
        await moveVaultIn(trx, actor, { vaultId: row.id, fieldId: row.found_field_id!, position: 'next' });
      await touchCheck(trx, actor.companyId, checkId, { onlyOpen: false });
      await recordEvent(trx, {
        companyId: actor.companyId,
        userId: actor.userId,
        kind: `check.${input.action}`,
        entityType: 'check',
        entityId: checkId,
        warehouseId: check.warehouse_id,
        warehouseName: check.warehouse_name,
        subject: row.name,
        customer: row.customer_name,
        payload: { vaultId: row.id },
      });
      return loadCheck(trx, actor.companyId, checkId);
    }),
  );
}

/** POST /api/checks/{id}/cancel: gives up an open check; it reports nothing missing, and its history says who. */
export async function cancelCheck(db: Db, actor: Actor, checkId: number): Promise<CheckDto> {
  return db.transaction().execute(async (trx) => {
    const check = await findCheck(trx, actor.companyId, checkId);
    if (!check) {
      if (await findCheckReport(trx, actor.companyId, checkId)) throw conflict(CHECK_WAREHOUSE_DELETED);
      throw notFound(CHECK_NOT_FOUND);
    }
    const who = await actorName(trx, actor.userId);
    if (!(await markClosed(trx, actor.companyId, checkId, 'cancelled', who))) throw conflict(CHECK_CLOSED);
    await recordEvent(trx, {
      companyId: actor.companyId,
      userId: actor.userId,
      kind: 'check.cancelled',
      entityType: 'check',
      entityId: checkId,
      warehouseId: check.warehouse_id,
      payload: { fields: check.field_count, checked: check.checked_count },
    });
    return loadCheck(trx, actor.companyId, checkId);
  });
}

/**
 * POST /api/checks/{id}/fields/{fieldId}/recount: forgets what was counted in one field of an open check, so it can
 * be counted again (it shows as not checked until someone opens it).
 */
export async function recountField(
  db: Db,
  actor: Actor,
  checkId: number,
  fieldId: number,
): Promise<CheckDto> {
  return db.transaction().execute(async (trx) => {
    const check = await requireOpenCheck(trx, actor.companyId, checkId);
    if (!(await touchCheck(trx, actor.companyId, checkId, { onlyOpen: true }))) throw conflict(CHECK_CLOSED);
    const field = (await findCheckFields(trx, actor.companyId, checkId)).find((f) => f.id === fieldId);
    if (!field) throw notFound(CHECK_FIELD_NOT_FOUND);
    await clearFieldCount(trx, actor.companyId, checkId, fieldId);
    await recordEvent(trx, {
      companyId: actor.companyId,
      userId: actor.userId,
      kind: 'check.field-recounted',
      entityType: 'check',
      entityId: checkId,
      warehouseId: check.warehouse_id,
      warehouseName: check.warehouse_name,
      payload: { field: fieldName(field.col, field.row) },
    });
    return loadCheck(trx, actor.companyId, checkId);
  });
}

/**
 * The checks feature's step in a warehouse's delete (registered by feature-routes.ts): each check's report is kept as
 * it stands, under its own id; an open check ends there (it says the warehouse was deleted, not what was missing).
 */
export async function keepChecksOfWarehouse(
  trx: Trx,
  actor: Actor,
  warehouse: { id: number; name: string },
): Promise<{ checks: number[] }> {
  const ids = await findCheckIdsOfWarehouse(trx, actor.companyId, warehouse.id);
  const at = nowIso();
  for (const id of ids) {
    const report = await loadCheck(trx, actor.companyId, id);
    await insertCheckReport(trx, actor.companyId, { ...report, warehouse_deleted_at: at });
  }
  return { checks: ids };
}
