import type { PortalUnitDto } from '@domain/schemas/customer.schema';

/**
 * The units a request names: one big checkbox per unit (the whole row is the target, 56 px on a phone), and one to
 * choose them all.
 */
export function UnitChoice({
  units,
  chosen,
  onChange,
}: {
  units: PortalUnitDto[];
  chosen: number[];
  onChange: (ids: number[]) => void;
}) {
  if (units.length === 0) return <p className="text-slate-600">No units in storage.</p>;
  const all = chosen.length === units.length;
  const toggle = (id: number) =>
    onChange(chosen.includes(id) ? chosen.filter((c) => c !== id) : [...chosen, id]);
  return (
    <fieldset className="space-y-2">
      <legend className="mb-1 text-sm font-semibold text-slate-800">Units</legend>
      <label className="flex min-h-14 cursor-pointer items-center gap-3 rounded-lg border border-slate-300 bg-white px-3">
        <input
          type="checkbox"
          className="h-6 w-6 accent-accent"
          checked={all}
          onChange={() => onChange(all ? [] : units.map((u) => u.id))}
        />
        <span className="font-semibold">All units ({units.length})</span>
      </label>
      {units.map((unit) => (
        <label
          key={unit.id}
          className={`flex min-h-14 cursor-pointer items-center gap-3 rounded-lg border px-3 ${chosen.includes(unit.id) ? 'border-accent bg-blue-50' : 'border-slate-300 bg-white'}`}
        >
          <input
            type="checkbox"
            className="h-6 w-6 accent-accent"
            checked={chosen.includes(unit.id)}
            onChange={() => toggle(unit.id)}
          />
          <span className="min-w-0">
            <span className="block font-mono font-semibold text-slate-900">{unit.number ?? 'No number'}</span>
            <span className="block text-sm capitalize text-slate-600">
              {unit.type}
              {unit.warehouse ? ` · ${unit.warehouse}` : ''}
            </span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
