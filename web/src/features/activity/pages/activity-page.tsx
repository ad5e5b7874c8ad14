import { Download } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ACTIVITY_KINDS } from '@domain/schemas/activity.schema';
import { type ActivityFilters, activityQuery, useActivity } from '@/api/activity';
import { useSession } from '@/api/session';
import { useWarehouses } from '@/api/warehouses';
import { Button, buttonClass } from '@/components/ui/button';
import { LabelledOptions, NamedOptions } from '@/components/ui/named-options';
import { LoadFailed } from '@/components/ui/error-list';
import { FormField, SelectInput, TextInput } from '@/components/ui/form-field';
import { Page } from '@/components/ui/page';
import { Spinner } from '@/components/ui/spinner';
import { errorMessages } from '@/lib/api-client';
import { useDocumentTitle } from '@/lib/use-document-title';
import { ActivityEntry } from '../components/activity-entry';

const KIND_LABELS: Record<(typeof ACTIVITY_KINDS)[number], string> = {
  vault: 'Vaults',
  pallet: 'Pallets',
  warehouse: 'Warehouses and layout',
  field: 'Fields',
  rack: 'Racks',
  checklist: 'Checklists',
  member: 'Team',
  check: 'Warehouse checks',
};

function initialFilters(params: URLSearchParams): ActivityFilters {
  const q = params.get('q')?.trim();
  return q ? { q } : {};
}

/** /activity: the company's changes, newest first, with filters, paging and a CSV export. Nobody can edit it. */
export default function ActivityPage() {
  useDocumentTitle('Activity');
  const session = useSession();
  const warehouses = useWarehouses(session.data?.companyId);
  // ?q= opens the page filtered by a vault number or customer (the top-bar search's released vaults lead here)
  const [searchParams] = useSearchParams();
  const [draft, setDraft] = useState<ActivityFilters>(() => initialFilters(searchParams));
  const [filters, setFilters] = useState<ActivityFilters>(() => initialFilters(searchParams));
  const activity = useActivity(filters);
  const members = activity.data?.pages[0]?.members ?? [];
  // the history's own list keeps deleted warehouses; the live list fills in while the first page loads
  const warehouseOptions =
    activity.data?.pages[0]?.warehouses ??
    (warehouses.data ?? []).map((w) => ({ id: w.id, name: w.name, deleted: false }));
  const items = activity.data?.pages.flatMap((page) => page.items) ?? [];

  const set = (key: keyof ActivityFilters) => (value: string) => setDraft((d) => ({ ...d, [key]: value }));
  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setFilters({ ...draft, q: draft.q?.trim() });
  }

  return (
    <Page
      title="Activity"
      actions={
        <a
          href={`/api/activity/export${activityQuery(filters)}`}
          className={buttonClass('secondary')}
          download
        >
          <Download className="h-4 w-4" aria-hidden /> Export CSV
        </a>
      }
    >
      <form
        onSubmit={onSubmit}
        aria-label="Filter activity"
        className="mb-6 grid grid-cols-1 gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-3 lg:grid-cols-6"
      >
        <FormField label="Vault number or customer" className="sm:col-span-2">
          <TextInput name="q" maxLength={100} value={draft.q ?? ''} onValue={set('q')} />
        </FormField>
        <FormField label="Warehouse">
          <SelectInput value={draft.warehouse ?? ''} onValue={set('warehouse')}>
            <option value="">All</option>
            {warehouseOptions.map((w) => (
              <option key={w.id} value={w.id}>
                {w.deleted ? `${w.name} (deleted)` : w.name}
              </option>
            ))}
          </SelectInput>
        </FormField>
        <FormField label="Member">
          <SelectInput value={draft.member ?? ''} onValue={set('member')}>
            <option value="">Everyone</option>
            <NamedOptions items={members} />
          </SelectInput>
        </FormField>
        <FormField label="Kind">
          <SelectInput value={draft.kind ?? ''} onValue={set('kind')}>
            <option value="">Everything</option>
            <LabelledOptions values={ACTIVITY_KINDS} labels={KIND_LABELS} />
          </SelectInput>
        </FormField>
        <FormField label="From">
          <TextInput type="date" value={draft.from ?? ''} onValue={set('from')} />
        </FormField>
        <FormField label="To">
          <TextInput type="date" value={draft.to ?? ''} onValue={set('to')} />
        </FormField>
        <div className="flex items-end gap-2">
          <Button type="submit">Show</Button>
          <Button
            variant="secondary"
            onClick={() => {
              setDraft({});
              setFilters({});
            }}
          >
            Clear
          </Button>
        </div>
      </form>

      {activity.isPending && <Spinner label="Loading activity..." />}
      {activity.isError && (
        <LoadFailed messages={errorMessages(activity.error)} onRetry={() => void activity.refetch()} />
      )}
      {activity.isSuccess && items.length === 0 && (
        <p className="rounded-xl border border-slate-200 bg-white p-6 text-center text-slate-600">
          Nothing was recorded for these filters.
        </p>
      )}
      {items.length > 0 && (
        <ol aria-label="Changes" className="rounded-xl border border-slate-200 bg-white shadow-sm">
          {items.map((item) => (
            <ActivityEntry key={item.id} item={item} />
          ))}
        </ol>
      )}
      {activity.hasNextPage && (
        <div className="mt-4 flex justify-center">
          <Button
            variant="secondary"
            onClick={() => void activity.fetchNextPage()}
            disabled={activity.isFetchingNextPage}
          >
            {activity.isFetchingNextPage ? 'Loading...' : 'Older changes'}
          </Button>
        </div>
      )}
    </Page>
  );
}
