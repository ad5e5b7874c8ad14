import { vaultSubject } from '../vaults/vault-history';
import { digOutCounts } from '@domain/rules/dig-out';
import { fieldName } from '@domain/rules/field-names';
import { type PlanFieldInput, planPull } from '@domain/rules/pull-plan';
import type {
  CreatePullListInput,
  PullListDto,
  PullListSummaryDto,
  PullStepInput,
  ReleasedVaultDto,
  ReleasedVaultQuery,
} from '@domain/schemas/pull-list.schema';
import type { Actor } from '../../auth/actor';
import { type Db, isUniqueViolation, nowIso } from '../../db/database';
import { lockVaults, type Trx } from '../../db/locks';
import { recordEvent } from '../../events/event-log.repo';
import { badRequest, conflict, notFound } from '../../http/errors';
import { findField } from '../fields/fields.repo';
import { freeSlot } from '@domain/rules/slots';
import { findWarehouse } from '../warehouses/warehouses.repo';
import { occupiedPositions } from '../vaults/vaults.repo';
import { moveVaultIn, stageVaultIn, withConflictMapping } from '../vaults/vaults.service';
import { slotField } from '../vaults/slot-placement';
import {
  bumpPullList,
  claimItem,
  findFieldPlaces,
  findItem,
  findItems,
  findNameId,
  findPullList,
  findPullLists,
  findReleasedVaults,
  findFieldOfVault,
  findVaultIdsOf,
  findVaultsInFields,
  insertItems,
  insertPullList,
  markPullListReleased,
  releaseVaults,
  deletePullList,
  setAsideAgain,
} from './pull-lists.repo';
import { lastOffFirst, presentPullList } from './pull-lists.presenter';
import { actorName } from '../../auth/users.repo';
import type { Role } from '@domain/rules/roles';
import type { ReleasePullListInput } from '@domain/schemas/pull-list.schema';
import { checkHoldOverride } from '../accounts/holds.service';
import { findRequestOfPullList } from '../requests/requests.repo';

export const PULL_LIST_NOT_FOUND = 'Pull list not found';
export const NOTHING_TO_PULL = 'No vault in the warehouse has this order number or customer.';
export const LIST_RELEASED = 'This pull list was already released.';
export const NOT_ON_LIST = 'This vault is not on the pull list.';
export const ALREADY_PULLED = 'This vault was already pulled. Please refresh the list.';
export const NOT_IN_THE_WAY = 'This vault is not in the way of the pull list.';
export const ALREADY_SET_ASIDE = 'This vault was already set aside. Please refresh the list.';
export const NOT_SET_ASIDE = 'This vault is not waiting to be put back. Please refresh the list.';
/** decision 012: the vaults set aside from one field go back last off, first back, so the stack keeps its order */
export const putBackFirst = (first: string, then: string, field: string) =>
  `Put back ${first} first: it stood under ${then} in field ${field} (last off, first back).`;
export const NO_FREE_SLOT = 'That field has no free slot. Choose another field.';
export const stillInFields = (n: number) =>
  `${n} ${n === 1 ? 'vault' : 'vaults'} of this list ${n === 1 ? 'is' : 'are'} still in a field. Pull them first.`;
export const stillSetAside = (n: number) =>
  `${n} ${n === 1 ? 'vault' : 'vaults'} set aside for this list must be put back first.`;

/** POST /api/pull-lists: a list of every vault of the order or customer still in the warehouse. */
export async function createPullList(db: Db, actor: Actor, input: CreatePullListInput): Promise<PullListDto> {
  return db.transaction().execute(async (trx) => {
    const orderName = input.order_name?.trim();
    const customerName = input.customer_name?.trim().toUpperCase();
    const orderId = orderName ? await findNameId(trx, 'orders', actor.companyId, orderName) : undefined;
    const customerId = customerName
      ? await findNameId(trx, 'customers', actor.companyId, customerName)
      : undefined;
    const of = orderId !== undefined ? { orderId } : customerId !== undefined ? { customerId } : undefined;
    const vaultIds = of ? await findVaultIdsOf(trx, actor.companyId, of) : [];
    if (vaultIds.length === 0) throw badRequest(NOTHING_TO_PULL);
    const listId = await makePullList(trx, actor, {
      title: orderName ? `Order ${orderName}` : `Customer ${customerName}`,
      customerId: customerId ?? null,
      orderId: orderId ?? null,
      vaultIds,
    });
    return loadPullList(trx, actor.companyId, listId);
  });
}

/**
 * A pull list of exactly these vaults (of the company, in storage: the caller checked), in the caller's transaction;
 * answers its id. A customer's request (issue 29) makes its list with this when it is scheduled.
 */
export async function makePullList(
  trx: Trx,
  actor: Actor,
  list: { title: string; customerId: number | null; orderId: number | null; vaultIds: number[] },
): Promise<number> {
  const who = await actorName(trx, actor.userId);
  const listId = await insertPullList(trx, {
    companyId: actor.companyId,
    title: list.title,
    customerId: list.customerId,
    orderId: list.orderId,
    createdBy: who,
  });
  await insertItems(
    trx,
    actor.companyId,
    listId,
    list.vaultIds.map((vaultId) => ({ vaultId, role: 'pull', state: 'todo' })),
  );
  await recordEvent(trx, {
    companyId: actor.companyId,
    userId: actor.userId,
    kind: 'pull-list.created',
    entityType: 'pull-list',
    entityId: listId,
    payload: { vaults: list.vaultIds.length },
  });
  return listId;
}

/**
 * What other features do in a pull step's transaction (a customer's request moves to Pulling, issue 29), per
 * database: each app registers its own, with its own settings.
 */
type PullStepHandler = (trx: Trx, actor: Actor, listId: number) => Promise<void>;
const pullStepHandlers = new WeakMap<Db, PullStepHandler[]>();
export function onPullStep(db: Db, handler: PullStepHandler): void {
  const handlers = pullStepHandlers.get(db) ?? [];
  handlers.push(handler);
  pullStepHandlers.set(db, handlers);
}

export async function listPullLists(db: Db, companyId: number): Promise<PullListSummaryDto[]> {
  return findPullLists(db, companyId);
}

/** A customer's request's list (issue 29) leaves with its load-out check, and goes when the request is cancelled. */
export const requestListRefusal = (requestId: number, what: 'released' | 'cancelled') =>
  what === 'released'
    ? `This list is for request #${requestId}: its units leave with the load-out check, scanned onto the truck.`
    : `This list is for request #${requestId}: cancel the request instead.`;

async function refuseRequestList(
  trx: Trx,
  companyId: number,
  listId: number,
  what: 'released' | 'cancelled',
) {
  const request = await findRequestOfPullList(trx, companyId, listId);
  if (request) throw conflict(requestListRefusal(request.id, what));
}

/** The most released vaults one search answers: suggestions, not a report (the Activity page has every one). */
const RELEASED_SEARCH_LIMIT = 20;

/** GET /api/released-vaults?q=: released vaults stay searchable, with when and by whom they left. */
export async function searchReleasedVaults(
  db: Db,
  companyId: number,
  query: ReleasedVaultQuery,
): Promise<ReleasedVaultDto[]> {
  return findReleasedVaults(db, companyId, query.q, RELEASED_SEARCH_LIMIT);
}

/** One list with where its vaults are now and the plan for the work left, made from the stacks as they are. */
export async function loadPullList(db: Db, companyId: number, listId: number): Promise<PullListDto> {
  const list = await findPullList(db, companyId, listId);
  if (!list) throw notFound(PULL_LIST_NOT_FOUND);
  const items = await findItems(db, companyId, listId);
  const wanted = items.filter((i) => i.role === 'pull');
  const wantedIds = new Set(wanted.filter((i) => i.field_id !== null).map((i) => i.vault_id));
  const fieldIds = [...new Set(wanted.map((i) => i.field_id).filter((id): id is number => id !== null))];
  const inFields = await findVaultsInFields(db, companyId, fieldIds);
  const byField = new Map<number, typeof inFields>();
  for (const row of inFields) {
    let list = byField.get(row.field_id);
    if (!list) byField.set(row.field_id, (list = []));
    list.push(row);
  }
  const planInput: PlanFieldInput[] = [...byField.entries()].map(([fieldId, rows]) => ({
    fieldId,
    fieldName: fieldName(rows[0]!.field_col, rows[0]!.field_row),
    warehouseId: rows[0]!.warehouse_id,
    warehouseName: rows[0]!.warehouse_name,
    vaults: rows.map((r) => ({ id: r.id, position: r.position, wanted: wantedIds.has(r.id) })),
  }));
  const plan = planPull(planInput);
  const digOut = new Map<number, number>();
  for (const rows of byField.values()) for (const [id, n] of digOutCounts(rows)) digOut.set(id, n);
  const setAside = items.filter((i) => i.role === 'in-the-way');
  const places = await findFieldPlaces(db, companyId, [
    ...new Set(setAside.map((i) => i.from_field_id).filter((id): id is number => id !== null)),
  ]);
  const request = await findRequestOfPullList(db, companyId, listId);
  return {
    ...presentPullList(list, items, { plan, digOut, inFields, places }),
    request_id: request?.id ?? null,
  };
}

/**
 * POST /api/pull-lists/{id}/steps: one step of the plan, in one transaction with the stage or the move it makes.
 * The step is claimed first (its item's state changes only if it is still the expected one), so two people doing the
 * same step at once get one success and one clear 409; the stage and the move then apply all their own rules and locks.
 */
export async function doPullStep(
  db: Db,
  actor: Actor & { role: Role },
  listId: number,
  input: PullStepInput,
): Promise<PullListDto> {
  try {
    return await withConflictMapping(() =>
      db.transaction().execute(async (trx) => {
        const list = await findPullList(trx, actor.companyId, listId);
        if (!list) throw notFound(PULL_LIST_NOT_FOUND);
        if (list.released_at !== null) throw badRequest(LIST_RELEASED);
        const who = await actorName(trx, actor.userId);
        if (input.action === 'pulled') {
          // a unit on hold leaves only with a Manager's override (decision 039)
          await checkHoldOverride(trx, actor, [input.vault_id], input.override_reason, 'pulled');
          await pullVault(trx, actor, listId, input.vault_id, who);
        } else if (input.action === 'set-aside') await setAside(trx, actor, listId, input.vault_id, who);
        else
          await putBack(
            trx,
            actor,
            listId,
            input.vault_id,
            { fieldId: input.field_id, position: input.position },
            who,
          );
        await bumpPullList(trx, actor.companyId, listId);
        for (const handler of pullStepHandlers.get(db) ?? []) await handler(trx, actor, listId);
        await recordEvent(trx, {
          companyId: actor.companyId,
          userId: actor.userId,
          kind: `pull-list.${input.action}`,
          entityType: 'pull-list',
          entityId: listId,
          payload: { vaultId: input.vault_id },
        });
        return loadPullList(trx, actor.companyId, listId);
      }),
    );
  } catch (error) {
    // the same vault set aside twice at once: the second insert meets the first one's row
    if (isUniqueViolation(error)) throw conflict(ALREADY_SET_ASIDE);
    throw error;
  }
}

async function pullVault(trx: Trx, actor: Actor, listId: number, vaultId: number, who: string) {
  const claimed = await claimItem(trx, actor.companyId, listId, vaultId, {
    role: 'pull',
    from: 'todo',
    to: 'pulled',
    doneBy: who,
  });
  if (!claimed) {
    const item = await findItem(trx, actor.companyId, listId, vaultId);
    if (!item || item.role !== 'pull') throw badRequest(NOT_ON_LIST);
    throw conflict(ALREADY_PULLED);
  }
  await stageVaultIn(trx, actor, vaultId);
}

async function setAside(trx: Trx, actor: Actor, listId: number, vaultId: number, who: string) {
  const item = await findItem(trx, actor.companyId, listId, vaultId);
  if (item?.role === 'pull') throw badRequest(NOT_IN_THE_WAY);
  if (item?.state === 'set-aside') throw conflict(ALREADY_SET_ASIDE);
  // in the way: it stands above a vault of the list that is still in the same field
  const items = await findItems(trx, actor.companyId, listId);
  const fieldId = await findFieldOfVault(trx, actor.companyId, vaultId);
  const vault =
    fieldId === null
      ? undefined
      : (await findVaultsInFields(trx, actor.companyId, [fieldId])).find((v) => v.id === vaultId);
  if (!vault) {
    // a colleague set it aside between the first read and this one: the same step twice is a 409, as it is elsewhere
    if ((await findItem(trx, actor.companyId, listId, vaultId))?.state === 'set-aside')
      throw conflict(ALREADY_SET_ASIDE);
    throw badRequest(NOT_IN_THE_WAY);
  }
  const below = items.some(
    (i) =>
      i.role === 'pull' &&
      i.field_id === vault.field_id &&
      i.position !== null &&
      i.position > vault.position,
  );
  if (!below) throw badRequest(NOT_IN_THE_WAY);
  const from = { fieldId: vault.field_id, position: vault.position, doneBy: who };
  if (item) {
    if (!(await setAsideAgain(trx, actor.companyId, listId, vaultId, from)))
      throw conflict(ALREADY_SET_ASIDE);
  } else {
    await insertItems(trx, actor.companyId, listId, [
      {
        vaultId,
        role: 'in-the-way',
        state: 'set-aside',
        fromFieldId: vault.field_id,
        fromPosition: vault.position,
        doneBy: who,
      },
    ]);
  }
  await stageVaultIn(trx, actor, vaultId);
}

async function putBack(
  trx: Trx,
  actor: Actor,
  listId: number,
  vaultId: number,
  chosen: { fieldId: number | undefined; position: number | undefined },
  who: string,
) {
  const item = await findItem(trx, actor.companyId, listId, vaultId);
  if (!item || item.role !== 'in-the-way') throw badRequest(NOT_SET_ASIDE);
  const claimed = await claimItem(trx, actor.companyId, listId, vaultId, {
    role: 'in-the-way',
    from: 'set-aside',
    to: 'put-back',
    doneBy: who,
  });
  if (!claimed) throw conflict(NOT_SET_ASIDE);
  const fieldId = chosen.fieldId ?? item.from_field_id;
  // its field was removed meanwhile: the user picks another one
  if (fieldId === null) throw badRequest(NO_FREE_SLOT);
  const field = await findField(trx, actor.companyId, fieldId);
  if (!field) throw notFound('Field not found');
  if (fieldId === item.from_field_id)
    await checkLastOffFirstBack(trx, actor.companyId, listId, vaultId, field);
  const warehouse = await findWarehouse(trx, actor.companyId, field.warehouse_id);
  const occupied = (await occupiedPositions(trx, actor.companyId, field.id)).map((v) => v.position);
  const position = freeSlot(slotField({ ...field, field_capacity: warehouse?.field_capacity }), occupied);
  if (position === null) throw badRequest(NO_FREE_SLOT);
  // the move checks the slot again under its locks with the slot rules (a picked position must be the field's next
  // free slot, a couchbox goes only into a couchbox field); a vault placed meanwhile ends in a clear 409
  await moveVaultIn(trx, actor, { vaultId, fieldId: field.id, position: chosen.position ?? position });
}

/**
 * Back into its own field, a vault set aside must not go over one that stood under it and still waits on the stage:
 * that would reverse the stack (decision 012). Into another field it may go in any order.
 */
async function checkLastOffFirstBack(
  trx: Trx,
  companyId: number,
  listId: number,
  vaultId: number,
  field: { col: number; row: number },
) {
  const items = await findItems(trx, companyId, listId);
  const me = items.find((i) => i.role === 'in-the-way' && i.vault_id === vaultId)!;
  const under = lastOffFirst(
    items.filter(
      (i) =>
        i.role === 'in-the-way' &&
        i.state === 'set-aside' &&
        i.from_field_id === me.from_field_id &&
        Number(i.from_position) > Number(me.from_position),
    ),
  )[0];
  if (under)
    throw conflict(
      putBackFirst(
        under.name ?? under.customer_name,
        me.name ?? me.customer_name,
        fieldName(field.col, field.row),
      ),
    );
}

/**
 * POST /api/pull-lists/{id}/release: every vault of the list leaves the warehouse in one transaction. They must all
 * be on the stage (pulled) and every vault set aside must be back, so no stack is left broken.
 */
export async function releasePullList(
  db: Db,
  actor: Actor & { role: Role },
  listId: number,
  input: ReleasePullListInput = {},
): Promise<PullListDto> {
  return withConflictMapping(() =>
    db.transaction().execute(async (trx) => {
      const list = await findPullList(trx, actor.companyId, listId);
      if (!list) throw notFound(PULL_LIST_NOT_FOUND);
      await refuseRequestList(trx, actor.companyId, listId, 'released');
      const who = await actorName(trx, actor.userId);
      const at = nowIso();
      if (!(await markPullListReleased(trx, actor.companyId, listId, who, at))) throw conflict(LIST_RELEASED);
      const items = await findItems(trx, actor.companyId, listId);
      const wanted = items.filter((i) => i.role === 'pull' && i.released_at === null);
      await lockVaults(
        trx,
        wanted.map((i) => i.vault_id),
      );
      const locked = await findItems(trx, actor.companyId, listId);
      const inFields = locked.filter((i) => i.role === 'pull' && i.field_id !== null).length;
      if (inFields > 0) throw conflict(stillInFields(inFields));
      const waiting = locked.filter((i) => i.role === 'in-the-way' && i.state === 'set-aside').length;
      if (waiting > 0) throw conflict(stillSetAside(waiting));
      const ids = wanted.map((i) => i.vault_id);
      await checkHoldOverride(trx, actor, ids, input.override_reason, 'released');
      await releaseVaults(trx, actor.companyId, ids, who, at);
      for (const item of wanted) {
        await recordEvent(trx, {
          companyId: actor.companyId,
          userId: actor.userId,
          kind: 'vault.released',
          entityType: 'vault',
          entityId: item.vault_id,
          // the number and customer, so the Activity page finds the released vault by either
          ...vaultSubject(item),
          payload: { pullListId: listId, by: who },
        });
      }
      await recordEvent(trx, {
        companyId: actor.companyId,
        userId: actor.userId,
        kind: 'pull-list.released',
        entityType: 'pull-list',
        entityId: listId,
        payload: { vaults: ids.length },
      });
      return loadPullList(trx, actor.companyId, listId);
    }),
  );
}

/**
 * DELETE /api/pull-lists/{id}: the list is dropped (its events stay in history). Its pulled vaults stay on the stage;
 * a vault set aside must be put back first, so nothing waits on the stage for a list that is gone. A released list is
 * history and stays.
 */
export async function cancelPullList(db: Db, actor: Actor, listId: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const list = await findPullList(trx, actor.companyId, listId);
    if (!list) throw notFound(PULL_LIST_NOT_FOUND);
    if (list.released_at !== null) throw conflict(LIST_RELEASED);
    await refuseRequestList(trx, actor.companyId, listId, 'cancelled');
    const items = await findItems(trx, actor.companyId, listId);
    const waiting = items.filter((i) => i.role === 'in-the-way' && i.state === 'set-aside').length;
    if (waiting > 0) throw conflict(stillSetAside(waiting));
    if (!(await deletePullList(trx, actor.companyId, listId))) throw conflict(LIST_RELEASED);
    await recordEvent(trx, {
      companyId: actor.companyId,
      userId: actor.userId,
      kind: 'pull-list.cancelled',
      entityType: 'pull-list',
      entityId: listId,
      payload: { title: list.title },
    });
  });
}
