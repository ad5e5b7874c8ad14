import { Inbox, Plus } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import {
  REQUEST_KIND_LABELS,
  REQUEST_KINDS,
  REQUEST_STATE_LABELS,
  REQUEST_STATES,
  type RequestKind,
  type RequestState,
} from '@domain/schemas/request.schema';
import { useCustomers } from '@/api/customers';
import { useCreateRequest, useCustomerUnits, useRequests } from '@/api/requests';
import { Button } from '@/components/ui/button';
import { LabelledOptions } from '@/components/ui/named-options';
import { FormButtons } from '@/components/ui/form-buttons';
import { Dialog } from '@/components/ui/dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorList, QueryFailed } from '@/components/ui/error-list';
import { QueryView } from '@/components/ui/query-view';
import { FormField, SelectInput, TextArea, TextInput, inputClass } from '@/components/ui/form-field';
import { Page } from '@/components/ui/page';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { errorMessages } from '@/lib/api-client';
import { useFormat } from '@/lib/format';
import { useDocumentTitle } from '@/lib/use-document-title';
import { RequestStateBadge } from '@/components/requests/request-steps';
import { UnitChoice } from '@/components/requests/unit-choice';

const today = () => new Date().toISOString().slice(0, 10);

/** The office enters a request for a customer on the phone: the customer, the units, the day, the address. */
function NewRequestDialog({ onClose }: { onClose: () => void }) {
  const customers = useCustomers();
  const [customerId, setCustomerId] = useState<number | null>(null);
  const units = useCustomerUnits(customerId);
  const [kind, setKind] = useState<RequestKind>('delivery');
  const [chosen, setChosen] = useState<number[]>([]);
  const [date, setDate] = useState(today());
  const [address, setAddress] = useState('');
  const [notes, setNotes] = useState('');
  const create = useCreateRequest();
  const navigate = useNavigate();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (customerId === null) return;
    create.mutate(
      { customer_id: customerId, kind, vault_ids: chosen, wished_date: date, address, notes },
      {
        onSuccess: (request) => {
          toast.success(`Request #${request.id} for ${request.customer_name} entered`);
          onClose();
          void navigate(paths.request(request.id));
        },
      },
    );
  }

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title="New request" wide>
      <form onSubmit={submit} className="space-y-4">
        <FormField label="Customer">
          <select
            className={inputClass}
            value={customerId ?? ''}
            onChange={(e) => {
              setCustomerId(e.target.value ? Number(e.target.value) : null);
              setChosen([]);
            }}
          >
            <option value="">Choose the customer</option>
            {customers.data?.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name} ({c.units} {c.units === 1 ? 'unit' : 'units'})
              </option>
            ))}
          </select>
        </FormField>
        <FormField label="Kind">
          <SelectInput value={kind} onValue={setKind}>
            <LabelledOptions values={REQUEST_KINDS} labels={REQUEST_KIND_LABELS} />
          </SelectInput>
        </FormField>
        {customerId !== null &&
          (units.isPending ? (
            <Spinner label="Loading the customer's units..." />
          ) : units.isError ? (
            <QueryFailed query={units} />
          ) : (
            <UnitChoice units={units.data} chosen={chosen} onChange={setChosen} />
          ))}
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField label="Wished date">
            <TextInput type="date" value={date} min={today()} onValue={setDate} />
          </FormField>
          <FormField label="Address" hint={kind === 'access' ? 'Not needed for a visit.' : undefined}>
            <TextInput value={address} onValue={setAddress} />
          </FormField>
        </div>
        <FormField label="Notes">
          <TextArea rows={2} value={notes} onValue={setNotes} />
        </FormField>
        {create.error && <ErrorList messages={errorMessages(create.error)} />}
        <FormButtons
          submit="Enter request"
          pending={create.isPending}
          disabled={customerId === null || chosen.length === 0}
          onCancel={onClose}
        />
      </form>
    </Dialog>
  );
}

/** The office's Requests page (issue 29): customers' requests, filtered by state, newest first. */
export default function RequestsPage() {
  useDocumentTitle('Requests');
  const [state, setState] = useState<RequestState | 'all'>('all');
  const requests = useRequests(state);
  const format = useFormat();
  const [adding, setAdding] = useState(false);

  return (
    <Page
      title="Requests"
      actions={
        <Button onClick={() => setAdding(true)}>
          <Plus className="h-4 w-4" aria-hidden /> New request
        </Button>
      }
    >
      <div className="mb-4 max-w-xs">
        <FormField label="State">
          <SelectInput value={state} onValue={setState}>
            <option value="all">All states</option>
            <LabelledOptions values={REQUEST_STATES} labels={REQUEST_STATE_LABELS} />
          </SelectInput>
        </FormField>
      </div>
      <QueryView
        query={requests}
        loading="Loading requests..."
        empty={
          <EmptyState icon={Inbox} title={state === 'all' ? 'No requests yet' : 'No requests in this state'}>
            Customers ask for their goods from the portal; enter a request here for a customer on the phone.
          </EmptyState>
        }
      >
        {(list) => (
          <ul
            className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white"
            aria-label="Requests"
          >
            {list.map((r) => (
              <li key={r.id}>
                <Link
                  to={paths.request(r.id)}
                  className="flex min-h-11 flex-wrap items-center gap-3 p-3 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-accent"
                  data-testid="request-row"
                >
                  <span className="font-mono text-sm text-slate-500">#{r.id}</span>
                  <span className="min-w-0 flex-1">
                    <span className="block font-semibold text-slate-900">{r.customer_name}</span>
                    <span className="block text-sm text-slate-600">
                      {REQUEST_KIND_LABELS[r.kind]} · {format.count(r.units, 'unit')} · wished{' '}
                      {format.day(r.wished_date)}
                      {r.scheduled_date && ` · scheduled ${format.day(r.scheduled_date)}`}
                    </span>
                  </span>
                  <RequestStateBadge state={r.state} kind={r.kind} />
                </Link>
              </li>
            ))}
          </ul>
        )}
      </QueryView>
      {adding && <NewRequestDialog onClose={() => setAdding(false)} />}
    </Page>
  );
}
