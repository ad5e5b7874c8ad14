export interface PlanItem {
  id: number;
  name: string;
  /** a short second line, e.g. how full the rack is */
  detail?: string;
  /** classes of the colour swatch before the name */
  swatchClass?: string;
  selected?: boolean;
  dimmed?: boolean;
}

/**
 * The things drawn on a floor plan as a list of full-size buttons with their whole names: on a phone a rack
 * drawn to scale is a sliver a finger cannot hit, the list is the way to pick it there (and a quick one anywhere).
 */
export function PlanItemList({
  label,
  items,
  onPick,
  className = '',
}: {
  label: string;
  items: PlanItem[];
  onPick: (id: number) => void;
  className?: string;
}) {
  if (items.length === 0) return null;
  return (
    <ul
      aria-label={label}
      className={`grid grid-cols-[repeat(auto-fill,minmax(9.5rem,1fr))] gap-2 ${className}`}
    >
      {items.map((item) => (
        <li key={item.id} className="min-w-0">
          <button
            type="button"
            onClick={() => onPick(item.id)}
            aria-pressed={item.selected}
            className={`flex min-h-11 w-full min-w-0 items-center gap-2 rounded-lg border px-3 py-1.5 text-left text-sm transition-colors hover:border-accent focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-accent ${
              item.selected ? 'border-accent bg-accent/10' : 'border-slate-300 bg-white'
            } ${item.dimmed ? 'border-dashed bg-slate-100' : ''}`}
          >
            {item.swatchClass && (
              <span className={`h-3 w-3 shrink-0 rounded-sm ${item.swatchClass}`} aria-hidden />
            )}
            <span className="min-w-0">
              <span className="block font-semibold break-words text-slate-800">{item.name}</span>
              {item.detail && <span className="block text-xs text-slate-600">{item.detail}</span>}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
