import { fieldSlotCount } from '../../../../../domain/rules/capacity';
import { compareFieldNames } from '../../../../../domain/rules/field-names';
import { fieldFillLevel, type FillLevel } from '../../../../../domain/rules/occupancy';
import type { FieldDto, WarehouseDto } from '../../../../../domain/schemas/warehouse.schema';

const fillClass: Record<FillLevel, string> = {
  full: 'bg-full text-white',
  warning: 'bg-warning text-slate-900',
  success: 'bg-success text-white',
  empty: 'bg-field-empty text-slate-700',
};

export function fieldFill(field: FieldDto, fieldCapacity: number): FillLevel {
  return fieldFillLevel(
    Object.keys(field.vaults).length,
    fieldSlotCount(field.type, fieldCapacity),
    field.full,
  );
}

/**
 * The fields as the warehouse floor shows them: letters are columns, numbers rows, flowing column by column.
 * A couchbox top spans two rows and its hidden bottom half is left out, so auto-placement stays aligned.
 */
export function FieldGrid({
  warehouse,
  selectedFieldId,
  onSelect,
  highlighted,
}: {
  warehouse: WarehouseDto;
  selectedFieldId: number | undefined;
  onSelect: (fieldId: number) => void;
  /** with an active search: the fields that match; the rest fade */
  highlighted: Set<number> | null;
}) {
  const fields = Object.values(warehouse.fields)
    .filter((f) => f.type !== 'couchbox-B')
    .sort((a, b) => compareFieldNames(a.name, b.name));

  return (
    <div className="-m-1 overflow-x-auto p-1">
      <div
        role="group"
        aria-label="Fields"
        className="grid gap-1.5"
        style={{
          gridTemplateColumns: `repeat(${warehouse.cols}, minmax(2.75rem, 1fr))`,
          gridTemplateRows: `repeat(${warehouse.rows}, 5vh)`,
          gridAutoFlow: 'column',
        }}
      >
        {fields.map((field) => {
          const level = fieldFill(field, warehouse.fieldCapacity);
          const selected = field.id === selectedFieldId;
          const match = highlighted?.has(field.id) ?? false;
          const faded = highlighted !== null && !match;
          const count = Object.keys(field.vaults).length;
          return (
            <button
              key={field.id}
              type="button"
              onClick={() => onSelect(field.id)}
              aria-pressed={selected}
              data-fill={level}
              data-match={highlighted === null ? undefined : String(match)}
              title={`${field.name}: ${count} ${count === 1 ? 'vault' : 'vaults'}${field.full ? ', marked full' : ''}`}
              className={`flex min-h-0 items-center justify-center rounded-md text-xs font-semibold shadow-sm transition sm:text-sm ${fillClass[level]} ${
                selected ? 'ring-3 ring-primary ring-offset-1' : 'hover:brightness-95'
              } ${faded ? 'opacity-40 grayscale' : ''} ${match ? 'z-10 ring-3 ring-accent ring-offset-1' : ''} focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary`}
              style={field.type === 'couchbox-T' ? { gridRow: 'span 2' } : undefined}
            >
              {field.name}
            </button>
          );
        })}
      </div>
    </div>
  );
}

export function FillLegend() {
  const items: { level: FillLevel; label: string }[] = [
    { level: 'empty', label: 'Empty' },
    { level: 'success', label: 'In use' },
    { level: 'warning', label: 'Over half' },
    { level: 'full', label: 'Full' },
  ];
  return (
    <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600" aria-label="Legend">
      {items.map((item) => (
        <li key={item.level} className="flex items-center gap-1.5">
          <span className={`inline-block h-3 w-3 rounded-sm ${fillClass[item.level]}`} aria-hidden />
          {item.label}
        </li>
      ))}
    </ul>
  );
}
