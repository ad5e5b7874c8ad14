import { ErrorList } from '@/components/ui/error-list';
import { useDraggable } from '@dnd-kit/core';
import { GripVertical } from 'lucide-react';
import { RACK_TEMPLATE_DEFAULTS, rackFootprint, type Size } from '@domain/rules/rack-placement';
import { AddRackSchema, type AddRackInput } from '@domain/schemas/rack.schema';

export const TEMPLATE_DRAG_ID = 'rack-template';

export interface TemplateValues {
  name: string;
  width: string;
  length: string;
  orientation: 'horizontal' | 'vertical';
  num_shelves: string;
  capacity: string;
}

export const DEFAULT_TEMPLATE: TemplateValues = {
  name: RACK_TEMPLATE_DEFAULTS.name,
  width: String(RACK_TEMPLATE_DEFAULTS.width),
  length: String(RACK_TEMPLATE_DEFAULTS.length),
  orientation: RACK_TEMPLATE_DEFAULTS.orientation,
  num_shelves: String(RACK_TEMPLATE_DEFAULTS.num_shelves),
  capacity: String(RACK_TEMPLATE_DEFAULTS.capacity),
};

/** The template as a new rack (without position), or the problems that stop it from being dropped. */
export function readTemplate(
  values: TemplateValues,
): { rack: Omit<AddRackInput, 'position'> } | { errors: string[] } {
  // a rack without a capacity is refused here; the API would give it 100 slots per shelf
  if (values.capacity.trim() === '') return { errors: ['Shelf capacity is required.'] };
  const parsed = AddRackSchema.safeParse({ ...values, position: { x: 0, y: 0 } });
  if (!parsed.success) return { errors: [...new Set(parsed.error.issues.map((issue) => issue.message))] };
  const { position: _position, ...rack } = parsed.data;
  return { rack };
}

export function templateFootprint(values: TemplateValues): Size {
  const read = readTemplate(values);
  return 'rack' in read ? rackFootprint(read.rack) : { width: 1, length: 1 };
}

const inputClass =
  'w-full rounded-lg border border-slate-300 bg-white px-2.5 py-1.5 text-sm pointer-coarse:min-h-11 focus:border-accent focus:ring-2 focus:ring-accent/30 focus:outline-none';

// the template's sizes in feet and its whole counts (at least 1)
const numberInputs: {
  key: 'width' | 'length' | 'num_shelves' | 'capacity';
  label: string;
  whole: boolean;
}[] = [
  { key: 'width', label: 'Width (ft)', whole: false },
  { key: 'length', label: 'Length (ft)', whole: false },
  { key: 'num_shelves', label: 'Shelves', whole: true },
  { key: 'capacity', label: 'Shelf Capacity', whole: true },
];

/** 'Add a Rack': the new rack's settings and a block to drag onto the plan. */
export function RackTemplate({
  values,
  onChange,
  scale,
}: {
  values: TemplateValues;
  onChange: (values: TemplateValues) => void;
  scale: number;
}) {
  const read = readTemplate(values);
  const errors = 'errors' in read ? read.errors : [];
  const footprint = templateFootprint(values);
  const { attributes, listeners, setNodeRef, transform, isDragging } = useDraggable({
    id: TEMPLATE_DRAG_ID,
    disabled: errors.length > 0,
  });
  const set = (key: keyof TemplateValues) => (event: { target: { value: string } }) =>
    onChange({ ...values, [key]: event.target.value });
  // a long rack is shown shortened beside the form; its drop footprint stays true to scale
  const shown = {
    width: Math.min(footprint.width * scale, 240),
    height: Math.min(footprint.length * scale, 140),
  };

  return (
    <section aria-labelledby="add-rack-heading" className="space-y-3">
      <h3 id="add-rack-heading" className="font-semibold text-primary">
        Add a Rack
      </h3>
      <div className="grid grid-cols-2 gap-2 md:grid-cols-3 lg:grid-cols-2">
        <label className="col-span-2 block md:col-span-1 lg:col-span-2">
          <span className="mb-0.5 block text-xs font-medium text-slate-600">Rack Name</span>
          <input
            className={inputClass}
            value={values.name}
            onChange={set('name')}
            placeholder="Unnamed Rack"
          />
        </label>
        {numberInputs.map(({ key, label, whole }) => (
          <label key={key} className="block">
            <span className="mb-0.5 block text-xs font-medium text-slate-600">{label}</span>
            <input
              className={inputClass}
              type="number"
              min={whole ? 1 : 0}
              step={whole ? 1 : 'any'}
              value={values[key]}
              onChange={set(key)}
            />
          </label>
        ))}
        <label className="col-span-2 block md:col-span-1 lg:col-span-2">
          <span className="mb-0.5 block text-xs font-medium text-slate-600">Orientation</span>
          <select className={inputClass} value={values.orientation} onChange={set('orientation')}>
            <option value="horizontal">Horizontal</option>
            <option value="vertical">Vertical</option>
          </select>
        </label>
      </div>
      {errors.length > 0 ? (
        <ErrorList messages={errors} className="text-xs font-medium text-danger" />
      ) : (
        <p className="text-xs text-slate-600">Drag the rack onto the floor plan to place it.</p>
      )}
      <div className="flex min-h-20 items-center justify-center rounded-lg bg-slate-50 p-3">
        <button
          ref={setNodeRef}
          type="button"
          {...listeners}
          {...attributes}
          aria-label={`New rack ${values.name.trim() || 'Unnamed Rack'}: drag onto the floor plan`}
          className={`relative flex touch-none cursor-grab pointer-coarse:min-h-11 pointer-coarse:min-w-11 items-center justify-center gap-1 overflow-hidden rounded-sm border border-emerald-900 bg-success text-[11px] font-semibold text-white shadow focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent disabled:cursor-not-allowed disabled:opacity-50 ${
            isDragging ? 'z-50 cursor-grabbing opacity-80 shadow-xl' : ''
          }`}
          style={{
            width: Math.max(shown.width, 24),
            height: Math.max(shown.height, 24),
            transform: transform ? `translate3d(${transform.x}px, ${transform.y}px, 0)` : undefined,
          }}
        >
          <GripVertical className="h-3.5 w-3.5 shrink-0" aria-hidden />
          <span
            className={`truncate ${values.orientation === 'vertical' ? '[writing-mode:vertical-rl]' : ''}`}
          >
            {values.name.trim() || 'Unnamed Rack'}
          </span>
        </button>
      </div>
    </section>
  );
}
