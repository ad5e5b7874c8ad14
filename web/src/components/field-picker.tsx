import { parseFieldName } from '@domain/rules/field-names';
import type { FieldDto, WarehouseDto } from '@domain/schemas/warehouse.schema';

/**
 * A small picture of a warehouse's grid to choose a field on (issue 27, instead of a long list): each tile shows the
 * field's name and its free slots as dots; fields with no room for the vault are greyed and cannot be chosen.
 */
export function FieldPicker({
  warehouse,
  free,
  chosenId,
  onChoose,
  label,
}: {
  warehouse: WarehouseDto;
  /** the fields that can take the vault, with their free slot count */
  free: Map<number, number>;
  chosenId: number | undefined;
  onChoose: (fieldId: number) => void;
  label: string;
}) {
  const tiles = Object.values(warehouse.fields).flatMap((field) => {
    const place = parseFieldName(field.name);
    if (!place || field.type === 'couchbox-B' || place.row > warehouse.rows) return [];
    const span = field.type === 'couchbox-T' && place.row < warehouse.rows ? 2 : 1;
    return [{ field, place, span }];
  });
  if (tiles.length === 0)
    return <p className="text-sm text-slate-600">This warehouse does not have any fields</p>;
  return (
    <div className="-m-1 overflow-x-auto p-1" data-testid="field-picker">
      <div
        role="group"
        aria-label={label}
        className="grid gap-1"
        style={{
          gridTemplateColumns: `repeat(${warehouse.cols}, minmax(2.75rem, 1fr))`,
          gridAutoRows: 'minmax(2.75rem, auto)',
        }}
      >
        {tiles.map(({ field, place, span }) => (
          <Tile
            key={field.id}
            field={field}
            slots={free.get(field.id) ?? 0}
            chosen={field.id === chosenId}
            onChoose={onChoose}
            style={{ gridColumn: place.col, gridRow: `${place.row} / span ${span}` }}
          />
        ))}
      </div>
    </div>
  );
}

function Tile({
  field,
  slots,
  chosen,
  onChoose,
  style,
}: {
  field: FieldDto;
  slots: number;
  chosen: boolean;
  onChoose: (fieldId: number) => void;
  style: React.CSSProperties;
}) {
  const usable = slots > 0;
  return (
    <button
      type="button"
      style={style}
      disabled={!usable}
      aria-pressed={chosen}
      aria-label={`${field.name}, ${usable ? `${slots} free ${slots === 1 ? 'slot' : 'slots'}` : 'no room'}`}
      onClick={() => onChoose(field.id)}
      className={`flex min-w-0 flex-col items-center justify-center rounded-md border text-xs font-semibold transition focus-visible:outline-3 focus-visible:outline-offset-1 focus-visible:outline-accent ${
        chosen
          ? 'border-primary bg-primary text-white'
          : usable
            ? 'border-emerald-400 bg-emerald-50 text-emerald-900 hover:border-accent'
            : 'cursor-not-allowed border-slate-200 bg-slate-100 text-slate-500'
      }`}
    >
      <span>{field.name}</span>
      {usable && (
        <span aria-hidden className="mt-0.5 flex gap-0.5">
          {Array.from({ length: Math.min(slots, 4) }, (_, i) => (
            <span key={i} className={`h-1.5 w-1.5 rounded-full ${chosen ? 'bg-white' : 'bg-emerald-600'}`} />
          ))}
        </span>
      )}
    </button>
  );
}
