import { ScanSearch } from 'lucide-react';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { compareFieldNames, parseFieldName } from '@domain/rules/field-names';
import { useChecks, useStartCheck } from '@/api/checks';
import { useRole, useSession } from '@/api/session';
import { useWarehouse, useWarehouses } from '@/api/warehouses';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorList, QueryFailed } from '@/components/ui/error-list';
import { SelectInput, TextInput, inputClass } from '@/components/ui/form-field';
import { NamedOptions } from '@/components/ui/named-options';
import { Page } from '@/components/ui/page';
import { RoleHint } from '@/components/ui/role-hint';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { errorMessages } from '@/lib/api-client';
import { formatCount, useFormat } from '@/lib/format';
import { useDocumentTitle } from '@/lib/use-document-title';
import { CHECKS_ARE_FLOOR_WORK } from '../floor-work';

/** Warehouse checks: start one for a warehouse or some of its fields, and open the running and finished ones. */
export default function ChecksPage() {
  const format = useFormat();
  useDocumentTitle('Warehouse checks');
  const session = useSession();
  const { can } = useRole();
  const warehouses = useWarehouses(session.data?.companyId);
  const checks = useChecks();
  const start = useStartCheck();
  const navigate = useNavigate();
  const [warehouseId, setWarehouseId] = useState<number | null>(null);
  const chosenId = warehouseId ?? warehouses.data?.[0]?.id ?? null;
  const warehouse = useWarehouse(chosenId ?? undefined);
  const [scope, setScope] = useState<'all' | 'some'>('all');
  const [fieldText, setFieldText] = useState('');
  const [formErrors, setFormErrors] = useState<string[]>([]);

  const fieldNames = warehouse.data
    ? Object.values(warehouse.data.fields)
        .map((f) => f.name)
        .sort(compareFieldNames)
    : [];

  function submit(event: FormEvent) {
    event.preventDefault();
    setFormErrors([]);
    if (chosenId === null) return;
    let fieldIds: number[] | undefined;
    if (scope === 'some') {
      const byName = new Map(Object.values(warehouse.data?.fields ?? {}).map((f) => [f.name, f.id]));
      const names = fieldText
        .split(/[\s,;]+/)
        .map((n) => n.trim().toUpperCase())
        .filter(Boolean);
      const unknown = names.filter((n) => !parseFieldName(n) || !byName.has(n));
      if (names.length === 0) return setFormErrors(['Name the fields to check, e.g. A1, A2, B1.']);
      if (unknown.length > 0) return setFormErrors([`This warehouse has no field ${unknown.join(', ')}.`]);
      fieldIds = names.map((n) => byName.get(n)!);
    }
    start.mutate(
      { warehouse_id: chosenId, ...(fieldIds ? { field_ids: fieldIds } : {}) },
      { onSuccess: (check) => void navigate(paths.check(check.id)) },
    );
  }

  return (
    <Page title="Warehouse checks">
      {can('floor') ? (
        <form
          onSubmit={submit}
          className="mb-6 flex flex-wrap items-end gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm"
          aria-label="Start a check"
        >
          <Stacked id="check-warehouse" label="Warehouse">
            <select
              id="check-warehouse"
              className={`${inputClass} min-h-12`}
              value={chosenId ?? ''}
              onChange={(e) => setWarehouseId(Number(e.target.value))}
            >
              <NamedOptions items={warehouses.data ?? []} />
            </select>
          </Stacked>
          <Stacked id="check-scope" label="Check">
            <SelectInput id="check-scope" className="min-h-12" value={scope} onValue={setScope}>
              <option value="all">The whole warehouse</option>
              <option value="some">Some fields</option>
            </SelectInput>
          </Stacked>
          {scope === 'some' && (
            <Stacked id="check-fields" label="Fields" className="min-w-56 flex-1">
              <TextInput
                id="check-fields"
                className="min-h-12"
                value={fieldText}
                onValue={setFieldText}
                placeholder={fieldNames.slice(0, 3).join(', ') || 'A1, A2, B1'}
                aria-describedby="check-fields-hint"
              />
              <span id="check-fields-hint" className="text-xs font-normal text-slate-500">
                Field names separated by commas
              </span>
            </Stacked>
          )}
          <Button type="submit" className="min-h-12" disabled={start.isPending || chosenId === null}>
            <ScanSearch className="h-5 w-5" aria-hidden /> Start check
          </Button>
          <div className="w-full">
            <ErrorList messages={[...formErrors, ...(start.isError ? errorMessages(start.error) : [])]} />
          </div>
        </form>
      ) : (
        <div className="mb-6">
          <RoleHint needed="floor">{CHECKS_ARE_FLOOR_WORK}</RoleHint>
        </div>
      )}
      {checks.isPending && <Spinner />}
      {checks.isError && <QueryFailed query={checks} />}
      {checks.data && checks.data.length === 0 && (
        <EmptyState icon={ScanSearch} title="No warehouse checks yet">
          {can('floor')
            ? "Start one above: scan each field's label, then the vaults in it."
            : 'The checks the floor starts are listed here, with their reports.'}
        </EmptyState>
      )}
      {checks.data && checks.data.length > 0 && (
        <ul
          className="divide-y divide-slate-100 rounded-2xl border border-slate-200 bg-white shadow-sm"
          aria-label="Checks"
        >
          {checks.data.map((check) => (
            <li key={check.id}>
              <Link
                to={paths.check(check.id)}
                className="flex min-h-14 flex-wrap items-center gap-3 px-4 py-3 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-accent"
              >
                <span className="flex-1 font-semibold text-slate-800">
                  Check {check.id}: {check.warehouse_name}
                </span>
                <span className="text-sm text-slate-600">
                  {formatCount(check.field_count, 'field')},{' '}
                  {check.finished_at
                    ? `finished by ${check.finished_by ?? '?'}`
                    : check.cancelled_at
                      ? `cancelled by ${check.cancelled_by ?? '?'}`
                      : `running, ${check.checked_count} checked`}
                  {check.warehouse_deleted_at && ' (warehouse deleted)'}
                </span>
                <span className="text-xs text-slate-500">{format.dateTime(check.started_at)}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}

/** A control of the start form with its label above it. */
function Stacked({
  id,
  label,
  className = 'min-w-48',
  children,
}: {
  id: string;
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={`flex ${className} flex-col gap-1 text-sm font-medium text-slate-700`}>
      <label htmlFor={id}>{label}</label>
      {children}
    </div>
  );
}
