import { Ban, CheckCircle2, CloudOff, FileDown, RotateCcw, Search, ScanSearch, Truck } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import type { CheckDto, CheckFieldDto, CheckVaultDto } from '@domain/schemas/check.schema';
import {
  checkScope,
  useCancelCheck,
  useCheck,
  useCheckScan,
  useFinishCheck,
  useRecountField,
  useResolveDiscrepancy,
} from '@/api/checks';
import { useRole } from '@/api/session';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorList, QueryFailed } from '@/components/ui/error-list';
import { Page } from '@/components/ui/page';
import { ProgressBar } from '@/components/ui/progress-bar';
import { RoleHint } from '@/components/ui/role-hint';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { downloadFile, errorMessages } from '@/lib/api-client';
import { formatCount, useFormat } from '@/lib/format';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useIdParam } from '@/lib/use-id-param';
import { floorOutbox, useQueuedFor } from '@/lib/outbox/floor-outbox';
import {
  fieldOpenedBy,
  markLeft,
  notCounted,
  queuedScanCaption,
  queuedScanOf,
  type UnsureScan,
  vaultTitle,
  type WaitedScan,
  waitedScanLine,
  withQueuedScans,
} from '../check-figures';
import { CameraReader, CameraToggle } from '../components/camera-reader';
import { ScanTextForm } from '../components/scan-text-form';
import { CHECKS_ARE_FLOOR_WORK } from '../floor-work';
import { readFeedback } from '../read-feedback';
import { createReadGate, type NotedScan, noteScan } from '../read-gate';
import { useScanClaim } from '../scan-claim';

/** One warehouse check: scanning while it runs (live for everyone on it), its report once finished. */
export default function CheckPage() {
  const checkId = useIdParam();
  const check = useCheck(checkId);
  useDocumentTitle(check.data ? `Check ${check.data.id}: ${check.data.warehouse_name}` : 'Warehouse check');

  if (checkId === null) return <Missing />;
  if (check.isPending) return <Spinner />;
  if (check.isError)
    return (
      <Page title="Warehouse check">
        <QueryFailed query={check} />
      </Page>
    );
  const closed = check.data.finished_at || check.data.cancelled_at || check.data.warehouse_deleted_at;
  return closed ? <Report check={check.data} /> : <Running check={check.data} readAt={check.dataUpdatedAt} />;
}

function Missing() {
  return (
    <Page title="Warehouse check">
      <EmptyState icon={ScanSearch} title="No such check">
        <Link to={paths.checks} className="font-semibold text-accent underline">
          Back to the checks
        </Link>
      </EmptyState>
    </Page>
  );
}

function Heading({ check }: { check: CheckDto }) {
  const format = useFormat();
  return (
    <p className="mb-4 text-sm text-slate-600">
      Started by {check.started_by ?? '?'} on {format.dateTime(check.started_at)}
      {check.finished_at &&
        `, finished by ${check.finished_by ?? '?'} on ${format.dateTime(check.finished_at)}`}
      {check.cancelled_at &&
        `, cancelled by ${check.cancelled_by ?? '?'} on ${format.dateTime(check.cancelled_at)}`}
      {check.warehouse_deleted_at &&
        `. The warehouse was deleted on ${format.dateTime(check.warehouse_deleted_at)}; this report is kept as it stood.`}
      . {formatCount(check.fields.length, 'field')}.{' '}
      <Link to={paths.checks} className="font-semibold text-accent underline">
        All checks
      </Link>
    </p>
  );
}

/** `readAt`: when the check was last read from the server (the lines of scans that waited follow its answer). */
function Running({ check: answered, readAt }: { check: CheckDto; readAt: number }) {
  const { can } = useRole();
  // this tablet's scans of this check that have not reached the server (issue 30): counted in at once, marked not
  // synced; the check waits for them
  const queued = useQueuedFor(checkScope(answered.id));
  const shown = useMemo(
    () =>
      withQueuedScans(
        answered,
        queued.map((intent) => queuedScanOf(intent.body, intent.state === 'attention')),
      ),
    [answered, queued],
  );
  const check = shown.check;
  const scan = useCheckScan(check.id);
  const finish = useFinishCheck(check.id);
  const cancel = useCancelCheck(check.id);
  const recount = useRecountField(check.id);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [confirmRecount, setConfirmRecount] = useState<CheckFieldDto | null>(null);
  // one read reaches this page by two ways (the camera's callback and the page's scan claim): it counts once
  const readGate = useRef(createReadGate());
  const [current, setCurrent] = useState<number | null>(null);
  const [camera, setCamera] = useState(false);
  const [last, setLast] = useState<readonly NotedScan<WaitedScan>[]>([]);
  const [confirmFinish, setConfirmFinish] = useState(false);
  const field = check.fields.find((f) => f.id === current) ?? null;
  const floor = can('floor');

  const finishBlocked =
    queued.length > 0
      ? `${formatCount(queued.length, 'scan')} of this check ${queued.length === 1 ? 'waits' : 'wait'} on this device: finish once ${queued.length === 1 ? 'it has' : 'they have'} reached the server.`
      : undefined;

  const unchecked = check.fields.filter((f) => !f.checked);
  const note = (said: string, ok: boolean, waited?: WaitedScan) =>
    setLast((list) => noteScan(list, said, ok, 6, waited));
  // a scan that waited on this device says what came of it once it has left the outbox and the check is read again
  useEffect(
    () =>
      floorOutbox.subscribe(() => {
        const kept = new Set(floorOutbox.list().map((intent) => intent.key));
        const now = Date.now();
        setLast((list) => markLeft(list, kept, now));
      }),
    [],
  );

  // a scanned or typed text, or (`vault_id`) a vault counted by hand: one with no number or label to scan
  const send = (input: { text: string } | { vault_id: number }, fieldId: number | null) => {
    const text = 'text' in input ? input.text : '';
    const vaultId = 'vault_id' in input ? input.vault_id : undefined;
    const caption = queuedScanCaption(check, text, vaultId);
    scan.mutate(
      { ...input, ...(fieldId === null ? {} : { field_id: fieldId }), caption },
      {
        onSuccess: (sent) => {
          readFeedback(true);
          if (sent.queued) {
            // no answer: the scan waits on this tablet; a field's label or name opens that field here at once
            const one = { text, vaultId, fieldId: fieldId ?? undefined, refused: false };
            const key = sent.intent.key;
            // (sent already, if the connection came back before this answer)
            const leftAt = floorOutbox.list().some((intent) => intent.key === key) ? undefined : Date.now();
            const waited: WaitedScan = { key, scan: one, caption, leftAt };
            const opened =
              vaultId === undefined ? fieldOpenedBy(check, text, fieldId ?? undefined) : undefined;
            if (opened) {
              setCurrent(opened.id);
              note(`Checking field ${opened.name} (not synced yet)`, true, waited);
            } else {
              // a scan the tablet cannot place (a label it does not know, a vault expected elsewhere) is not counted
              const unsure = withQueuedScans(check, [one]).unsure.size > 0;
              note(
                unsure
                  ? `${caption}: not synced, unexpected? The server decides`
                  : `${caption}: counted on this device, not synced yet`,
                true,
                waited,
              );
            }
            return;
          }
          const answer = sent.answer;
          if (answer.kind === 'field') {
            setCurrent(answer.field_id);
            note(`Checking field ${answer.field_name}`, true);
            return;
          }
          const name = vaultTitle(answer.vault);
          note(
            answer.result === 'found'
              ? `${name}: found`
              : answer.result === 'again'
                ? `${name}: already counted`
                : `${name}: not expected here`,
            answer.result !== 'unexpected',
          );
        },
        onError: (error) => {
          readFeedback(false);
          // the reasons stand in its line, once, and stay there after the next scan
          note(notCounted(caption, errorMessages(error)), false);
        },
      },
    );
  };
  const handle = (raw: string, fieldId: number | null = current) => {
    const text = raw.trim();
    if (!text || !floor) return;
    if (!readGate.current(text, Date.now())) return;
    send({ text }, fieldId);
  };
  const countByHand = floor
    ? (vault: CheckVaultDto, fieldId: number) => send({ vault_id: vault.id }, fieldId)
    : undefined;
  useScanClaim((text) => handle(text));

  return (
    <Page
      title={`Check ${check.id}: ${check.warehouse_name}`}
      actions={
        floor && (
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" className="min-h-12" onClick={() => setConfirmCancel(true)}>
              <Ban className="h-5 w-5" aria-hidden /> Cancel check
            </Button>
            <Button
              className="min-h-12"
              onClick={() => setConfirmFinish(true)}
              disabled={finishBlocked !== undefined}
              aria-describedby={finishBlocked ? 'finish-blocked' : undefined}
            >
              <CheckCircle2 className="h-5 w-5" aria-hidden /> Finish check
            </Button>
            {finishBlocked && (
              <p id="finish-blocked" className="w-full text-sm text-amber-800" data-testid="finish-blocked">
                {finishBlocked}
              </p>
            )}
          </div>
        )
      }
    >
      <Heading check={check} />
      <div className="mb-4" data-testid="check-progress">
        <ProgressBar
          label={`${check.checked_count} of ${formatCount(check.field_count, 'field')} checked`}
          percent={check.field_count === 0 ? 0 : (100 * check.checked_count) / check.field_count}
        />
      </div>
      {floor ? (
        <section
          aria-label="Scanning"
          className="mb-6 space-y-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm"
        >
          <p className="text-lg font-semibold text-slate-800" role="status" data-testid="current-field">
            {field
              ? `Checking field ${field.name}: scan its vaults.`
              : 'Scan a field label, or pick a field below.'}
          </p>
          <div className="flex flex-wrap gap-2">
            <CameraToggle on={camera} onToggle={() => setCamera((on) => !on)} className="min-h-12" />
          </div>
          {camera && <CameraReader onRead={(text) => handle(text)} />}
          <ScanTextForm
            id="check-scan-text"
            placeholder={field ? 'Vault number' : 'Field, e.g. B4'}
            button="Enter"
            disabled={scan.isPending}
            onText={(text) => handle(text)}
          />
          {queued.length > 0 && (
            <div
              className="rounded-xl border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
              data-testid="not-synced"
            >
              <p className="flex items-center gap-2 font-semibold">
                <CloudOff className="h-5 w-5" aria-hidden />
                Not synced: {formatCount(queued.length, 'scan')} on this device
              </p>
              <ol aria-label="Scans not synced" className="mt-1 list-inside list-decimal">
                {queued.map((intent) => (
                  <li key={intent.key}>
                    {queuedScanCaption(
                      check,
                      String(intent.body.text ?? ''),
                      queuedScanOf(intent.body, false).vaultId,
                    )}
                    {intent.state === 'attention' && ' (refused: see the changes not synced)'}
                  </li>
                ))}
              </ol>
            </div>
          )}
          {/* there from the start, so each noted scan is read out (a refusal's reasons are only here); empty, it
              takes back the gap above it */}
          <ol aria-label="Last scans" aria-live="polite" className="space-y-1 text-base empty:-mt-3">
            {last.map((s) => {
              const line = s.waited
                ? waitedScanLine(
                    answered,
                    { ...s, waited: s.waited },
                    queued.find((intent) => intent.key === s.waited?.key),
                    readAt,
                  )
                : s;
              return (
                <li key={s.key} className={line.ok ? 'text-green-800' : 'text-red-700'}>
                  {line.said}
                </li>
              );
            })}
          </ol>
        </section>
      ) : (
        <div className="mb-6">
          <RoleHint needed="floor">{CHECKS_ARE_FLOOR_WORK}</RoleHint>
        </div>
      )}
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" aria-label="Fields of the check">
        {check.fields.map((f) => (
          <li key={f.id}>
            <FieldTile
              field={f}
              notSynced={f.found.filter((v) => shown.notSynced.has(v.id)).length}
              unsure={shown.unsure.get(f.id)?.length ?? 0}
              selected={f.id === current}
              onPick={floor ? () => handle(f.name, null) : () => setCurrent(f.id)}
            />
          </li>
        ))}
      </ul>
      {field && (
        <FieldDetail
          field={field}
          notSynced={shown.notSynced}
          unsure={shown.unsure.get(field.id) ?? []}
          onRecount={floor && field.checked ? () => setConfirmRecount(field) : undefined}
          onCountByHand={countByHand && ((vault) => countByHand(vault, field.id))}
          pending={scan.isPending}
        />
      )}
      <ConfirmDialog
        open={confirmRecount !== null}
        onOpenChange={(open) => !open && setConfirmRecount(null)}
        title={`Count field ${confirmRecount?.name ?? ''} again?`}
        message="What was scanned in this field is cleared; it shows as not checked until its label is scanned again."
        confirmLabel="Count again"
        pending={recount.isPending}
        onConfirm={() =>
          confirmRecount &&
          recount.mutate(confirmRecount.id, {
            onSuccess: () => {
              toast.success(`Field ${confirmRecount.name} cleared: scan it again.`);
              setConfirmRecount(null);
            },
            onError: (error) => {
              setConfirmRecount(null);
              toast.error(errorMessages(error).join(' '));
            },
          })
        }
      />
      <ConfirmDialog
        open={confirmCancel}
        onOpenChange={setConfirmCancel}
        title="Cancel this check?"
        message="Nothing is reported missing and nobody can scan into it any more. The history keeps that you cancelled it."
        confirmLabel="Cancel check"
        cancelLabel="Keep checking"
        pending={cancel.isPending}
        onConfirm={() =>
          void cancel.mutateAsync().then(
            () => toast.success(`Check ${check.id} cancelled.`),
            (error: unknown) => {
              setConfirmCancel(false);
              toast.error(errorMessages(error).join(' '));
            },
          )
        }
      />
      <ConfirmDialog
        open={confirmFinish}
        onOpenChange={setConfirmFinish}
        title={
          unchecked.length > 0
            ? `${formatCount(unchecked.length, 'field')} ${unchecked.length === 1 ? 'is' : 'are'} not checked yet`
            : 'Finish this check?'
        }
        message={
          unchecked.length > 0
            ? `Not checked: ${unchecked
                .slice(0, 12)
                .map((f) => f.name)
                .join(
                  ', ',
                )}${unchecked.length > 12 ? ' ...' : ''}. The report lists their vaults as not checked, not as missing. Finish anyway? Nobody can scan into this check afterwards.`
            : 'The report is saved with every discrepancy. Nobody can scan into this check afterwards.'
        }
        confirmLabel={unchecked.length > 0 ? 'Finish anyway' : 'Finish check'}
        pending={finish.isPending}
        onConfirm={() =>
          // the page turns into the report as soon as the answer is in, so the toast waits on the promise, not on
          // this component's callbacks (they end with it)
          void finish.mutateAsync().then(
            (report) =>
              toast.success(
                report.discrepancies === 0
                  ? 'Check finished: everything was where expected.'
                  : `Check finished with ${report.discrepancies} ${report.discrepancies === 1 ? 'discrepancy' : 'discrepancies'}.`,
              ),
            (error: unknown) => {
              setConfirmFinish(false);
              toast.error(errorMessages(error).join(' '));
            },
          )
        }
      />
    </Page>
  );
}

function FieldTile({
  field,
  notSynced = 0,
  unsure = 0,
  selected,
  onPick,
}: {
  field: CheckFieldDto;
  /** of the found, how many were counted on this tablet only */
  notSynced?: number;
  /** waiting scans the server will place */
  unsure?: number;
  selected: boolean;
  onPick: () => void;
}) {
  const empty = field.expected === 0 && field.unexpected.length === 0;
  const state: { text: string; className?: string }[] = !field.checked
    ? [
        {
          text: `Not checked yet · ${field.expected === 0 ? 'nothing expected' : `${field.expected} expected`}`,
        },
      ]
    : empty
      ? [{ text: 'Checked · empty, as expected' }]
      : [
          { text: `Found ${field.found.length} of ${field.expected}` },
          ...(field.missing.length > 0
            ? [{ text: `Not found yet ${field.missing.length}`, className: 'font-semibold text-amber-800' }]
            : []),
          ...(field.unexpected.length > 0
            ? [{ text: `Unexpected ${field.unexpected.length}`, className: 'font-semibold text-red-700' }]
            : []),
        ];
  const waiting = [
    notSynced > 0 && `${notSynced} found not synced`,
    unsure > 0 && `${unsure} not synced, unexpected?`,
  ]
    .filter(Boolean)
    .join(' · ');
  // its name in words apart ("A1, by ann, Found 1 of 2 · Not found yet 1"): on screen the lines part them
  const name = [
    field.name,
    field.opened_by && `by ${field.opened_by}`,
    state.map((part) => part.text).join(' · '),
    waiting,
  ]
    .filter(Boolean)
    .join(', ');
  return (
    <button
      type="button"
      onClick={onPick}
      aria-pressed={selected}
      aria-label={name}
      data-testid={`check-field-${field.name}`}
      className={`flex min-h-20 w-full flex-col items-start gap-1 rounded-2xl border-2 p-3 text-left shadow-sm focus-visible:outline-2 focus-visible:outline-accent ${
        selected ? 'border-accent bg-blue-50' : 'border-slate-200 bg-white hover:bg-slate-50'
      }`}
    >
      {/* the spaces between the parts stand in the text too, where the name's words are checked against it */}
      <span className="text-xl font-bold text-slate-800">
        {field.name}
        {field.opened_by && (
          <>
            {' '}
            <span className="ml-1 text-sm font-normal text-slate-500">by {field.opened_by}</span>
          </>
        )}
      </span>{' '}
      <span
        className={`text-sm ${!field.checked ? 'text-slate-600' : empty ? 'text-green-800' : 'text-slate-700'}`}
        data-testid="field-state"
      >
        {state.map((part, index) => (
          <span key={part.text} className={part.className}>
            {index > 0 && ' · '}
            {part.text}
          </span>
        ))}
      </span>{' '}
      {waiting && (
        <span
          className="flex items-center gap-1 text-sm font-semibold text-amber-800"
          data-testid="field-not-synced"
        >
          <CloudOff className="h-4 w-4" aria-hidden />
          {waiting}
        </span>
      )}
    </button>
  );
}

function VaultList({
  title,
  vaults,
  testId,
  notSynced,
  unsure = [],
  countByHand,
}: {
  title: string;
  vaults: CheckVaultDto[];
  testId: string;
  /** vaults counted on this tablet only, marked so */
  notSynced?: ReadonlySet<number>;
  /** waiting scans the server will place, listed after the vaults and not counted */
  unsure?: UnsureScan[];
  /** offered for a vault with no number or label to scan (an EMPTY placeholder): it is counted as found by hand */
  countByHand?: { onCount: (vault: CheckVaultDto) => void; pending: boolean };
}) {
  return (
    <section aria-label={title} data-testid={testId}>
      <h3 className="mb-1 font-semibold text-slate-800">
        {title} ({vaults.length})
      </h3>
      {vaults.length === 0 && unsure.length === 0 ? (
        <p className="text-sm text-slate-500">None</p>
      ) : (
        <ul className="space-y-1 text-sm">
          {vaults.map((v) => (
            <li key={v.id} className="flex flex-wrap items-center gap-x-1 gap-y-2">
              <strong>{vaultTitle(v)}</strong> <span className="text-slate-600">{v.customer_name}</span>
              {countByHand && v.name === null && (
                <Button
                  variant="secondary"
                  className="ml-2 min-h-11"
                  disabled={countByHand.pending}
                  onClick={() => countByHand.onCount(v)}
                  aria-label={`Found: ${vaultTitle(v)}`}
                >
                  <CheckCircle2 className="h-4 w-4" aria-hidden /> Found
                </Button>
              )}
              {notSynced?.has(v.id) && (
                <span className="ml-1 font-semibold text-amber-800" data-testid="not-synced-vault">
                  · not synced
                </span>
              )}
            </li>
          ))}
          {unsure.map((u) => (
            <li key={u.text} data-testid="unsure-scan">
              <strong className="break-words">{u.vault ? vaultTitle(u.vault) : u.caption}</strong>{' '}
              <span className="font-semibold text-amber-800">· not synced, unexpected?</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function FieldDetail({
  field,
  notSynced,
  unsure = [],
  onRecount,
  onCountByHand,
  pending = false,
}: {
  field: CheckFieldDto;
  notSynced?: ReadonlySet<number>;
  unsure?: UnsureScan[];
  onRecount?: () => void;
  /** counts a vault with no number or label to scan as found here */
  onCountByHand?: (vault: CheckVaultDto) => void;
  pending?: boolean;
}) {
  const byHand = onCountByHand && { onCount: onCountByHand, pending };
  return (
    <section
      aria-label={`Field ${field.name}`}
      className="mt-6 grid gap-4 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-3"
    >
      <h2 className="text-lg font-semibold text-slate-800 sm:col-span-3">Field {field.name}</h2>
      {field.checked ? (
        <>
          <VaultList title="Found" vaults={field.found} testId="field-found" notSynced={notSynced} />
          <VaultList
            title="Not found yet"
            vaults={field.missing}
            testId="field-missing"
            countByHand={byHand}
          />
          <VaultList title="Unexpected" vaults={field.unexpected} testId="field-unexpected" unsure={unsure} />
        </>
      ) : (
        <VaultList
          title="Expected here, not checked yet"
          vaults={field.not_checked}
          testId="field-not-checked"
          countByHand={byHand}
        />
      )}
      {onRecount && (
        <div className="sm:col-span-3">
          <Button variant="secondary" className="min-h-12" onClick={onRecount}>
            <RotateCcw className="h-5 w-5" aria-hidden /> Count {field.name} again
          </Button>
        </div>
      )}
    </section>
  );
}

interface Discrepancy {
  field: string;
  vault: CheckVaultDto;
}

function discrepanciesOf(check: CheckDto): Discrepancy[] {
  return check.fields.flatMap((f) => [
    ...f.missing.filter((v) => v.found_field_id === null).map((vault) => ({ field: f.name, vault })),
    ...f.unexpected.map((vault) => ({ field: f.name, vault })),
  ]);
}

function Report({ check }: { check: CheckDto }) {
  const { can } = useRole();
  const resolve = useResolveDiscrepancy(check.id);
  const [confirmMove, setConfirmMove] = useState<Discrepancy | null>(null);
  const [downloadErrors, setDownloadErrors] = useState<string[]>([]);
  const discrepancies = discrepanciesOf(check);
  const floor = can('floor');

  const download = (kind: 'csv' | 'pdf') => {
    setDownloadErrors([]);
    // the PDF prints times in this browser's time zone
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const query = kind === 'pdf' && zone ? `?tz=${encodeURIComponent(zone)}` : '';
    downloadFile(
      `/api/checks/${check.id}/report.${kind}${query}`,
      `warehouse-check-${check.id}.${kind}`,
    ).catch((error: unknown) => setDownloadErrors(errorMessages(error)));
  };
  const doResolve = (d: Discrepancy, action: 'moved' | 'searched') =>
    resolve.mutate(
      { vault_id: d.vault.id, action },
      {
        onSuccess: () => {
          setConfirmMove(null);
          toast.success(
            action === 'moved'
              ? `Vault ${vaultTitle(d.vault)} moved into field ${d.field}.`
              : `Vault ${vaultTitle(d.vault)} marked as searched for.`,
          );
        },
        onError: (error) => {
          setConfirmMove(null);
          toast.error(errorMessages(error).join(' '));
        },
      },
    );

  return (
    <Page
      title={`Check ${check.id}: ${check.warehouse_name}`}
      actions={
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" className="min-h-12" onClick={() => download('csv')}>
            <FileDown className="h-5 w-5" aria-hidden /> CSV
          </Button>
          <Button variant="secondary" className="min-h-12" onClick={() => download('pdf')}>
            <FileDown className="h-5 w-5" aria-hidden /> PDF
          </Button>
        </div>
      }
    >
      <Heading check={check} />
      <ErrorList messages={downloadErrors} />
      <section aria-label="Fields covered" className="mb-6">
        <h2 className="mb-2 text-lg font-semibold text-slate-800">Fields covered</h2>
        <ul className="grid gap-2 text-sm sm:grid-cols-2 lg:grid-cols-3">
          {check.fields.map((f) => (
            <li key={f.id} className="rounded-xl border border-slate-200 bg-white p-3">
              <strong>{f.name}</strong>:{' '}
              {f.checked ? (
                <>
                  expected {f.expected}, found {f.found.length}, missing {f.missing.length}, unexpected{' '}
                  {f.unexpected.length} (checked by {f.opened_by ?? '?'})
                </>
              ) : (
                <span className="text-slate-600">
                  not checked ({f.expected} expected, not counted
                  {f.unexpected.length > 0 ? `; unexpected ${f.unexpected.length}` : ''})
                </span>
              )}
            </li>
          ))}
        </ul>
      </section>
      <section aria-label="Discrepancies">
        <h2 className="mb-2 text-lg font-semibold text-slate-800">
          Discrepancies ({discrepancies.length}, {check.unresolved} open)
        </h2>
        {!floor && <RoleHint needed="floor">{CHECKS_ARE_FLOOR_WORK}</RoleHint>}
        {discrepancies.length === 0 ? (
          <EmptyState icon={CheckCircle2} title="No discrepancies">
            Every vault was where it was expected.
          </EmptyState>
        ) : (
          <ul className="divide-y divide-slate-100 rounded-2xl border border-slate-200 bg-white shadow-sm">
            {discrepancies.map((d) => {
              const missing = d.vault.found_field_id === null;
              return (
                <li
                  key={d.vault.id}
                  className="flex flex-wrap items-center gap-3 px-4 py-3"
                  data-testid="discrepancy"
                >
                  <div className="min-w-56 flex-1">
                    <p className="font-semibold text-slate-800">
                      {missing ? 'Missing' : 'Unexpected'}: {vaultTitle(d.vault)}{' '}
                      <span className="font-normal text-slate-600">{d.vault.customer_name}</span>
                    </p>
                    <p className="text-sm text-slate-600">
                      {missing
                        ? `Expected in ${d.field}, not found.`
                        : `Found in ${d.field}${d.vault.expected_field_name ? `, expected in ${d.vault.expected_field_name}` : ''}.`}
                    </p>
                    {d.vault.resolution && (
                      <p className="text-sm font-semibold text-green-800" data-testid="resolution">
                        {d.vault.resolution === 'moved' ? `Moved into ${d.field}` : 'Searched for'} by{' '}
                        {d.vault.resolved_by ?? '?'}
                      </p>
                    )}
                  </div>
                  {floor && !d.vault.resolution && (
                    <Button
                      className="min-h-12"
                      variant="secondary"
                      disabled={resolve.isPending}
                      onClick={() => (missing ? doResolve(d, 'searched') : setConfirmMove(d))}
                    >
                      {missing ? (
                        <>
                          <Search className="h-5 w-5" aria-hidden /> Mark searched
                        </>
                      ) : (
                        <>
                          <Truck className="h-5 w-5" aria-hidden /> Move into {d.field}
                        </>
                      )}
                    </Button>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </section>
      <ConfirmDialog
        open={confirmMove !== null}
        onOpenChange={(open) => !open && setConfirmMove(null)}
        title="Move the vault here?"
        message={
          confirmMove
            ? `Vault ${vaultTitle(confirmMove.vault)} goes into field ${confirmMove.field}, on top of its stack.`
            : ''
        }
        confirmLabel="Move"
        pending={resolve.isPending}
        onConfirm={() => confirmMove && doResolve(confirmMove, 'moved')}
      />
    </Page>
  );
}
