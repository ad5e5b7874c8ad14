import { fieldName } from '@domain/rules/field-names';
import type { PullPlan } from '@domain/rules/pull-plan';
import type { PullListDto, PullListVaultDto, SetAsideVaultDto } from '@domain/schemas/pull-list.schema';
import type { FieldPlaceRow, FieldVaultRow, ItemRow, PullListRow } from './pull-lists.repo';

function stateOf(item: ItemRow): PullListVaultDto['state'] {
  if (item.released_at !== null) return 'released';
  return item.field_id === null ? 'on-stage' : 'in-field';
}

/**
 * Decision 012, last off, first back: the vaults set aside from one field in the order they go back (from the lowest
 * slot they held up); the field worked on last comes first.
 */
export function lastOffFirst<T extends Pick<ItemRow, 'from_field_id' | 'from_position'>>(setAside: T[]): T[] {
  const fieldRank = new Map<number | null, number>();
  for (const item of [...setAside].reverse())
    if (!fieldRank.has(item.from_field_id)) fieldRank.set(item.from_field_id, fieldRank.size);
  return [...setAside].sort(
    (a, b) =>
      fieldRank.get(a.from_field_id)! - fieldRank.get(b.from_field_id)! ||
      Number(b.from_position ?? 0) - Number(a.from_position ?? 0),
  );
}

export function presentPullList(
  list: PullListRow,
  items: ItemRow[],
  live: { plan: PullPlan; digOut: Map<number, number>; inFields: FieldVaultRow[]; places: FieldPlaceRow[] },
): PullListDto {
  const vaultById = new Map(live.inFields.map((v) => [v.id, v]));
  const placeById = new Map(live.places.map((p) => [p.id, p]));
  const vaults: PullListVaultDto[] = items
    .filter((i) => i.role === 'pull')
    .map((i) => ({
      id: i.vault_id,
      name: i.name,
      customer_name: i.customer_name,
      order_name: i.order_name,
      type: i.type,
      state: stateOf(i),
      warehouse_id: i.warehouse_id,
      warehouse_name: i.warehouse_name,
      field_id: i.field_id,
      field_name: i.field_col !== null && i.field_row !== null ? fieldName(i.field_col, i.field_row) : null,
      position: i.position === null ? null : Number(i.position),
      dig_out: i.field_id === null ? null : (live.digOut.get(i.vault_id) ?? null),
      pulled_by: i.state === 'pulled' ? i.done_by : null,
      released_at: i.released_at,
      released_by: i.released_by,
    }));
  const setAside: SetAsideVaultDto[] = lastOffFirst(items.filter((i) => i.role === 'in-the-way')).map((i) => {
    const place = i.from_field_id === null ? undefined : placeById.get(i.from_field_id);
    return {
      vault_id: i.vault_id,
      name: i.name,
      customer_name: i.customer_name,
      type: i.type,
      state: i.state === 'set-aside' ? 'set-aside' : 'put-back',
      from_warehouse_id: place?.warehouse_id ?? null,
      from_field_id: i.from_field_id,
      from_field_name: place ? fieldName(place.col, place.row) : null,
      from_warehouse_name: place?.warehouse_name ?? null,
      from_position: i.from_position === null ? null : Number(i.from_position),
      done_by: i.done_by,
    };
  });
  return {
    id: list.id,
    title: list.title,
    customer_name: list.customer_name,
    order_name: list.order_name,
    created_at: list.created_at,
    created_by: list.created_by,
    released_at: list.released_at,
    released_by: list.released_by,
    version: Number(list.version),
    vaults,
    plan: live.plan.fields.map((f) => ({
      field_id: f.fieldId,
      field_name: f.fieldName,
      warehouse_id: f.warehouseId,
      warehouse_name: f.warehouseName,
      steps: f.steps.map((s) => {
        const vault = vaultById.get(s.vaultId);
        return {
          vault_id: s.vaultId,
          name: vault?.name ?? null,
          customer_name: vault?.customer_name ?? '',
          position: s.position,
          role: s.role,
        };
      }),
    })),
    // the plan's handlings and one for each vault already set aside that still has to go back
    handlings: live.plan.handlings + setAside.filter((v) => v.state === 'set-aside').length,
    in_the_way: live.plan.inTheWay,
    set_aside: setAside,
  };
}
