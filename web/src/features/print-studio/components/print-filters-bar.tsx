import { inputClass } from '@/components/ui/form-field';

// selects and text boxes one height, so the row of filters lines up
const controlClass = `${inputClass} h-11`;
import { Button } from '@/components/ui/button';
import { hasFilters, NO_FILTERS, type Placement, type PrintFilters } from '../print-filters';

const placements: { value: Placement; label: string }[] = [
  { value: 'all', label: 'Both' },
  { value: 'placed', label: 'Placed' },
  { value: 'staged', label: 'Staged' },
];

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <label className="block min-w-0">
      <span className="mb-1 block text-sm font-medium text-slate-700">{label}</span>
      {children}
    </label>
  );
}

/** The filters of the list; they narrow the table, the CSV and the print alike. */
export function PrintFiltersBar({
  filters,
  onChange,
  warehouses,
  types,
  customers,
  orderPending,
}: {
  filters: PrintFilters;
  onChange: (next: PrintFilters) => void;
  warehouses: string[];
  types: string[];
  customers: string[];
  orderPending: boolean;
}) {
  const set = <K extends keyof PrintFilters>(key: K, value: PrintFilters[K]) =>
    onChange({ ...filters, [key]: value });
  return (
    <form
      role="search"
      aria-label="Filter vaults"
      onSubmit={(event) => event.preventDefault()}
      className="no-print mb-4 grid grid-cols-2 items-end gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm md:grid-cols-3 lg:grid-cols-[repeat(5,minmax(0,1fr))_auto]"
    >
      <Field label="Warehouse">
        <select
          className={controlClass}
          value={filters.warehouse}
          onChange={(e) => set('warehouse', e.target.value)}
        >
          <option value="">All</option>
          {warehouses.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Customer">
        <input
          className={controlClass}
          type="search"
          list="print-customers"
          autoComplete="off"
          value={filters.customer}
          onChange={(e) => set('customer', e.target.value)}
        />
        <datalist id="print-customers">
          {customers.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
      </Field>
      <Field label="Order">
        <input
          className={controlClass}
          type="search"
          autoComplete="off"
          value={filters.order}
          aria-busy={orderPending}
          onChange={(e) => set('order', e.target.value)}
        />
      </Field>
      <Field label="Type">
        <select className={controlClass} value={filters.type} onChange={(e) => set('type', e.target.value)}>
          <option value="">All</option>
          {types.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Placed or staged">
        <select
          className={controlClass}
          value={filters.placement}
          onChange={(e) => set('placement', e.target.value as Placement)}
        >
          {placements.map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
            </option>
          ))}
        </select>
      </Field>
      <Button variant="ghost" onClick={() => onChange(NO_FILTERS)} disabled={!hasFilters(filters)}>
        Clear filters
      </Button>
    </form>
  );
}
