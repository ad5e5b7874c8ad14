import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { AddWarehouseSchema } from '@domain/schemas/warehouse.schema';
import { useAddWarehouse } from '@/api/warehouses';
import { FormButtons } from '@/components/ui/form-buttons';
import { ErrorList } from '@/components/ui/error-list';
import { Page } from '@/components/ui/page';
import { paths } from '@/config/paths';
import { errorMessages } from '@/lib/api-client';
import { useFormIssues } from '@/lib/use-form-issues';
import { WarehousePreview } from '../components/warehouse-preview';
import { useDocumentTitle } from '@/lib/use-document-title';

type Key = 'name' | 'rows' | 'cols' | 'field_capacity' | 'length' | 'width';

// spans of a six-column form grid: the name on its own line, the grid size in thirds, the floor in halves
const inputs: { key: Key; label: string; numeric?: 'int' | 'decimal'; hint?: string; span: string }[] = [
  { key: 'name', label: 'Name', span: 'col-span-6' },
  { key: 'rows', label: 'Rows', numeric: 'int', hint: 'Fields per column', span: 'col-span-2' },
  { key: 'cols', label: 'Cols', numeric: 'int', hint: 'Columns A, B...', span: 'col-span-2' },
  {
    key: 'field_capacity',
    label: 'Field Capacity',
    numeric: 'int',
    hint: 'Vaults per field',
    span: 'col-span-2',
  },
  { key: 'length', label: 'Length (ft)', numeric: 'decimal', span: 'col-span-3' },
  { key: 'width', label: 'Width (ft)', numeric: 'decimal', span: 'col-span-3' },
];

export default function AddWarehousePage() {
  useDocumentTitle('Add Warehouse');
  const navigate = useNavigate();
  const addWarehouse = useAddWarehouse();
  const [values, setValues] = useState<Record<Key, string>>({
    name: '',
    rows: '',
    cols: '',
    field_capacity: '',
    length: '',
    width: '',
  });
  const issues = useFormIssues();

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const input = issues.check(AddWarehouseSchema, values);
    if (!input) return;
    addWarehouse.mutate(input, {
      onSuccess: (warehouse) => {
        toast.success(`${warehouse.name} added.`);
        // issue 27: the next job is the new warehouse itself (the spec's '/' led to the dashboard)
        navigate(paths.warehouse(warehouse.name));
      },
    });
  }

  return (
    <Page title="Add Warehouse">
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,26rem)_minmax(0,1fr)]">
        <form
          onSubmit={onSubmit}
          noValidate
          aria-label="Add Warehouse"
          className="space-y-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
        >
          {addWarehouse.isError && <ErrorList messages={errorMessages(addWarehouse.error)} />}
          <div className="grid grid-cols-6 gap-4">
            {inputs.map(({ key, label, numeric, hint, span }) => (
              <div key={key} className={`block ${span}`}>
                <label htmlFor={`warehouse-${key}`} className="mb-1 block text-sm font-medium text-slate-700">
                  {label}
                </label>
                <input
                  id={`warehouse-${key}`}
                  name={key}
                  type={numeric ? 'number' : 'text'}
                  inputMode={numeric === 'int' ? 'numeric' : numeric === 'decimal' ? 'decimal' : undefined}
                  step={numeric === 'decimal' ? 'any' : numeric === 'int' ? 1 : undefined}
                  min={numeric ? 0 : undefined}
                  required
                  value={values[key]}
                  onChange={(e) => setValues((v) => ({ ...v, [key]: e.target.value }))}
                  aria-invalid={issues.byField[key] ? true : undefined}
                  aria-describedby={issues.byField[key] ? `${key}-error` : hint ? `${key}-hint` : undefined}
                  className={`w-full rounded-lg border px-3 py-2 focus:ring-2 focus:outline-none ${issues.byField[key] ? 'border-danger focus:ring-danger/30' : 'border-slate-300 focus:border-accent focus:ring-accent/30'}`}
                />
                {issues.byField[key] ? (
                  <span id={`${key}-error`} className="mt-1 block text-sm text-danger">
                    {issues.byField[key]}
                  </span>
                ) : (
                  hint && (
                    <span id={`${key}-hint`} className="mt-1 block text-xs text-slate-600">
                      {hint}
                    </span>
                  )
                )}
              </div>
            ))}
          </div>
          <FormButtons
            submit="Add Warehouse"
            busy="Adding..."
            pending={addWarehouse.isPending}
            onCancel={() => navigate(paths.dashboard)}
          />
        </form>
        <WarehousePreview width={values.width} length={values.length} rows={values.rows} cols={values.cols} />
      </div>
    </Page>
  );
}
