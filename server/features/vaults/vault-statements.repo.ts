import { type Expression, sql } from 'kysely';
import { jsonArrayFrom, jsonObjectFrom } from 'kysely/helpers/postgres';
import type { Db } from '../../db/database';
import { nowIso } from '../../db/database';
import { sharedWarehouseLocks } from '../../db/locks';
import {
  type EventParams,
  type EventRecord,
  eventInsert,
  eventParams,
  recordsEvents,
} from '../../events/event-log.repo';
import { statementText } from '../../db/statement-text';
import { LOCKED_FIELD_COLUMNS, type LockedFieldRow } from '../fields/fields.repo';
import { type WarehouseWithStatsRow, warehousesWithStats } from '../warehouses/warehouses.repo';
import type { AttachmentRow } from './attachments.repo';
import { nameCtes, nameIdOf, unusedNameCtes } from '../../customers/customers.repo';
import { newLabelCode } from './label-code';

import { type NewVault, type VaultRow, vaultRows } from './vault-rows';

/** The one-statement vault reads and writes of PostgreSQL (decision 014), beside the locking ones in vaults.repo.ts. */

/** A field as a one-statement write reads it (PostgreSQL): with its row version and the slots taken in it. */
export interface FieldState extends LockedFieldRow {
  /** the row's version (`xmin`): migration 0018 writes the row whenever what it holds changes */
  xmin: string;
  occupied: { id: number; position: number }[];
}

/** What a one-statement vault write decides on, read in one snapshot and without locks. */
export interface PlacementState {
  vault: VaultRow | undefined;
  fields: Map<number, FieldState>;
  files: AttachmentRow[];
  /** with `neighbours`: every vault of the vault's field (itself too) and their attachments */
  neighbours: VaultRow[];
  neighbourFiles: AttachmentRow[];
}

/**
 * PostgreSQL only (decision 014): the vault (if any), its field and the named field with their slots, and the
 * vault's attachments, in one statement; with `neighbours` also the vaults of its field in full (a delete answers
 * that field). Nothing is locked: `writePlacement` holds only if the fields are unchanged.
 */
export async function readPlacement(
  db: Db,
  companyId: number,
  vaultId: number | null,
  fieldId: number | null,
  options: { neighbours?: boolean } = {},
): Promise<PlacementState> {
  // scalar parameters only (0 for none): PostgreSQL then keeps one plan for the statement instead of planning anew
  const params = { companyId, vaultId: vaultId ?? 0, fieldId: fieldId ?? 0 };
  // an add reads its field only: the parts about a vault are left out of the statement (each costs its start-up)
  const variant = vaultId === null ? 'field' : options.neighbours ? 'neighbours' : '';
  const { rows } = await placementRead(db, params, variant);
  const row = rows[0]!;
  const fields = row.fields as unknown as FieldState[];
  return {
    vault: (row.vault as VaultRow | null) ?? undefined,
    fields: new Map(fields.map((f) => [f.id, f])),
    files: row.files ?? [],
    neighbours: (row.neighbours ?? []) as VaultRow[],
    neighbourFiles: row.neighbour_files ?? [],
  };
}

const placementRead = statementText(
  (
    db: Db,
    { companyId, vaultId, fieldId }: { companyId: number; vaultId: number; fieldId: number },
    variant: string,
  ) => {
    const vaultField = db
      .selectFrom('vaults')
      .select('field_id')
      .where('company_id', '=', companyId)
      .where('id', '=', vaultId);
    const neighbours = variant === 'neighbours';
    const fieldOnly = variant === 'field';
    return db.selectNoFrom([
      (fieldOnly
        ? sql<VaultRow | null>`null`
        : jsonObjectFrom(vaultRows(db).where('v.company_id', '=', companyId).where('v.id', '=', vaultId))
      ).as('vault'),
      jsonArrayFrom(
        db
          .selectFrom('fields as f')
          .innerJoin('warehouses as w', 'w.id', 'f.warehouse_id')
          .select((eb) => [
            ...LOCKED_FIELD_COLUMNS,
            sql<string>`f.xmin::text`.as('xmin'),
            jsonArrayFrom(
              eb
                .selectFrom('vaults as o')
                .select(['o.id', 'o.position'])
                .whereRef('o.field_id', '=', 'f.id')
                .orderBy('o.position'),
            ).as('occupied'),
          ])
          .where('f.company_id', '=', companyId)
          .where((eb) =>
            fieldOnly
              ? eb('f.id', '=', fieldId)
              : eb.or([eb('f.id', '=', fieldId), eb('f.id', '=', vaultField)]),
          ),
      ).as('fields'),
      (fieldOnly
        ? sql<AttachmentRow[] | null>`null`
        : jsonArrayFrom(
            db
              .selectFrom('attachments')
              .select(['id', 'vault_id', 'file_name'])
              .where('company_id', '=', companyId)
              .where('vault_id', '=', vaultId)
              .orderBy('id'),
          )
      ).as('files'),
      (neighbours
        ? jsonArrayFrom(
            vaultRows(db)
              .where('v.company_id', '=', companyId)
              .where('v.field_id', '=', vaultField)
              .orderBy('v.id'),
          )
        : sql<VaultRow[] | null>`null`
      ).as('neighbours'),
      (neighbours
        ? jsonArrayFrom(
            db
              .selectFrom('attachments as a')
              .innerJoin('vaults as n', 'n.id', 'a.vault_id')
              .select(['a.id', 'a.vault_id', 'a.file_name'])
              .where('n.company_id', '=', companyId)
              .where('n.field_id', '=', vaultField)
              .orderBy('a.id'),
          )
        : sql<AttachmentRow[] | null>`null`
      ).as('neighbour_files'),
    ]);
  },
);

/** What a one-statement write read and holds on to: the company's fields as they were read (two at most). */
export interface Placement {
  companyId: number;
  /** the fields read, each as it was read: the write holds only if every one is unchanged */
  fields: readonly FieldState[];
}

/**
 * A Placement as the parameters of `unchangedFields`: at most two fields, each a scalar (0 or '' for none), so
 * PostgreSQL keeps one plan for each statement instead of planning it anew on every run.
 */
function guardParams(placement: Placement) {
  const [first, second] = [...placement.fields].sort((a, b) => a.id - b.id);
  if (placement.fields.length > 2) throw new Error('a one-statement write holds on to two fields at most');
  const [lowWarehouse, highWarehouse] = [first?.warehouse_id ?? 0, second?.warehouse_id ?? 0].sort(
    (a, b) => a - b,
  );
  return {
    companyId: placement.companyId,
    guardId1: first?.id ?? 0,
    guardXmin1: first?.xmin ?? '',
    guardId2: second?.id ?? 0,
    guardXmin2: second?.xmin ?? '',
    guardCount: placement.fields.length,
    warehouse1: lowWarehouse!,
    warehouse2: highWarehouse === lowWarehouse ? 0 : highWarehouse!,
  };
}

type GuardParams = ReturnType<typeof guardParams>;

/**
 * PostgreSQL only (decision 014): the warehouses' shared locks (in id order), then the fields' rows, exclusive and in id
 * order, each still the version that was read (a changed row is left out once its lock is had).
 */
function unchangedFields(db: Db, p: GuardParams) {
  return db
    .selectFrom('fields as f')
    .select('f.id')
    .where('f.company_id', '=', p.companyId)
    .where((eb) =>
      eb.or([
        eb.and([eb('f.id', '=', p.guardId1), sql<boolean>`f.xmin::text = ${p.guardXmin1}`]),
        eb.and([eb('f.id', '=', p.guardId2), sql<boolean>`f.xmin::text = ${p.guardXmin2}`]),
      ]),
    )
    .where(sharedWarehouseLocks(p.warehouse1, p.warehouse2))
    .orderBy('f.id')
    .forUpdate();
}

/** The parameters every one-statement write of an existing vault binds: the fields, the vault's version, the event. */
function writeParams(placement: Placement, vault: { id: number; version: number }, event: EventRecord) {
  return { ...guardParams(placement), ...eventParams(event), vaultId: vault.id, vaultVersion: vault.version };
}

/** The statement's closing check: `wm_unchanged` (migration 0018) undoes it all when the write found nothing to do. */
const UNCHANGED = (written: string) =>
  sql<boolean>`wm_unchanged((select count(*) from ${sql.table(written)}) = 1)`;

/** The full flag goes off on every field the write holds on to that the vault leaves (all of them but `stays`). */
const CLEARED = (p: GuardParams, written: string, stays: Expression<number | null>) =>
  sql`cleared as (update fields set "full" = 0 where id in (${p.guardId1}, ${p.guardId2})
    and id is distinct from ${stays} and "full" = 1 and exists (select 1 from ${sql.table(written)}))`;

/** The event's insert as the statement's last part, unless recording is off (the bench's switch). */
const RECORDED = (db: Db, e: EventParams, entityId?: Expression<number | null>) =>
  recordsEvents() ? sql`, recorded as (${eventInsert(db, e, entityId)})` : sql``;

const recordingVariant = () => (recordsEvents() ? 'recorded' : 'unrecorded');

/**
 * PostgreSQL only (decision 014): a vault into a slot or onto the stage, in one statement that holds only if the vault
 * (its version) and the fields (their row versions) are as they were read; with the full flags that go off and the
 * event. A change in between undoes the statement with a serialization failure (a lost race): read and try again.
 */
export async function writePlacement(
  db: Db,
  placement: Placement,
  vault: { id: number; version: number },
  place: { fieldId: number | null; position: number | null },
  event: EventRecord,
): Promise<void> {
  const params = { ...writeParams(placement, vault, event), ...place, now: nowIso() };
  await placementWrite(db, params, recordingVariant());
}

const placementWrite = statementText(
  (db: Db, p: GuardParams & EventParams & PlaceParams) =>
    sql`with unchanged as (${unchangedFields(db, p)}),
    placed as (
      update vaults set field_id = ${p.fieldId}, position = ${p.position}, version = version + 1, updated_at = ${p.now}
      where company_id = ${p.companyId} and id = ${p.vaultId} and version = ${p.vaultVersion}
        and (select count(*) from unchanged) = ${p.guardCount}
      returning id
    ), ${CLEARED(p, 'placed', sql`${p.fieldId}::integer`)}${RECORDED(db, p)}
    select ${UNCHANGED('placed')} as unchanged`,
);

type PlaceParams = {
  vaultId: number;
  vaultVersion: number;
  fieldId: number | null;
  position: number | null;
  now: string;
};

/** A new vault for a one-statement add: its customer and order by name, found or created in the same statement. */
export type NewVaultByName = Omit<NewVault, 'customerId' | 'orderId'> & {
  customerName: string;
  orderName: string | null;
};

/**
 * PostgreSQL only (decision 014): a new vault in one statement that holds only if its field is as read, with its
 * customer and order found or created and the event (whose entity is the new vault). Answers the new ids.
 */
export async function writeNewVault(
  db: Db,
  placement: Placement,
  vault: NewVaultByName,
  event: EventRecord,
): Promise<{ id: number; version: number; customer_id: number; order_id: number | null }> {
  const params = {
    ...guardParams(placement),
    ...eventParams(event),
    name: vault.name,
    customerName: vault.customerName,
    orderName: vault.orderName ?? '',
    fieldId: vault.fieldId,
    position: vault.position,
    type: vault.type,
    note: vault.note,
    now: nowIso(),
    labelCode: newLabelCode(),
  };
  const variant = `${recordingVariant()} ${vault.orderName === null ? 'without-order' : 'with-order'}`;
  const { rows } = await newVaultWrite(db, params, variant);
  return rows[0]!;
}

type NewVaultParams = GuardParams &
  EventParams & {
    name: string | null;
    customerName: string;
    orderName: string;
    fieldId: number | null;
    position: number | null;
    type: string;
    note: string | null;
    now: string;
    labelCode: string;
  };

const newVaultWrite = statementText((db: Db, p: NewVaultParams, variant: string) => {
  const withOrder = variant.split(' ').includes('with-order');
  const names = [nameCtes('customers', p.companyId, p.customerName, 'customer')];
  if (withOrder) names.push(nameCtes('orders', p.companyId, p.orderName, 'order'));
  return sql<{ id: number; version: number; customer_id: number; order_id: number | null }>`
    with unchanged as (${unchangedFields(db, p)}), ${sql.join(names)},
    added as (
      insert into vaults (company_id, name, customer_id, order_id, field_id, position, type, note, created_at,
        updated_at, label_code)
      select ${p.companyId}, ${p.name}, ${nameIdOf('customer')}, ${withOrder ? nameIdOf('order') : sql`null`},
        ${p.fieldId}, ${p.position}, ${p.type}, ${p.note}, ${p.now}, ${p.now}, ${p.labelCode}
      where (select count(*) from unchanged) = ${p.guardCount}
      returning id, version, customer_id, order_id
    )${RECORDED(db, p, sql<number>`(select id from added)`)}
    select ${UNCHANGED('added')} as unchanged, a.id, a.version, a.customer_id, a.order_id
    from (select 1) as one left join added as a on true`;
});

/**
 * PostgreSQL only (decision 014): removes a vault in one statement that holds only if the vault (its version) and its
 * field are as read, with the clean-up of its customer and order when nothing else uses them, the full flag and the
 * event. A name another writer takes up meanwhile makes the statement fail on the foreign key: read and try again.
 * Answers the vault's warehouse with its counts as the statement saw them, before its own triggers counted the vault
 * out (the service takes it off), so a delete needs no third statement for its answer.
 */
export async function writeRemoval(
  db: Db,
  placement: Placement,
  vault: Pick<VaultRow, 'id' | 'version' | 'customer_id' | 'order_id' | 'warehouse_id'>,
  event: EventRecord,
): Promise<{ warehouseBefore: WarehouseWithStatsRow | null }> {
  const names = {
    customerId: vault.customer_id,
    orderId: vault.order_id ?? 0,
    warehouseId: vault.warehouse_id ?? 0,
  };
  const params = { ...writeParams(placement, vault, event), ...names };
  const { rows } = await removalWrite(db, params, recordingVariant());
  return { warehouseBefore: rows[0]?.warehouse ?? null };
}

type RemovalParams = GuardParams &
  EventParams & {
    vaultId: number;
    vaultVersion: number;
    customerId: number;
    orderId: number;
    warehouseId: number;
  };

const removalWrite = statementText(
  (db: Db, p: RemovalParams) => sql<{ unchanged: boolean; warehouse: WarehouseWithStatsRow | null }>`
    with unchanged as (${unchangedFields(db, p)}),
    removed as (
      delete from vaults where company_id = ${p.companyId} and id = ${p.vaultId} and version = ${p.vaultVersion}
        and (select count(*) from unchanged) = ${p.guardCount}
      returning id
    ), ${unusedNameCtes(p, 'removed')}, ${CLEARED(p, 'removed', sql`null`)}${RECORDED(db, p)}
    select ${UNCHANGED('removed')} as unchanged,
      ${jsonObjectFrom(warehousesWithStats(db, p.companyId, p.warehouseId))} as warehouse`,
);
