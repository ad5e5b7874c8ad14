import { ClipboardList, PackageCheck, Truck } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { REQUEST_KIND_LABELS, type RequestDto } from '@domain/schemas/request.schema';
import { useCancelRequest, useMarkDelivered, useRequest, useScheduleRequest } from '@/api/requests';
import { Button, buttonClass } from '@/components/ui/button';
import { CancelRequestDialog } from '@/components/requests/cancel-request-dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorList, QueryFailed } from '@/components/ui/error-list';
import { FormField, TextInput } from '@/components/ui/form-field';
import { Page } from '@/components/ui/page';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { errorMessages } from '@/lib/api-client';
import { useFormat } from '@/lib/format';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useIdParam } from '@/lib/use-id-param';
import { RequestStateBadge, RequestSteps } from '@/components/requests/request-steps';

function ScheduleForm({ request }: { request: RequestDto }) {
  const [date, setDate] = useState(request.wished_date);
  const [crew, setCrew] = useState('');
  const [truck, setTruck] = useState('');
  const schedule = useScheduleRequest(request.id);
  function submit(event: FormEvent) {
    event.preventDefault();
    schedule.mutate(
      { date, crew, truck },
      { onSuccess: () => toast.success(`Request #${request.id} scheduled; its pull list is ready`) },
    );
  }
  return (
    <form
      onSubmit={submit}
      className="space-y-3 rounded-xl border border-slate-200 bg-white p-4"
      aria-label="Schedule"
    >
      <h2 className="text-lg font-semibold text-slate-800">Schedule</h2>
      <div className="grid gap-3 sm:grid-cols-3">
        <FormField label="Date">
          <TextInput type="date" value={date} onValue={setDate} />
        </FormField>
        <FormField label="Crew">
          <TextInput value={crew} onValue={setCrew} />
        </FormField>
        <FormField label="Truck">
          <TextInput value={truck} onValue={setTruck} />
        </FormField>
      </div>
      {schedule.error && <ErrorList messages={errorMessages(schedule.error)} />}
      <Button type="submit" disabled={schedule.isPending}>
        {schedule.isPending ? 'Scheduling...' : 'Schedule and make the pull list'}
      </Button>
    </form>
  );
}

/** One request for the office: its steps, its units and what to do next. */
export default function RequestPage() {
  const id = useIdParam();
  const request = useRequest(id);
  const format = useFormat();
  const cancel = useCancelRequest(id ?? 0);
  const delivered = useMarkDelivered(id ?? 0);
  const [confirmCancel, setConfirmCancel] = useState(false);
  useDocumentTitle(request.data ? `Request #${request.data.id}` : 'Request');

  if (id === null)
    return (
      <Page title="Request">
        <EmptyState icon={ClipboardList} title="No such request" />
      </Page>
    );
  if (request.isPending) return <Spinner label="Loading the request..." />;
  if (request.isError)
    return (
      <Page title="Request">
        <QueryFailed query={request} />
      </Page>
    );
  const r = request.data;
  const open = r.state === 'requested' || r.state === 'scheduled' || r.state === 'pulling';
  const onDock = (r.state === 'scheduled' || r.state === 'pulling') && r.kind !== 'access';
  const deliverable =
    r.kind === 'access' ? r.state === 'scheduled' || r.state === 'pulling' : r.state === 'loaded';

  return (
    <Page
      title={`Request #${r.id}: ${r.customer_name}`}
      actions={
        <div className="flex flex-wrap gap-2">
          {onDock && (
            <Link to={paths.loadOut(r.id)} className={buttonClass('primary')}>
              <Truck className="h-4 w-4" aria-hidden /> Load-out check
            </Link>
          )}
          {r.pull_list_id !== null && (
            <Link to={paths.pullList(r.pull_list_id)} className={buttonClass('secondary')}>
              <ClipboardList className="h-4 w-4" aria-hidden /> Pull list
            </Link>
          )}
          {deliverable && (
            <Button
              disabled={delivered.isPending}
              onClick={() =>
                delivered.mutate(undefined, {
                  onSuccess: () =>
                    toast.success(
                      r.kind === 'access' ? `Request #${r.id} done` : `Request #${r.id} delivered`,
                    ),
                  onError: (error) => toast.error(errorMessages(error).join(' ')),
                })
              }
            >
              <PackageCheck className="h-4 w-4" aria-hidden />{' '}
              {r.kind === 'access' ? 'Mark done' : 'Mark delivered'}
            </Button>
          )}
          {open && (
            <Button variant="secondary" onClick={() => setConfirmCancel(true)}>
              Cancel request
            </Button>
          )}
        </div>
      }
    >
      <div className="grid gap-6 lg:grid-cols-[2fr_1fr]">
        <div className="space-y-6">
          <section className="rounded-xl border border-slate-200 bg-white p-4" aria-label="Details">
            <div className="mb-3 flex flex-wrap items-center gap-3">
              <RequestStateBadge state={r.state} kind={r.kind} />
              <span className="font-semibold text-slate-800">{REQUEST_KIND_LABELS[r.kind]}</span>
            </div>
            <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
              <div>
                <dt className="text-slate-500">Wished date</dt>
                <dd className="text-slate-900">{format.day(r.wished_date)}</dd>
              </div>
              <div>
                <dt className="text-slate-500">Address</dt>
                <dd className="text-slate-900">{r.address ?? '—'}</dd>
              </div>
              {r.scheduled_date && (
                <div>
                  <dt className="text-slate-500">Scheduled</dt>
                  <dd className="text-slate-900">
                    {format.day(r.scheduled_date)} · crew {r.crew} · truck {r.truck}
                  </dd>
                </div>
              )}
              {r.notes && (
                <div className="sm:col-span-2">
                  <dt className="text-slate-500">Notes</dt>
                  <dd className="whitespace-pre-line text-slate-900">{r.notes}</dd>
                </div>
              )}
              {r.override_reason && (
                <div className="sm:col-span-2">
                  <dt className="text-slate-500">Loaded with units missing, because</dt>
                  <dd className="text-slate-900">{r.override_reason}</dd>
                </div>
              )}
            </dl>
          </section>
          {r.state === 'requested' && <ScheduleForm request={r} />}
          <section aria-labelledby="request-units">
            <h2 id="request-units" className="mb-2 text-lg font-semibold text-slate-800">
              Units ({r.units.length})
            </h2>
            <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
              {r.units.map((u) => (
                <li key={u.id} className="flex flex-wrap items-center gap-3 p-3" data-testid="request-unit">
                  <span className="font-mono font-semibold text-slate-900">{u.number ?? 'No number'}</span>
                  <span className="text-sm capitalize text-slate-600">{u.type}</span>
                  <span className="flex-1 text-sm text-slate-600">
                    {u.place === 'released'
                      ? 'Left the warehouse'
                      : u.place === 'on-stage'
                        ? 'On the stage'
                        : u.location}
                  </span>
                  {u.loaded_at && (
                    <span className="text-sm text-green-800">
                      On the truck {format.dateTime(u.loaded_at)} ({u.loaded_by})
                    </span>
                  )}
                </li>
              ))}
            </ul>
          </section>
        </div>
        <section className="rounded-xl border border-slate-200 bg-white p-4" aria-labelledby="request-steps">
          <h2 id="request-steps" className="mb-3 text-lg font-semibold text-slate-800">
            Steps
          </h2>
          <RequestSteps kind={r.kind} state={r.state} steps={r.steps} formatDate={format.dateTime} />
        </section>
      </div>
      <CancelRequestDialog
        requestId={r.id}
        open={confirmCancel}
        onOpenChange={setConfirmCancel}
        message="The customer is told. Its pull list is removed; units already pulled stay on the stage."
        pending={cancel.isPending}
        cancel={(outcome) => cancel.mutate(undefined, outcome)}
      />
    </Page>
  );
}
