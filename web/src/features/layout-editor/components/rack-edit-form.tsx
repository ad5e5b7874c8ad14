import { rackTitle } from '@domain/rules/rack-placement';
import { type FormEvent, useId, useState } from 'react';
import { toast } from 'sonner';
import { EditRackSchema, type RackDto } from '@domain/schemas/rack.schema';
import { useEditRack } from '@/api/racks';
import { FormButtons } from '@/components/ui/form-buttons';
import { ErrorList } from '@/components/ui/error-list';
import { TextInput } from '@/components/ui/form-field';
import { errorMessages } from '@/lib/api-client';
import { useFormIssues } from '@/lib/use-form-issues';

type Key = 'name' | 'width' | 'length' | 'num_shelves' | 'capacity';

const FIELDS: { key: Key; label: string; type: 'text' | 'number'; step?: string }[] = [
  { key: 'name', label: 'Name', type: 'text' },
  { key: 'width', label: 'Width (ft)', type: 'number', step: 'any' },
  { key: 'length', label: 'Length (ft)', type: 'number', step: 'any' },
  { key: 'num_shelves', label: 'Shelves', type: 'number', step: '1' },
  { key: 'capacity', label: 'Capacity per shelf', type: 'number', step: '1' },
];

/**
 * Rack Info's edit form: rename, resize, turn, and change the shelf count and capacity. The server keeps the
 * placement rules (walls, other racks, the VAULTS block) and refuses to drop pallets; its reasons show here.
 */
export function RackEditForm({
  warehouseId,
  rack,
  onDone,
  onCancel,
}: {
  warehouseId: number;
  rack: RackDto;
  onDone: () => void;
  onCancel: () => void;
}) {
  const id = useId();
  const editRack = useEditRack(warehouseId);
  const [values, setValues] = useState<Record<Key, string>>({
    name: rack.name,
    width: String(rack.width),
    length: String(rack.length),
    num_shelves: String(rack.num_shelves),
    capacity: String(rack.capacity),
  });
  const [orientation, setOrientation] = useState(rack.orientation);
  const issues = useFormIssues();
  const [serverErrors, setServerErrors] = useState<string[]>([]);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setServerErrors([]);
    const changes = issues.check(EditRackSchema, { ...values, orientation, version: rack.version });
    if (!changes) return;
    editRack.mutate(
      { rackId: rack.id, ...changes },
      {
        onSuccess: (saved) => {
          toast.success(`${rackTitle(saved.name)} saved.`);
          onDone();
        },
        onError: (error) => setServerErrors(errorMessages(error)),
      },
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Edit rack" className="space-y-3">
      <ErrorList messages={[...issues.messages, ...serverErrors]} />
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        {FIELDS.map((field) => (
          <div key={field.key} className={field.key === 'name' ? 'sm:col-span-2' : ''}>
            <label htmlFor={`${id}-${field.key}`} className="mb-1 block text-sm font-medium text-slate-700">
              {field.label}
            </label>
            <TextInput
              id={`${id}-${field.key}`}
              type={field.type}
              inputMode={field.type === 'number' ? 'decimal' : undefined}
              step={field.step}
              min={field.type === 'number' ? 1 : undefined}
              value={values[field.key]}
              onValue={(value) => setValues((v) => ({ ...v, [field.key]: value }))}
            />
          </div>
        ))}
        <fieldset className="sm:col-span-2">
          <legend className="mb-1 block text-sm font-medium text-slate-700">Orientation</legend>
          <div className="flex gap-2">
            {(['horizontal', 'vertical'] as const).map((option) => (
              <label
                key={option}
                className={`flex min-h-11 flex-1 cursor-pointer items-center justify-center gap-2 rounded-lg border px-3 text-sm ${
                  orientation === option
                    ? 'border-accent bg-blue-50 font-semibold text-accent'
                    : 'border-slate-300 text-slate-700'
                }`}
              >
                <input
                  type="radio"
                  name={`${id}-orientation`}
                  value={option}
                  checked={orientation === option}
                  onChange={() => setOrientation(option)}
                  className="h-4 w-4 accent-accent"
                />
                {option === 'horizontal' ? 'Horizontal' : 'Vertical'}
              </label>
            ))}
          </div>
        </fieldset>
      </div>
      <p className="text-xs text-slate-600">
        The rack keeps its corner on the floor. Shelves that go must be empty first.
      </p>
      <FormButtons submit="Save rack" pending={editRack.isPending} onCancel={onCancel} />
    </form>
  );
}
