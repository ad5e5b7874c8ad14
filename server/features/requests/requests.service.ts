import { dayAgainstToday, dayOf, dayWriter } from '@domain/billing/days';
import { fieldName } from '@domain/rules/field-names';
import { type Role, roleAllows } from '@domain/rules/roles';
import {
  type LoadOutDto,
  type LoadRequestInput,
  type LoadScanAnswer,
  OPEN_REQUEST_STATES,
  type OfficeRequestInput,
  type PortalRequestDto,
  type PortalRequestInput,
  REQUEST_STATE_LABELS,
  type RequestDto,
  type RequestKind,
  type RequestState,
  type RequestStepDto,
  type RequestSummaryDto,
  type RequestUnitDto,
  type ScheduleRequestInput,
} from '@domain/schemas/request.schema';
import type { Actor } from '../../auth/actor';
import { actorName } from '../../auth/users.repo';
import type { Db } from '../../db/database';
import { lockVaults, type Trx } from '../../db/locks';
import { recordEvent } from '../../events/event-log.repo';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors';
import { today } from '../accounts/accounts.service';
import { enqueueMailIf } from '../../mail/mail-outbox.repo';
import { requestUpdateMail } from '../../mail/mail-texts';
import { findCompanyForMail } from '../accounts/account-mails.repo';
import { checkHoldOverride } from '../accounts/holds.service';
import { resolveScan } from '../labels/scan.service';
import {
  deletePullList,
  findItems,
  findPullList,
  markPullListReleased,
  releaseVaults,
} from '../pull-lists/pull-lists.repo';
import { makePullList, stillSetAside } from '../pull-lists/pull-lists.service';
import { vaultSubject } from '../vaults/vault-history';
import {
  type RequestRow,
  type RequestUnitRow,
  findCustomerUnitsAmong,
  findRequest,
  findRequestOfPullList,
  findRequestUnits,
  findRequests,
  findUnitsOnOpenRequests,
  insertRequest,
  insertRequestUnits,
  markUnitLoaded,
  moveRequest,
} from './requests.repo';

// Issue 29, points 3 and 4 (decision 048): a customer's requests, their steps, and the load-out check on the dock.

export const REQUEST_NOT_FOUND = 'Request not found.';
export const NOT_YOUR_UNITS =
  "Choose only units of this customer's that are in storage: one or more of the chosen units is not.";
export const onOtherRequest = (unit: string, requestId: number) =>
  `${unit} is already on request #${requestId}. Cancel that one first, or leave the unit out.`;
export const cannot = (state: RequestState, what: string) =>
  `This request is ${REQUEST_STATE_LABELS[state]}: it cannot be ${what}.`;
export const NOT_ON_REQUEST = (unit: string) => `${unit} is not on this request. Leave it off the truck.`;
export const STILL_IN_FIELD = (unit: string, place: string) =>
  `${unit} is still in ${place}. Pull it on the pull list first.`;
export const ALREADY_RELEASED = (unit: string) => `${unit} has already left the warehouse.`;
export const FIELD_SCANNED = 'That is a field label. Scan the label of a unit.';
export const ACCESS_HAS_NO_LOAD = 'An access visit is not loaded: its units stay. Mark it done instead.';
export const missingUnits = (n: number) =>
  `${n} ${n === 1 ? 'unit is' : 'units are'} not loaded yet. Scan ${n === 1 ? 'it' : 'them'}, or a Manager marks the load complete with a reason.`;
export const OVERRIDE_NEEDS_MANAGER =
  'Only a Manager can mark a load complete with units missing. Ask a Manager of your company.';
export const DELIVERED_NEEDS_ROLE =
  'Only the crew (Floor), the Office role or a Manager can mark a request delivered. Ask a Manager of your company.';
export const UNIT_MOVED_BACK =
  'A loaded unit was put back into a field meanwhile. Scan it again after pulling it.';

/** Who makes a change: a staff member (with the role), or the customer in the portal. */
export type RequestActor =
  | { kind: 'staff'; companyId: number; userId: number; role: Role }
  | { kind: 'customer'; companyId: number; customerId: number };

/** Mail settings: whether mail is on (SMTP_URL), the company's name and where the portal is. */
export interface RequestMail {
  on: boolean;
  portalUrl: string | null;
}

const unitLabel = (row: { name: string | null; vault_id: number }) => row.name ?? `unit #${row.vault_id}`;

function presentUnit(row: RequestUnitRow): RequestUnitDto {
  const inField = row.field_id !== null;
  return {
    id: row.vault_id,
    number: row.name,
    type: row.type,
    order: row.order_name,
    label_code: row.label_code,
    place: row.released_at !== null ? 'released' : inField ? 'in-field' : 'on-stage',
    location:
      inField && row.field_col !== null && row.field_row !== null
        ? `${row.warehouse_name ?? ''} ${fieldName(row.field_col, row.field_row)}`.trim()
        : null,
    loaded_at: row.loaded_at,
    loaded_by: row.loaded_by,
  };
}

function stepsOf(row: RequestRow): RequestStepDto[] {
  const steps: RequestStepDto[] = [{ state: 'requested', at: row.created_at, by: row.created_by }];
  const later: [RequestState, string | null, string | null][] = [
    ['scheduled', row.scheduled_at, row.scheduled_by],
    ['pulling', row.pulling_at, row.pulling_by],
    ['loaded', row.loaded_at, row.loaded_by],
    ['delivered', row.delivered_at, row.delivered_by],
    ['cancelled', row.cancelled_at, row.cancelled_by],
  ];
  for (const [state, at, by] of later) if (at) steps.push({ state, at, by });
  return steps;
}

function presentRequest(row: RequestRow, units: RequestUnitRow[]): RequestDto {
  return {
    id: row.id,
    customer_id: row.customer_id,
    customer_name: row.customer_name,
    kind: row.kind as RequestKind,
    state: row.state as RequestState,
    wished_date: row.wished_date,
    address: row.address,
    notes: row.notes,
    scheduled_date: row.scheduled_date,
    crew: row.crew,
    truck: row.truck,
    pull_list_id: row.pull_list_id,
    override_reason: row.override_reason,
    created_at: row.created_at,
    steps: stepsOf(row),
    units: units.map(presentUnit),
    version: row.version,
  };
}

function presentForPortal(request: RequestDto): PortalRequestDto {
  return {
    id: request.id,
    kind: request.kind,
    state: request.state,
    wished_date: request.wished_date,
    scheduled_date: request.scheduled_date,
    address: request.address,
    notes: request.notes,
    created_at: request.created_at,
    steps: request.steps.map(({ state, at }) => ({ state, at })),
    units: request.units.map(({ id, number, type }) => ({ id, number, type })),
  };
}

async function loadRow(db: Db, companyId: number, requestId: number, customerId?: number) {
  const row = await findRequest(db, companyId, requestId, customerId);
  if (!row) throw notFound(REQUEST_NOT_FOUND);
  return row;
}

export async function loadRequest(db: Db, companyId: number, requestId: number): Promise<RequestDto> {
  const row = await loadRow(db, companyId, requestId);
  return presentRequest(row, await findRequestUnits(db, companyId, [row.id]));
}

export async function listRequests(
  db: Db,
  companyId: number,
  filter: { state?: RequestState },
): Promise<RequestSummaryDto[]> {
  const rows = await findRequests(db, companyId, filter);
  return rows.map((row) => ({
    id: row.id,
    customer_name: row.customer_name,
    kind: row.kind as RequestKind,
    state: row.state as RequestState,
    wished_date: row.wished_date,
    scheduled_date: row.scheduled_date,
    units: Number(row.unit_count ?? 0),
    created_at: row.created_at,
  }));
}

export async function listPortalRequests(
  db: Db,
  customer: { companyId: number; customerId: number },
): Promise<PortalRequestDto[]> {
  const rows = await findRequests(db, customer.companyId, { customerId: customer.customerId });
  const units = await findRequestUnits(
    db,
    customer.companyId,
    rows.map((r) => r.id),
  );
  return rows.map((row) =>
    presentForPortal(
      presentRequest(
        row,
        units.filter((u) => u.request_id === row.id),
      ),
    ),
  );
}

async function nameOf(trx: Trx | Db, actor: RequestActor): Promise<string> {
  if (actor.kind === 'staff') return actorName(trx, actor.userId);
  const row = await trx
    .selectFrom('customers')
    .select('name')
    .where('company_id', '=', actor.companyId)
    .where('id', '=', actor.customerId)
    .executeTakeFirst();
  return `${row?.name ?? 'The customer'} (customer)`;
}

/** A step in the request's history (the event log), and the customer's mail about it, in the step's transaction. */
async function recordStep(
  trx: Trx,
  actor: RequestActor,
  who: string,
  requestId: number,
  mail: RequestMail,
  payload: Record<string, unknown> = {},
) {
  const row = await loadRow(trx, actor.companyId, requestId);
  await recordEvent(trx, {
    companyId: actor.companyId,
    userId: actor.kind === 'staff' ? actor.userId : null,
    actor: who,
    kind: `request.${row.state}`,
    entityType: 'request',
    entityId: requestId,
    customer: row.customer_name,
    payload: { kind: row.kind, ...payload },
  });
  if (!row.customer_email) return;
  const units = await findRequestUnits(trx, actor.companyId, [requestId]);
  const company = await findCompanyForMail(trx, actor.companyId);
  await enqueueMailIf(mail.on, trx, {
    companyId: actor.companyId,
    ...requestUpdateMail({
      company: company.name,
      customer: row.customer_name,
      requestId,
      kind: row.kind,
      state: row.state,
      units: units.map(unitLabel),
      // as the company writes a day, like its invoices
      scheduledDate: row.scheduled_date && dayWriter(company.locale)(dayOf(row.scheduled_date)),
      truck: row.truck,
      portalUrl: mail.portalUrl,
    }),
    recipient: row.customer_email,
    createdBy: who,
  });
}

/** A move of the request's state, or the 409 that says why not. */
async function move(
  trx: Trx,
  companyId: number,
  row: RequestRow,
  from: readonly RequestState[],
  to: RequestState,
  who: string,
  what: string,
  also: Parameters<typeof moveRequest>[6] = {},
) {
  if (!from.includes(row.state as RequestState)) throw conflict(cannot(row.state as RequestState, what));
  if (!(await moveRequest(trx, companyId, row.id, from, to, who, also)))
    throw conflict(cannot(row.state as RequestState, what));
}

export const WISHED_IN_PAST = 'The wished date is in the past. Choose today or a later day.';
export const SCHEDULE_IN_PAST = 'The date is in the past. Schedule the request for today or a later day.';

/**
 * POST /api/portal/requests and POST /api/requests: a new request of the customer's units in storage. A unit of
 * another customer (or company), or one already on another open request, is refused and nothing is written.
 */
export async function createRequest(
  db: Db,
  actor: RequestActor,
  customerId: number,
  input: PortalRequestInput | OfficeRequestInput,
  mail: RequestMail,
): Promise<RequestDto> {
  if (dayAgainstToday(input.wished_date, today()) === 'past') throw badRequest(WISHED_IN_PAST);
  return db.transaction().execute(async (trx) => {
    const customer = await trx
      .selectFrom('customers')
      .select('id')
      .where('company_id', '=', actor.companyId)
      .where('id', '=', customerId)
      .executeTakeFirst();
    if (!customer) throw notFound('Customer not found.');
    await lockVaults(trx, input.vault_ids);
    const own = await findCustomerUnitsAmong(trx, actor.companyId, customerId, input.vault_ids);
    if (own.length !== input.vault_ids.length) throw badRequest(NOT_YOUR_UNITS);
    const taken = await findUnitsOnOpenRequests(trx, actor.companyId, input.vault_ids, OPEN_REQUEST_STATES);
    if (taken[0])
      throw conflict(
        onOtherRequest(unitLabel({ name: taken[0].name, vault_id: taken[0].vault_id }), taken[0].request_id),
      );
    const who = await nameOf(trx, actor);
    const requestId = await insertRequest(trx, {
      companyId: actor.companyId,
      customerId,
      kind: input.kind,
      wishedDate: input.wished_date,
      address: input.address ?? null,
      notes: input.notes ?? null,
      createdBy: who,
    });
    await insertRequestUnits(trx, actor.companyId, requestId, input.vault_ids);
    await recordStep(trx, actor, who, requestId, mail, { units: input.vault_ids.length });
    return loadRequest(trx, actor.companyId, requestId);
  });
}

/**
 * POST /api/requests/{id}/schedule: the day, crew and truck; makes the pull list of exactly the request's units
 * (the existing dig-out planning), in the same transaction.
 */
export async function scheduleRequest(
  db: Db,
  actor: RequestActor & { kind: 'staff' },
  requestId: number,
  input: ScheduleRequestInput,
  mail: RequestMail,
): Promise<RequestDto> {
  return db.transaction().execute(async (trx) => {
    if (dayAgainstToday(input.date, today()) === 'past') throw badRequest(SCHEDULE_IN_PAST);
    const row = await loadRow(trx, actor.companyId, requestId);
    if (row.state !== 'requested') throw conflict(cannot(row.state as RequestState, 'scheduled'));
    const units = await findRequestUnits(trx, actor.companyId, [requestId]);
    const gone = units.find((u) => u.released_at !== null);
    if (gone) throw conflict(ALREADY_RELEASED(unitLabel(gone)));
    const who = await nameOf(trx, actor);
    const pullListId = await makePullList(
      trx,
      { companyId: actor.companyId, userId: actor.userId },
      {
        title: `Request #${requestId}: ${row.customer_name}`,
        customerId: row.customer_id,
        orderId: null,
        vaultIds: units.map((u) => u.vault_id),
      },
    );
    await move(trx, actor.companyId, row, ['requested'], 'scheduled', who, 'scheduled', {
      scheduled_date: input.date,
      crew: input.crew,
      truck: input.truck,
      pull_list_id: pullListId,
    });
    await recordStep(trx, actor, who, requestId, mail, {
      date: input.date,
      crew: input.crew,
      truck: input.truck,
      pullListId,
    });
    return loadRequest(trx, actor.companyId, requestId);
  });
}

/** Scheduled -> Pulling, when the crew starts (a pull step of its list, or the first unit on the truck). */
async function startPulling(trx: Trx, actor: RequestActor, requestId: number, mail: RequestMail) {
  const who = await nameOf(trx, actor);
  if (await moveRequest(trx, actor.companyId, requestId, ['scheduled'], 'pulling', who))
    await recordStep(trx, actor, who, requestId, mail);
}

/** The pull-list hook: a step on a request's list moves the request to Pulling. */
export function pullStepMovesRequest(mail: RequestMail) {
  return async (trx: Trx, actor: Actor, listId: number) => {
    const request = await findRequestOfPullList(trx, actor.companyId, listId);
    if (request?.state !== 'scheduled' || actor.userId === null) return;
    await startPulling(
      trx,
      { kind: 'staff', companyId: actor.companyId, userId: actor.userId, role: 'floor' },
      request.id,
      mail,
    );
  };
}

function presentLoadOut(row: RequestRow, units: RequestUnitRow[]): LoadOutDto {
  const all = units.map(presentUnit);
  return {
    id: row.id,
    customer_name: row.customer_name,
    kind: row.kind as RequestKind,
    state: row.state as RequestState,
    scheduled_date: row.scheduled_date,
    crew: row.crew,
    truck: row.truck,
    pull_list_id: row.pull_list_id,
    requested: all.length,
    loaded: all.filter((u) => u.loaded_at !== null),
    missing: all.filter((u) => u.loaded_at === null),
  };
}

/** GET /api/requests/{id}/load-out: requested, loaded and missing units, for the dock. */
export async function loadLoadOut(db: Db, companyId: number, requestId: number): Promise<LoadOutDto> {
  const row = await loadRow(db, companyId, requestId);
  return presentLoadOut(row, await findRequestUnits(db, companyId, [requestId]));
}

/**
 * POST /api/requests/{id}/load-scans: one unit onto the truck. The scan is read like every scan of the app; a unit
 * not on the request, still in its field, or gone is refused with a message saying so and nothing changes. The same
 * unit twice counts once ('again'). The first unit moves a Scheduled request to Pulling.
 */
export async function scanOntoTruck(
  db: Db,
  actor: RequestActor & { kind: 'staff' },
  requestId: number,
  text: string,
  mail: RequestMail,
): Promise<LoadScanAnswer> {
  return db.transaction().execute(async (trx) => {
    const row = await loadRow(trx, actor.companyId, requestId);
    if (row.kind === 'access') throw conflict(ACCESS_HAS_NO_LOAD);
    if (row.state !== 'scheduled' && row.state !== 'pulling')
      throw conflict(cannot(row.state as RequestState, 'loaded'));
    const target = await resolveScan(trx, actor.companyId, { text });
    if (target.kind !== 'vault') throw badRequest(FIELD_SCANNED);
    const units = await findRequestUnits(trx, actor.companyId, [requestId]);
    const unit = units.find((u) => u.vault_id === target.vault.id);
    const label = target.vault.name ?? `${target.vault.customerName} (${target.vault.type})`;
    if (!unit) throw conflict(NOT_ON_REQUEST(label));
    if (unit.released_at !== null) throw conflict(ALREADY_RELEASED(label));
    const place = presentUnit(unit);
    if (place.place === 'in-field') throw conflict(STILL_IN_FIELD(label, place.location ?? 'a field'));
    const who = await nameOf(trx, actor);
    const loaded = await markUnitLoaded(trx, actor.companyId, requestId, unit.vault_id, who);
    if (loaded) {
      await recordEvent(trx, {
        companyId: actor.companyId,
        userId: actor.userId,
        kind: 'vault.loaded',
        entityType: 'vault',
        entityId: unit.vault_id,
        subject: unit.name,
        customer: row.customer_name,
        payload: { requestId, truck: row.truck },
      });
      await startPulling(trx, actor, requestId, mail);
    }
    const after = await loadRow(trx, actor.companyId, requestId);
    const afterUnits = await findRequestUnits(trx, actor.companyId, [requestId]);
    return {
      result: loaded ? 'loaded' : 'again',
      unit: presentUnit(afterUnits.find((u) => u.vault_id === unit.vault_id)!),
      load_out: presentLoadOut(after, afterUnits),
    };
  });
}

/**
 * POST /api/requests/{id}/load: the truck is loaded. Complete (every unit scanned), or a Manager's override with a
 * reason (kept on the request and in its history). The loaded units are released the way a pull list releases them
 * (who and when in each unit's history; a unit on hold needs the Manager's override), and the request's pull list is
 * marked released.
 */
export async function completeLoad(
  db: Db,
  actor: RequestActor & { kind: 'staff' },
  requestId: number,
  input: LoadRequestInput,
  mail: RequestMail,
): Promise<RequestDto> {
  return db.transaction().execute(async (trx) => {
    const row = await loadRow(trx, actor.companyId, requestId);
    if (row.kind === 'access') throw conflict(ACCESS_HAS_NO_LOAD);
    if (row.state !== 'scheduled' && row.state !== 'pulling')
      throw conflict(cannot(row.state as RequestState, 'marked loaded'));
    const units = await findRequestUnits(trx, actor.companyId, [requestId]);
    const missing = units.filter((u) => u.loaded_at === null);
    const reason = input.override_reason?.trim() || undefined;
    if (missing.length > 0) {
      if (!reason) throw conflict(missingUnits(missing.length));
      if (!roleAllows(actor.role, 'manager')) throw forbidden(OVERRIDE_NEEDS_MANAGER);
    }
    const loaded = units.filter((u) => u.loaded_at !== null);
    if (loaded.length === 0) throw conflict(missingUnits(missing.length));
    const who = await nameOf(trx, actor);
    const at = new Date().toISOString();
    if (row.pull_list_id !== null) {
      const items = await findItems(trx, actor.companyId, row.pull_list_id);
      const waiting = items.filter((i) => i.role === 'in-the-way' && i.state === 'set-aside').length;
      if (waiting > 0) throw conflict(stillSetAside(waiting));
    }
    const ids = loaded.map((u) => u.vault_id);
    await lockVaults(trx, ids);
    await checkHoldOverride(
      trx,
      { companyId: actor.companyId, userId: actor.userId, role: actor.role },
      ids,
      reason,
      'released',
    );
    if ((await releaseVaults(trx, actor.companyId, ids, who, at)) !== ids.length)
      throw conflict(UNIT_MOVED_BACK);
    for (const unit of loaded)
      await recordEvent(trx, {
        companyId: actor.companyId,
        userId: actor.userId,
        kind: 'vault.released',
        entityType: 'vault',
        entityId: unit.vault_id,
        ...vaultSubject({ name: unit.name, customer_name: row.customer_name }),
        payload: { requestId, pullListId: row.pull_list_id, by: who },
      });
    if (row.pull_list_id !== null && (await findPullList(trx, actor.companyId, row.pull_list_id))) {
      if (await markPullListReleased(trx, actor.companyId, row.pull_list_id, who, at))
        await recordEvent(trx, {
          companyId: actor.companyId,
          userId: actor.userId,
          kind: 'pull-list.released',
          entityType: 'pull-list',
          entityId: row.pull_list_id,
          payload: { vaults: ids.length, requestId },
        });
    }
    await move(trx, actor.companyId, row, ['scheduled', 'pulling'], 'loaded', who, 'marked loaded', {
      override_reason: missing.length > 0 ? (reason ?? null) : null,
    });
    await recordStep(trx, actor, who, requestId, mail, {
      loaded: ids.length,
      missing: missing.map(unitLabel),
      ...(missing.length > 0 ? { overrideReason: reason } : {}),
    });
    return loadRequest(trx, actor.companyId, requestId);
  });
}

/** POST /api/requests/{id}/delivered: the crew or the office closes it (an access visit: the visit is done). */
export async function markDelivered(
  db: Db,
  actor: RequestActor & { kind: 'staff' },
  requestId: number,
  mail: RequestMail,
): Promise<RequestDto> {
  return db.transaction().execute(async (trx) => {
    const row = await loadRow(trx, actor.companyId, requestId);
    if (!roleAllows(actor.role, 'floor') && !roleAllows(actor.role, 'office'))
      throw forbidden(DELIVERED_NEEDS_ROLE);
    const from: RequestState[] = row.kind === 'access' ? ['scheduled', 'pulling'] : ['loaded'];
    const who = await nameOf(trx, actor);
    await move(trx, actor.companyId, row, from, 'delivered', who, 'marked delivered');
    await recordStep(trx, actor, who, requestId, mail);
    return loadRequest(trx, actor.companyId, requestId);
  });
}

/**
 * Cancels a request: the customer while it is Requested, the office until it is loaded. Its pull list goes with it
 * (pulled units stay on the stage; a unit set aside must be put back first, as when a pull list is cancelled).
 */
export async function cancelRequest(
  db: Db,
  actor: RequestActor,
  requestId: number,
  mail: RequestMail,
): Promise<RequestDto> {
  return db.transaction().execute(async (trx) => {
    const row = await loadRow(
      trx,
      actor.companyId,
      requestId,
      actor.kind === 'customer' ? actor.customerId : undefined,
    );
    const from: RequestState[] =
      actor.kind === 'customer' ? ['requested'] : ['requested', 'scheduled', 'pulling'];
    if (!from.includes(row.state as RequestState))
      throw conflict(
        actor.kind === 'customer' && row.state !== 'cancelled' && row.state !== 'delivered'
          ? `This request is ${REQUEST_STATE_LABELS[row.state as RequestState]}: call us to change it.`
          : cannot(row.state as RequestState, 'cancelled'),
      );
    const who = await nameOf(trx, actor);
    if (row.pull_list_id !== null) {
      const list = await findPullList(trx, actor.companyId, row.pull_list_id);
      if (list && list.released_at === null) {
        const items = await findItems(trx, actor.companyId, row.pull_list_id);
        const waiting = items.filter((i) => i.role === 'in-the-way' && i.state === 'set-aside').length;
        if (waiting > 0) throw conflict(stillSetAside(waiting));
        await deletePullList(trx, actor.companyId, row.pull_list_id);
        await recordEvent(trx, {
          companyId: actor.companyId,
          userId: actor.kind === 'staff' ? actor.userId : null,
          actor: who,
          kind: 'pull-list.cancelled',
          entityType: 'pull-list',
          entityId: row.pull_list_id,
          payload: { title: list.title, requestId },
        });
      }
    }
    await move(trx, actor.companyId, row, from, 'cancelled', who, 'cancelled');
    await recordStep(trx, actor, who, requestId, mail);
    return loadRequest(trx, actor.companyId, requestId);
  });
}
