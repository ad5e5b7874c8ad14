import { CheckCircle2, PackageCheck, Truck } from 'lucide-react';
import { type ReactNode, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import type { LoadOutDto, RequestUnitDto } from '@domain/schemas/request.schema';
import { loadOutScope, useCompleteLoad, useLoadOut, useLoadScan, useMarkDelivered } from '@/api/requests';
import { useQueuedFor } from '@/lib/outbox/floor-outbox';
import { formatCount } from '@/lib/format';
import { useRole } from '@/api/session';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorList, QueryFailed } from '@/components/ui/error-list';
import { FormField, TextArea } from '@/components/ui/form-field';
import { Page } from '@/components/ui/page';
import { RoleHint } from '@/components/ui/role-hint';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { errorMessages } from '@/lib/api-client';
import { useFormat } from '@/lib/format';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useIdParam } from '@/lib/use-id-param';
import { CameraReader, CameraToggle } from '../components/camera-reader';
import { loadScanCaption, queuedLoadScanNote, unitName, withQueuedLoadScans } from '../load-out-scans';
import { ScanTextForm } from '../components/scan-text-form';
import { readFeedback } from '../read-feedback';
import { createReadGate, type NotedScan, noteScan } from '../read-gate';
import { useScanClaim } from '../scan-claim';
import { RequestStateBadge } from '@/components/requests/request-steps';

function Count({ label, value, tone, note }: { label: string; value: number; tone: string; note?: string }) {
  return (
    <div className={`rounded-xl p-4 text-center ${tone}`} data-testid={`load-${label.toLowerCase()}`}>
      <p className="text-4xl font-bold tabular-nums">{value}</p>
      <p className="text-base font-semibold">{label}</p>
      {note && <p className="text-sm">{note}</p>}
    </div>
  );
}

function UnitList({
  title,
  units,
  empty,
  children,
}: {
  title: string;
  units: RequestUnitDto[];
  empty: string;
  children: (u: RequestUnitDto) => ReactNode;
}) {
  return (
    <section aria-label={title} className="rounded-xl border border-slate-200 bg-white p-4">
      <h2 className="mb-2 text-lg font-semibold text-slate-800">{title}</h2>
      {units.length === 0 ? (
        <p className="text-slate-600">{empty}</p>
      ) : (
        <ul className="space-y-2">
          {units.map((u) => (
            <li key={u.id} className="flex flex-wrap items-baseline gap-x-3 text-base">
              <span className="font-mono text-lg font-semibold text-slate-900">{unitName(u)}</span>
              <span className="text-sm text-slate-600">{children(u)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The load-out check on the dock (issue 29, point 4): tablet-first, one scan per unit onto the truck. */
export default function LoadOutPage() {
  const id = useIdParam();
  const loadOut = useLoadOut(id);
  useDocumentTitle(loadOut.data ? `Load-out #${loadOut.data.id}` : 'Load-out check');
  if (id === null)
    return (
      <Page title="Load-out check">
        <EmptyState icon={Truck} title="No such request" />
      </Page>
    );
  if (loadOut.isPending) return <Spinner label="Loading the load-out..." />;
  if (loadOut.isError)
    return (
      <Page title="Load-out check">
        <QueryFailed query={loadOut} />
      </Page>
    );
  return <LoadOut data={loadOut.data} />;
}

function LoadOut({ data: answered }: { data: LoadOutDto }) {
  const { can } = useRole();
  const format = useFormat();
  // scans waiting on this tablet (issue 30): counted onto the truck at once, marked not synced; the load is not
  // marked until the server has them all
  const queued = useQueuedFor(loadOutScope(answered.id));
  const { loadOut: data, notSynced } = useMemo(
    () =>
      withQueuedLoadScans(
        answered,
        queued.map((intent) => ({
          text: String(intent.body.text ?? ''),
          refused: intent.state === 'attention',
        })),
      ),
    [answered, queued],
  );
  const scan = useLoadScan(data.id);
  const complete = useCompleteLoad(data.id);
  const delivered = useMarkDelivered(data.id);
  const readGate = useRef(createReadGate());
  const [camera, setCamera] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const [last, setLast] = useState<NotedScan[]>([]);
  const [override, setOverride] = useState(false);
  const [reason, setReason] = useState('');
  const floor = can('floor');
  const manager = can('manager');
  const loading = data.state === 'scheduled' || data.state === 'pulling';
  const full = data.missing.length === 0;
  const waiting = queued.length > 0;

  const handle = (raw: string) => {
    const text = raw.trim();
    if (!text || !floor || !loading) return;
    if (!readGate.current(text, Date.now())) return;
    setErrors([]);
    scan.mutate(
      { text, caption: loadScanCaption(answered, text) },
      {
        onSuccess: (sent) => {
          readFeedback(true);
          if (sent.queued) {
            const note = queuedLoadScanNote(answered, text);
            setLast((list) => noteScan(list, note.said, note.ok));
            return;
          }
          const answer = sent.answer;
          const name = unitName(answer.unit);
          setLast((list) =>
            noteScan(
              list,
              answer.result === 'again' ? `${name}: already on the truck` : `${name}: on the truck`,
              true,
            ),
          );
        },
        onError: (error) => {
          readFeedback(false);
          const messages = errorMessages(error);
          setLast((list) => noteScan(list, messages[0] ?? 'Not read', false));
          setErrors(messages);
        },
      },
    );
  };
  useScanClaim(handle);

  const markLoaded = (overrideReason?: string) =>
    complete.mutate(overrideReason ? { override_reason: overrideReason } : {}, {
      onSuccess: () => {
        setOverride(false);
        toast.success(`Request #${data.id} loaded; its units are released`);
      },
      onError: (error) => toast.error(errorMessages(error).join(' ')),
    });

  return (
    <Page
      title={`Load-out #${data.id}: ${data.customer_name}`}
      actions={<RequestStateBadge state={data.state} kind={data.kind} />}
    >
      <p className="mb-4 text-base text-slate-700">
        {data.scheduled_date && `${format.day(data.scheduled_date)} · `}
        {data.truck && `truck ${data.truck} · `}
        {data.crew && `crew ${data.crew}`}
        {data.pull_list_id !== null && (
          <>
            {' · '}
            <Link to={paths.pullList(data.pull_list_id)} className="font-semibold text-accent underline">
              Pull list
            </Link>
          </>
        )}
      </p>
      <div className="mb-6 grid grid-cols-3 gap-3" role="status" aria-label="Load counts">
        <Count label="Requested" value={data.requested} tone="bg-slate-100 text-slate-900" />
        <Count
          label="Loaded"
          value={data.loaded.length}
          tone="bg-green-100 text-green-900"
          note={notSynced.size > 0 ? `${notSynced.size} not synced` : undefined}
        />
        <Count
          label="Missing"
          value={data.missing.length}
          tone={data.missing.length ? 'bg-amber-100 text-amber-900' : 'bg-green-100 text-green-900'}
        />
      </div>

      {loading && floor && (
        <section
          aria-label="Scanning"
          className="mb-6 space-y-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm"
        >
          <p className="text-lg font-semibold text-slate-800">Scan each unit as it goes onto the truck.</p>
          <CameraToggle on={camera} onToggle={() => setCamera((on) => !on)} className="min-h-12" />
          {camera && <CameraReader onRead={handle} />}
          <ScanTextForm
            id="load-scan-text"
            placeholder="Unit number or label"
            button="Load"
            disabled={scan.isPending}
            onText={handle}
          />
          <ErrorList messages={errors} />
          {last.length > 0 && (
            <ol aria-label="Last scans" className="space-y-1 text-base">
              {/* the refusal just read is shown above, as the alert */}
              {last.slice(errors.length > 0 ? 1 : 0).map((s) => (
                <li key={s.key} className={s.ok ? 'text-green-800' : 'text-red-700'}>
                  {s.said}
                </li>
              ))}
            </ol>
          )}
          {waiting && (
            <div className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-base text-amber-900">
              <p className="font-semibold">Not synced: {formatCount(queued.length, 'scan')} on this device</p>
              <ol aria-label="Scans not synced" className="mt-1 list-inside list-decimal">
                {queued.map((intent) => (
                  <li key={intent.key}>
                    {`Load-out ${data.id}: scan ${loadScanCaption(data, String(intent.body.text ?? ''))}`}
                    {intent.state === 'attention' && ' (refused: see the changes not synced)'}
                  </li>
                ))}
              </ol>
            </div>
          )}
          <div className="flex flex-wrap gap-3 pt-2">
            <Button
              className="min-h-14 px-6 text-base"
              disabled={!full || waiting || complete.isPending}
              onClick={() => markLoaded()}
            >
              <CheckCircle2 className="h-5 w-5" aria-hidden /> Mark loaded
            </Button>
            {manager && !full && !waiting && data.loaded.length > 0 && (
              <Button
                variant="secondary"
                className="min-h-14 px-6 text-base"
                onClick={() => setOverride(true)}
              >
                Load without the missing units
              </Button>
            )}
          </div>
          {waiting ? (
            <p className="text-sm text-slate-600">
              {formatCount(queued.length, 'scan')} of this load {queued.length === 1 ? 'waits' : 'wait'} on
              this device: mark it loaded once {queued.length === 1 ? 'it has' : 'they have'} reached the
              server.
            </p>
          ) : (
            !full && (
              <p className="text-sm text-slate-600">
                Mark loaded becomes possible once every unit is on the truck.
              </p>
            )
          )}
        </section>
      )}
      {loading && !floor && (
        <div className="mb-6">
          <RoleHint needed="floor" />
        </div>
      )}
      {data.state === 'loaded' && (can('floor') || can('office')) && (
        <div className="mb-6 flex flex-wrap items-center gap-3 rounded-2xl border border-green-200 bg-green-50 p-4">
          <p className="flex-1 text-lg font-semibold text-green-900">Loaded. The truck can leave.</p>
          <Button
            className="min-h-14 px-6 text-base"
            disabled={delivered.isPending}
            onClick={() =>
              delivered.mutate(undefined, {
                onSuccess: () => toast.success(`Request #${data.id} delivered`),
                onError: (error) => toast.error(errorMessages(error).join(' ')),
              })
            }
          >
            <PackageCheck className="h-5 w-5" aria-hidden /> Mark delivered
          </Button>
        </div>
      )}

      <div className="grid gap-4 md:grid-cols-2">
        <UnitList title="Missing" units={data.missing} empty="Every unit is on the truck.">
          {(u) =>
            u.place === 'in-field'
              ? `in ${u.location ?? 'a field'}: pull it first`
              : u.place === 'on-stage'
                ? 'on the stage'
                : 'left'
          }
        </UnitList>
        <UnitList title="On the truck" units={data.loaded} empty="Nothing loaded yet.">
          {(u) =>
            notSynced.has(u.id)
              ? 'scanned on this device, not synced yet'
              : u.loaded_at
                ? `${format.dateTime(u.loaded_at)} · ${u.loaded_by ?? ''}`
                : ''
          }
        </UnitList>
      </div>

      <Dialog open={override} onOpenChange={setOverride} title="Load without the missing units">
        <form
          className="space-y-4"
          onSubmit={(event) => {
            event.preventDefault();
            markLoaded(reason);
          }}
        >
          <p className="text-sm text-slate-600">
            {format.count(data.missing.length, 'unit')} stay behind. Your reason is kept in the request's
            history.
          </p>
          <FormField label="Reason">
            <TextArea rows={2} value={reason} onValue={setReason} />
          </FormField>
          {complete.error && <ErrorList messages={errorMessages(complete.error)} />}
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setOverride(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={!reason.trim() || complete.isPending}>
              Mark loaded
            </Button>
          </div>
        </form>
      </Dialog>
    </Page>
  );
}
