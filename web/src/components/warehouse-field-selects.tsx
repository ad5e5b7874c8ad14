import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { isCouchboxField } from '@domain/rules/capacity';
import { freeSlot } from '@domain/rules/slots';
import { compareFieldNames } from '@domain/rules/field-names';
import type { FieldDto, WarehouseDto, WarehouseSummaryDto } from '@domain/schemas/warehouse.schema';
import { useWarehouse, warehouseQueries } from '../api/warehouses';
import { readRemembered, remember } from '../lib/remembered';
import { useFloorOutbox } from '../lib/outbox/floor-outbox';
import { type Intent, takenByQueue } from '../lib/outbox/outbox';
import { NamedOptions } from './ui/named-options';

const selectClass =
  'w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm pointer-coarse:min-h-11 focus:border-accent focus:ring-2 focus:ring-accent/30 focus:outline-none';

/**
 * The two selects that send a vault somewhere: a warehouse, then one of its fields with room (the move and put-back
 * dialogs). The field list is the caller's: which fields have room, and how each is named, depend on the vault.
 */
export function WarehouseFieldSelects({
  warehouses,
  warehouseId,
  onWarehouse,
  fieldLabel,
  fields,
  fieldId,
  onField,
  loaded,
  noneText,
}: {
  warehouses: WarehouseSummaryDto[];
  warehouseId: number | undefined;
  onWarehouse: (id: number) => void;
  fieldLabel: string;
  /** the fields on offer, each with its text in the list */
  fields: { id: number; name: string }[];
  fieldId: number | undefined;
  onField: (id: number | undefined) => void;
  /** false while the warehouse's fields are on their way */
  loaded: boolean;
  /** what the list says when no field has room */
  noneText: string;
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <label className="block">
        <span className="mb-1 block text-sm font-medium text-slate-700">Warehouse</span>
        <select
          className={selectClass}
          value={warehouseId ?? ''}
          onChange={(e) => onWarehouse(Number(e.target.value))}
        >
          <NamedOptions items={warehouses} />
        </select>
      </label>
      <label className="block">
        <span className="mb-1 block text-sm font-medium text-slate-700">{fieldLabel}</span>
        <select
          className={selectClass}
          value={fieldId ?? ''}
          disabled={!loaded || fields.length === 0}
          onChange={(e) => onField(e.target.value ? Number(e.target.value) : undefined)}
        >
          <option value="">
            {!loaded ? 'Loading fields...' : fields.length === 0 ? noneText : 'Choose a field'}
          </option>
          <NamedOptions items={fields} />
        </select>
      </label>
    </div>
  );
}

/**
 * The slot a vault coming into this field takes (the slot rules: only the next free one), or null when none. Slots
 * this device's queued changes will fill count as taken: offline, they are not in the field's kept data yet.
 */
export function slotFor(field: FieldDto, fieldCapacity: number, queued: readonly Intent[]): number | null {
  const occupied = Object.values(field.vaults).flatMap((v) => (v.position === null ? [] : [v.position]));
  return freeSlot({ type: field.type, full: field.full, capacity: fieldCapacity }, [
    ...occupied,
    ...takenByQueue(queued, field.id),
  ]);
}

/** The fields with a free slot, by name, each with the slot it offers; a couchbox fits only a couchbox field. */
function openSlots(
  warehouse: WarehouseDto,
  couchbox: boolean,
  queued: readonly Intent[],
): { field: FieldDto; slot: number }[] {
  return Object.values(warehouse.fields)
    .map((field) => ({ field, slot: slotFor(field, warehouse.fieldCapacity, queued) }))
    .filter(
      (o): o is { field: FieldDto; slot: number } =>
        o.slot !== null && (!couchbox || isCouchboxField(o.field.type)),
    )
    .sort((a, b) => compareFieldNames(a.field.name, b.field.name));
}

const LAST_WAREHOUSE = 'destination-warehouse';

/** The warehouse last chosen for a vault on this device, while the company still has it. */
function lastChosen(warehouses: WarehouseSummaryDto[]): number | undefined {
  const id = Number(readRemembered(LAST_WAREHOUSE));
  return warehouses.find((w) => w.id === id)?.id;
}

/**
 * Where a vault is being sent: the chosen warehouse (loaded with its fields), its fields with a free slot, the chosen
 * field, and `selects`, the props `WarehouseFieldSelects` takes from them. `onChange` runs on every choice.
 */
export function useVaultDestination({
  warehouses,
  startId,
  couchbox,
  onChange,
}: {
  warehouses: WarehouseSummaryDto[];
  /**
   * the warehouse chosen first; when absent, the one last chosen on this device, else the first whose fields this
   * device has (offline, the only ones it can offer), else the company's first
   */
  startId?: number | null;
  couchbox: boolean;
  onChange?: () => void;
}) {
  const queryClient = useQueryClient();
  const [warehouseId, setWarehouseId] = useState<number | undefined>(
    () =>
      startId ??
      lastChosen(warehouses) ??
      warehouses.find((w) => queryClient.getQueryData(warehouseQueries.detail(w.id).queryKey))?.id ??
      warehouses[0]?.id,
  );
  const [fieldId, setFieldId] = useState<number | undefined>(undefined);
  const warehouse = useWarehouse(warehouseId);
  const detail = warehouse.data?.id === warehouseId ? warehouse.data : undefined;
  const queued = useFloorOutbox();
  const open = detail ? openSlots(detail, couchbox, queued) : [];
  return {
    warehouse,
    warehouseId,
    fieldId,
    detail,
    open,
    chosen: open.find((o) => o.field.id === fieldId),
    selects: {
      warehouses,
      warehouseId,
      onWarehouse: (id: number) => {
        remember(LAST_WAREHOUSE, String(id));
        setWarehouseId(id);
        setFieldId(undefined);
        onChange?.();
      },
      fieldId,
      onField: (id: number | undefined) => {
        setFieldId(id);
        onChange?.();
      },
      loaded: detail !== undefined,
    },
  };
}
