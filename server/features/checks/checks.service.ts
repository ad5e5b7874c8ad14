import { fieldName } from '../../../domain/rules/field-names';
import type {
  CheckDto,
  CheckScanAnswer,
  CheckScanInput,
  CheckSummaryDto,
  ResolveCheckInput,
  StartCheckInput,
} from '../../../domain/schemas/check.schema';
import type { Actor } from '../../auth/actor';
import type { Db } from '../../db/database';
import { lockWarehouse, type Trx } from '../../db/locks';
import { recordEvent } from '../../events/event-log.repo';
import { badRequest, conflict, notFound } from '../../http/errors';
import { resolveScan } from '../labels/scan.service';
import { moveVaultIn, withConflictMapping } from '../vaults/vaults.service';
import { requireWarehouse } from '../warehouses/warehouse-access';
import {
  claimResolution,
  findCheck,
  findCheckFields,
  findCheckVault,
  findCheckVaults,
  findChecks,
  findWarehouseFields,
  insertCheck,
  insertCoverage,
  markFinished,
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
export const CHECK_NOT_FINISHED = 'Finish the check first: discrepancies are resolved from its report.';
export const SCAN_FIELD_FIRST = 'Scan the label of the field you are checking first, or pick the field.';
export const NOT_ON_CHECK = 'This vault is not on the check.';
export const NOT_UNEXPECTED = 'This vault was found where it was expected; there is nothing to move.';
export const NOT_MISSING = 'This vault is not missing.';
export const ALREADY_RESOLVED = 'This discrepancy was already resolved. Please refresh the report.';
export const fieldNotInCheck = (field: string) => `Field ${field} is not part of this check.`;
export const alreadyFoundIn = (vault: string, field: string) =>
  `Vault ${vault} was already found in field ${field} during this check.`;

/** GET /api/checks */
export async function listChecks(db: Db, companyId: number): Promise<CheckSummaryDto[]> {
  return (await findChecks(db, companyId)).map(presentCheckSummary);
}

/** GET /api/checks/{id}: per covered field, the vaults expected, found, missing and unexpected. */
export async function loadCheck(db: Db, companyId: number, checkId: number): Promise<CheckDto> {
  const check = await findCheck(db, companyId, checkId);
  if (!check) throw notFound(CHECK_NOT_FOUND);
  const [fields, vaults] = await Promise.all([
    findCheckFields(db, companyId, checkId),
    findCheckVaults(db, companyId, checkId),
  ]);
  return presentCheck(check, fields, vaults);
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
    const check = await findCheck(trx, actor.companyId, checkId);
    if (!check) throw notFound(CHECK_NOT_FOUND);
    if (check.finished_at !== null) throw badRequest(CHECK_FINISHED);
    const target = await resolveScan(trx, actor.companyId, {
      text: input.text,
      warehouseId: check.warehouse_id,
    });
    if (!(await touchCheck(trx, actor.companyId, checkId, { onlyOpen: true })))
      throw conflict(CHECK_FINISHED);
    const who = await actorName(trx, actor.userId);
    const event = {
      companyId: actor.companyId,
      userId: actor.userId,
      entityType: 'check' as const,
      entityId: checkId,
      warehouseName: check.warehouse_name,
    };
    if (target.kind === 'field') {
      const field = target.field;
      if (field.warehouseId !== check.warehouse_id || !(await openCheckField(trx, checkId, field.id, who)))
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
    await openCheckField(trx, checkId, field.id, who);
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
        payload: { field: fieldName(field.col, field.row), vaultId, result },
      });
    const loaded = await loadCheck(trx, actor.companyId, checkId);
    const vault = loaded.fields
      .flatMap((f) => [...f.found, ...f.unexpected])
      .find((v) => v.id === vaultId && v.found_field_id === field.id);
    if (!vault) throw notFound(NOT_ON_CHECK);
    return { kind: 'vault', field_id: field.id, vault, result, check: loaded };
  });
}

/** POST /api/checks/{id}/finish: the report is what the check holds now; history keeps its summary. */
export async function finishCheck(db: Db, actor: Actor, checkId: number): Promise<CheckDto> {
  return db.transaction().execute(async (trx) => {
    const check = await findCheck(trx, actor.companyId, checkId);
    if (!check) throw notFound(CHECK_NOT_FOUND);
    const who = await actorName(trx, actor.userId);
    if (!(await markFinished(trx, actor.companyId, checkId, who))) throw conflict(CHECK_FINISHED);
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
      if (!check) throw notFound(CHECK_NOT_FOUND);
      if (check.finished_at === null) throw badRequest(CHECK_NOT_FINISHED);
      const row = await findCheckVault(trx, actor.companyId, checkId, input.vault_id);
      if (!row || !isDiscrepancy(row)) throw badRequest(NOT_ON_CHECK);
      if (input.action === 'moved' && row.found_field_id === null) throw badRequest(NOT_UNEXPECTED);
      if (input.action === 'searched' && row.found_field_id !== null) throw badRequest(NOT_MISSING);
      const who = await actorName(trx, actor.userId);
      if (!(await claimResolution(trx, checkId, row.id, input.action, who))) throw conflict(ALREADY_RESOLVED);
      if (input.action === 'moved')
        await moveVaultIn(trx, actor, { vaultId: row.id, fieldId: row.found_field_id!, position: 'next' });
      await touchCheck(trx, actor.companyId, checkId, { onlyOpen: false });
      await recordEvent(trx, {
        companyId: actor.companyId,
        userId: actor.userId,
        kind: `check.${input.action}`,
        entityType: 'check',
        entityId: checkId,
        warehouseName: check.warehouse_name,
        subject: row.name,
        customer: row.customer_name,
        payload: { vaultId: row.id },
      });
      return loadCheck(trx, actor.companyId, checkId);
    }),
  );
}
