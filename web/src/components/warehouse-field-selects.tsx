import type { WarehouseSummaryDto } from '../../../domain/schemas/warehouse.schema';

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
  fields: { id: number; text: string }[];
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
          {warehouses.map((w) => (
            <option key={w.id} value={w.id}>
              {w.name}
            </option>
          ))}
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
          {fields.map((f) => (
            <option key={f.id} value={f.id}>
              {f.text}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
