import { PackageOpen, Plus } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import type { PortalUnitDto } from '@domain/schemas/customer.schema';
import {
  REQUEST_KIND_LABELS,
  REQUEST_KINDS,
  type PortalRequestDto,
  type RequestKind,
} from '@domain/schemas/request.schema';
import { usePortalCancelRequest, usePortalCreateRequest, usePortalRequests } from '../../api/portal';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { ErrorList } from '../../components/ui/error-list';
import { QueryView } from '../../components/ui/query-view';
import { FormField, TextArea, TextInput } from '../../components/ui/form-field';
import { errorMessages } from '../../lib/api-client';
import { RequestStateBadge, RequestSteps } from '../../components/requests/request-steps';
import { UnitChoice } from '../../components/requests/unit-choice';
import { CancelRequestDialog } from '../../components/requests/cancel-request-dialog';

const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

/** The phone-first form: what kind, which units (big checkboxes), the day, the address and notes. */
function RequestForm({ units, onDone }: { units: PortalUnitDto[]; onDone: () => void }) {
  const [kind, setKind] = useState<RequestKind>('delivery');
  const [chosen, setChosen] = useState<number[]>([]);
  const [date, setDate] = useState(tomorrow());
  const [address, setAddress] = useState('');
  const [notes, setNotes] = useState('');
  const create = usePortalCreateRequest();
  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate(
      { kind, vault_ids: chosen, wished_date: date, address, notes },
      {
        onSuccess: (request) => {
          toast.success(`Request #${request.id} sent. We will schedule it and let you know.`);
          onDone();
        },
      },
    );
  }
  return (
    <form
      onSubmit={submit}
      className="space-y-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
      aria-label="New request"
    >
      <fieldset>
        <legend className="mb-1 text-sm font-semibold text-slate-800">What do you need?</legend>
        <div className="grid gap-2">
          {REQUEST_KINDS.map((k) => (
            <label
              key={k}
              className={`flex min-h-12 cursor-pointer items-center gap-3 rounded-lg border px-3 ${kind === k ? 'border-accent bg-blue-50' : 'border-slate-300'}`}
            >
              <input
                type="radio"
                name="kind"
                className="h-5 w-5 accent-accent"
                checked={kind === k}
                onChange={() => setKind(k)}
              />
              <span className="font-medium">{REQUEST_KIND_LABELS[k]}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <UnitChoice units={units} chosen={chosen} onChange={setChosen} />
      <FormField label="Wished date">
        <TextInput type="date" value={date} min={tomorrow()} onValue={setDate} />
      </FormField>
      {kind !== 'access' && (
        <FormField label="Address" hint="Where the units go.">
          <TextArea rows={2} value={address} autoComplete="street-address" onValue={setAddress} />
        </FormField>
      )}
      <FormField label="Notes">
        <TextArea rows={2} value={notes} onValue={setNotes} />
      </FormField>
      {create.error && <ErrorList messages={errorMessages(create.error)} />}
      <div className="flex gap-2">
        <Button
          type="submit"
          className="min-h-12 flex-1 text-base"
          disabled={create.isPending || chosen.length === 0}
        >
          {create.isPending ? 'Sending...' : 'Send request'}
        </Button>
        <Button variant="secondary" className="min-h-12" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function RequestCard({
  request,
  formatDay,
}: {
  request: PortalRequestDto;
  formatDay: (iso: string) => string;
}) {
  const cancel = usePortalCancelRequest();
  const [confirm, setConfirm] = useState(false);
  return (
    <li
      className="space-y-3 rounded-lg border border-slate-200 bg-white p-3 shadow-sm"
      data-testid="portal-request"
    >
      <div className="flex items-center justify-between gap-2">
        <span className="font-semibold text-slate-900">
          {REQUEST_KIND_LABELS[request.kind]} #{request.id}
        </span>
        <RequestStateBadge state={request.state} kind={request.kind} />
      </div>
      <p className="text-sm text-slate-600">
        {request.units.map((u) => u.number ?? u.type).join(', ')} · wished {formatDay(request.wished_date)}
        {request.scheduled_date && ` · scheduled ${formatDay(request.scheduled_date)}`}
      </p>
      <RequestSteps kind={request.kind} state={request.state} steps={request.steps} formatDate={formatDay} />
      {request.state === 'requested' && (
        <Button variant="secondary" className="min-h-11 w-full" onClick={() => setConfirm(true)}>
          Cancel this request
        </Button>
      )}
      <CancelRequestDialog
        requestId={request.id}
        open={confirm}
        onOpenChange={setConfirm}
        message="Your units stay in storage. You can ask again any time."
        pending={cancel.isPending}
        cancel={(outcome) => cancel.mutate(request.id, outcome)}
      />
    </li>
  );
}

/** The customer's requests in the portal, and the form to ask for goods (issue 29, point 3). */
export function PortalRequests({
  units,
  formatDay,
}: {
  units: PortalUnitDto[] | undefined;
  formatDay: (iso: string) => string;
}) {
  const requests = usePortalRequests(true);
  const [asking, setAsking] = useState(false);
  return (
    <section aria-labelledby="portal-requests">
      <div className="mb-2 flex items-center justify-between gap-2">
        <h2 id="portal-requests" className="text-lg font-semibold text-slate-800">
          Requests
        </h2>
        {!asking && units && units.length > 0 && (
          <Button className="min-h-11" onClick={() => setAsking(true)}>
            <Plus className="h-4 w-4" aria-hidden /> Ask for your goods
          </Button>
        )}
      </div>
      {asking && units && <RequestForm units={units} onDone={() => setAsking(false)} />}
      <QueryView
        query={requests}
        loading="Loading your requests..."
        empty={!asking && <EmptyState icon={PackageOpen} title="No requests yet" />}
      >
        {(list) => (
          <ul className="mt-3 space-y-3">
            {list.map((r) => (
              <RequestCard key={r.id} request={r} formatDay={formatDay} />
            ))}
          </ul>
        )}
      </QueryView>
    </section>
  );
}
