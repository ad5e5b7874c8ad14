import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { fieldGridFloorProblems } from '@domain/rules/field-grid-floor';
import { type DimensionKey, dimensionsSavedMessage } from '@domain/schemas/layout.schema';
import { EditDimensionsSchema, type WarehouseDto } from '@domain/schemas/warehouse.schema';
import { useEditDimensions } from '@/api/layout';
import { Button } from '@/components/ui/button';
import { ErrorList } from '@/components/ui/error-list';
import { DecimalInput, FormField, inputClass } from '@/components/ui/form-field';
import { errorMessages } from '@/lib/api-client';
import { useFormIssues } from '@/lib/use-form-issues';

/** 'Edit Warehouse Fields': field capacity (0-10), length and width (feet, 0 or more). */
export function DimensionsForm({ warehouse }: { warehouse: WarehouseDto }) {
  const [values, setValues] = useState({
    field_capacity: String(warehouse.fieldCapacity),
    length: String(warehouse.length),
    width: String(warehouse.width),
  });
  const issues = useFormIssues();
  const [floorProblems, setFloorProblems] = useState<string[]>([]);
  const edit = useEditDimensions(warehouse.id);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    // a refusal answered to an earlier save is about values no longer asked for: this submit has its own result
    edit.reset();
    setFloorProblems([]);
    const dimensions = issues.check(EditDimensionsSchema, values);
    if (!dimensions) return;
    const current: Record<DimensionKey, number> = {
      field_capacity: warehouse.fieldCapacity,
      length: warehouse.length,
      width: warehouse.width,
    };
    const changed = (Object.keys(current) as DimensionKey[]).filter(
      (key) => dimensions[key] !== undefined && dimensions[key] !== current[key],
    );
    // new walls have to hold the field grid, as the server checks
    if (changed.includes('length') || changed.includes('width')) {
      const floor = { width: dimensions.width ?? current.width, length: dimensions.length ?? current.length };
      const problems = fieldGridFloorProblems(warehouse, floor).map((problem) => problem.message);
      if (problems.length > 0) {
        setFloorProblems(problems);
        return;
      }
    }
    if (changed.length === 0) {
      toast.info('Nothing to update.', { duration: 2500 });
      return;
    }
    // the promise settles even when a live refresh remounts this form meanwhile, so the toast always shows
    edit
      .mutateAsync(dimensions)
      .then(() => toast.success(dimensionsSavedMessage(changed), { duration: 2500 }))
      .catch(() => undefined);
  }

  const set = (key: keyof typeof values) => (event: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [key]: event.target.value }));
  const messages =
    issues.messages.length > 0
      ? issues.messages
      : floorProblems.length > 0
        ? floorProblems
        : edit.isError
          ? errorMessages(edit.error)
          : [];

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Edit Warehouse Fields" className="space-y-4">
      <ErrorList messages={messages} />
      <div className="grid gap-4 sm:grid-cols-3">
        <FormField label="Field Capacity" hint="Vaults per field, 0 to 10">
          <input
            className={inputClass}
            type="number"
            min={0}
            max={10}
            step={1}
            inputMode="numeric"
            value={values.field_capacity}
            onChange={set('field_capacity')}
          />
        </FormField>
        <FormField label="Length (ft)">
          <DecimalInput value={values.length} onChange={set('length')} />
        </FormField>
        <FormField label="Width (ft)">
          <DecimalInput value={values.width} onChange={set('width')} />
        </FormField>
      </div>
      <div className="flex justify-end">
        <Button type="submit" disabled={edit.isPending}>
          {edit.isPending ? 'Saving...' : 'Save Changes'}
        </Button>
      </div>
    </form>
  );
}
