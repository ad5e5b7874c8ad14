import type { RequestState } from '@domain/schemas/request.schema';
import { type Db, nowIso } from '../../db/database';
import type { Trx } from '../../db/locks';

// Issue 29, points 3 and 4 (decision 048): the rows of a customer's requests and of the units they name.

export async function insertRequest(
  trx: Trx,
  request: {
    companyId: number;
    customerId: number;
    kind: string;
    wishedDate: string;
    address: string | null;
    notes: string | null;
    createdBy: string;
  },
): Promise<number> {
  const row = await trx
    .insertInto('customer_requests')
    .values({
      company_id: request.companyId,
      customer_id: request.customerId,
      kind: request.kind,
      wished_date: request.wishedDate,
      address: request.address,
      notes: request.notes,
      created_by: request.createdBy,
      created_at: nowIso(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function insertRequestUnits(trx: Trx, companyId: number, requestId: number, vaultIds: number[]) {
  await trx
    .insertInto('customer_request_units')
    .values(vaultIds.map((vaultId) => ({ company_id: companyId, request_id: requestId, vault_id: vaultId })))
    .execute();
}

/** The customer's units in storage (not released) among `vaultIds`: a request may name only these. */
export async function findCustomerUnitsAmong(
  db: Db,
  companyId: number,
  customerId: number,
  vaultIds: number[],
): Promise<number[]> {
  const rows = await db
    .selectFrom('vaults')
    .select('id')
    .where('company_id', '=', companyId)
    .where('customer_id', '=', customerId)
    .where('released_at', 'is', null)
    .where('id', 'in', vaultIds)
    .execute();
  return rows.map((r) => r.id);
}

/** Units among `vaultIds` already named by another open request of the company. */
export async function findUnitsOnOpenRequests(
  db: Db,
  companyId: number,
  vaultIds: number[],
  openStates: readonly RequestState[],
) {
  return db
    .selectFrom('customer_request_units as u')
    .innerJoin('customer_requests as r', 'r.id', 'u.request_id')
    .innerJoin('vaults as v', 'v.id', 'u.vault_id')
    .select(['u.vault_id', 'v.name', 'r.id as request_id'])
    .where('u.company_id', '=', companyId)
    .where('u.vault_id', 'in', vaultIds)
    .where('r.state', 'in', [...openStates])
    .execute();
}

const requestColumns = [
  'r.id',
  'r.customer_id',
  'c.name as customer_name',
  'c.email as customer_email',
  'r.kind',
  'r.state',
  'r.wished_date',
  'r.address',
  'r.notes',
  'r.scheduled_date',
  'r.crew',
  'r.truck',
  'r.pull_list_id',
  'r.override_reason',
  'r.created_by',
  'r.created_at',
  'r.scheduled_by',
  'r.scheduled_at',
  'r.pulling_by',
  'r.pulling_at',
  'r.loaded_by',
  'r.loaded_at',
  'r.delivered_by',
  'r.delivered_at',
  'r.cancelled_by',
  'r.cancelled_at',
  'r.version',
] as const;

/** One request of the company; with `customerId`, only if it is that customer's (the portal's scope). */
export async function findRequest(db: Db, companyId: number, requestId: number, customerId?: number) {
  let query = db
    .selectFrom('customer_requests as r')
    .innerJoin('customers as c', 'c.id', 'r.customer_id')
    .select(requestColumns)
    .where('r.company_id', '=', companyId)
    .where('r.id', '=', requestId);
  if (customerId !== undefined) query = query.where('r.customer_id', '=', customerId);
  return query.executeTakeFirst();
}

export type RequestRow = NonNullable<Awaited<ReturnType<typeof findRequest>>>;

/** The company's requests, newest first; or one customer's; or those in one state. */
export async function findRequests(
  db: Db,
  companyId: number,
  filter: { state?: RequestState; customerId?: number } = {},
) {
  let query = db
    .selectFrom('customer_requests as r')
    .innerJoin('customers as c', 'c.id', 'r.customer_id')
    .select(requestColumns)
    .select((eb) =>
      eb
        .selectFrom('customer_request_units as u')
        .select((e) => e.fn.countAll<number | string>().as('n'))
        .whereRef('u.request_id', '=', 'r.id')
        .as('unit_count'),
    )
    .where('r.company_id', '=', companyId);
  if (filter.state) query = query.where('r.state', '=', filter.state);
  if (filter.customerId !== undefined) query = query.where('r.customer_id', '=', filter.customerId);
  return query.orderBy('r.created_at', 'desc').orderBy('r.id', 'desc').limit(500).execute();
}

/** The units of some requests, with where each is now and whether it is on the truck. */
export async function findRequestUnits(db: Db, companyId: number, requestIds: number[]) {
  if (requestIds.length === 0) return [];
  return db
    .selectFrom('customer_request_units as u')
    .innerJoin('vaults as v', 'v.id', 'u.vault_id')
    .leftJoin('orders as o', 'o.id', 'v.order_id')
    .leftJoin('fields as f', 'f.id', 'v.field_id')
    .leftJoin('warehouses as w', 'w.id', 'f.warehouse_id')
    .select([
      'u.request_id',
      'u.vault_id',
      'u.loaded_at',
      'u.loaded_by',
      'v.name',
      'v.type',
      'v.label_code',
      'v.field_id',
      'v.released_at',
      'o.name as order_name',
      'w.name as warehouse_name',
      'f.col as field_col',
      'f.row as field_row',
    ])
    .where('u.company_id', '=', companyId)
    .where('u.request_id', 'in', requestIds)
    .orderBy('v.name')
    .orderBy('u.vault_id')
    .execute();
}

export type RequestUnitRow = Awaited<ReturnType<typeof findRequestUnits>>[number];

/**
 * Moves a request from one of `from` to `to`, stamping who and when (and any other columns): false when it was no
 * longer in one of `from` (another change came first), so two changes at once get one winner.
 */
export async function moveRequest(
  trx: Trx,
  companyId: number,
  requestId: number,
  from: readonly RequestState[],
  to: RequestState,
  by: string,
  also: {
    scheduled_date?: string;
    crew?: string;
    truck?: string;
    pull_list_id?: number;
    override_reason?: string | null;
  } = {},
): Promise<boolean> {
  const at = nowIso();
  const stamp =
    to === 'scheduled'
      ? { scheduled_at: at, scheduled_by: by }
      : to === 'pulling'
        ? { pulling_at: at, pulling_by: by }
        : to === 'loaded'
          ? { loaded_at: at, loaded_by: by }
          : to === 'delivered'
            ? { delivered_at: at, delivered_by: by }
            : { cancelled_at: at, cancelled_by: by };
  const result = await trx
    .updateTable('customer_requests')
    .set((eb) => ({ ...also, ...stamp, state: to, version: eb('version', '+', 1) }))
    .where('company_id', '=', companyId)
    .where('id', '=', requestId)
    .where('state', 'in', [...from])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Marks a unit of the request loaded, once: false when it already was (the same scan twice, or two at once). */
export async function markUnitLoaded(
  trx: Trx,
  companyId: number,
  requestId: number,
  vaultId: number,
  by: string,
): Promise<boolean> {
  const result = await trx
    .updateTable('customer_request_units')
    .set({ loaded_at: nowIso(), loaded_by: by })
    .where('company_id', '=', companyId)
    .where('request_id', '=', requestId)
    .where('vault_id', '=', vaultId)
    .where('loaded_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The open request a pull list was made for, if any (a pull step moves it to Pulling). */
export async function findRequestOfPullList(db: Db, companyId: number, pullListId: number) {
  return db
    .selectFrom('customer_requests')
    .select(['id', 'state'])
    .where('company_id', '=', companyId)
    .where('pull_list_id', '=', pullListId)
    .executeTakeFirst();
}
