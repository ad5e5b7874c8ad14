import {
  ArrowDownToLine,
  CheckCircle2,
  FileDown,
  MapPin,
  PackageCheck,
  Trash2,
  Truck,
  Undo2,
} from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import type { PullAction, PullListDto, SetAsideVaultDto } from '@domain/schemas/pull-list.schema';
import { useCancelPullList, usePullList, usePullStep, useReleasePullList } from '@/api/pull-lists';
import { useRole, useSession } from '@/api/session';
import { RoleHint } from '@/components/ui/role-hint';
import { useWarehouses } from '@/api/warehouses';
import { cell, DataTable } from '@/components/ui/data-table';
import { Button, buttonClass } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { QueryFailed } from '@/components/ui/error-list';
import { Page } from '@/components/ui/page';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { errorMessages } from '@/lib/api-client';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useIdParam } from '@/lib/use-id-param';
import { PutBackDialog, type PickedSlot } from '../components/put-back-dialog';
import { downloadPickSheet } from '../pick-sheet';
import { useFormat } from '@/lib/format';
import { HoldBadge, useIsHeld } from '@/components/billing/hold-badge';
import { type HoldOverrideRequest, HoldOverrideDialog } from '@/components/billing/hold-override-dialog';
import { handlingsText } from '../handlings';

const STATE_LABEL = { 'in-field': 'In field', 'on-stage': 'On stage', released: 'Released' } as const;

/**
 * One pull list as a checklist for the tablet: the plan's fields in walking order, each step a button that makes the
 * real change (stage the customer's vault, set aside one in the way), then the put-backs and the release. The list is
 * the server's, so it survives a reload, and other tablets see each step live.
 */
export default function PullListPage() {
  const listId = useIdParam();
  const list = usePullList(listId);
  useDocumentTitle(list.data?.title ?? 'Pull list');
  if (listId === null) return <Page title="Pull list">This pull list does not exist.</Page>;
  if (list.isPending) return <Spinner />;
  if (list.isError)
    return (
      <Page title="Pull list">
        <QueryFailed query={list} />
      </Page>
    );
  return <PullListView list={list.data} />;
}

function PullListView({ list }: { list: PullListDto }) {
  const step = usePullStep(list.id);
  const release = useReleasePullList(list.id);
  const [confirmRelease, setConfirmRelease] = useState(false);
  const cancel = useCancelPullList(list.id);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const navigate = useNavigate();
  const [busyVault, setBusyVault] = useState<number | null>(null);
  const [puttingElsewhere, setPuttingElsewhere] = useState<SetAsideVaultDto | null>(null);
  const [elsewhereError, setElsewhereError] = useState<unknown>(null);
  const session = useSession();
  const warehouses = useWarehouses(session.data?.companyId);
  const format = useFormat();
  const waiting = list.set_aside.filter((v) => v.state === 'set-aside');
  const released = list.released_at !== null;
  const allPulled = list.vaults.every((v) => v.state !== 'in-field');

  // the hold hook (decision 039): a Manager gives a reason before a held vault is pulled or the list released;
  // anyone else sends the step as it is and the server says why it is refused
  const isHeld = useIsHeld();
  const { can } = useRole();
  // the steps, the cancel and the release are floor work: a member without the Floor role reads the list only
  const floor = can('floor');
  const [override, setOverride] = useState<HoldOverrideRequest | null>(null);
  const [overrideError, setOverrideError] = useState<unknown>(null);
  function askOverride(what: string, send: (reason: string) => void) {
    setOverrideError(null);
    setOverride({ what, send });
  }

  function doStep(vaultId: number, action: PullAction, overrideReason?: string) {
    if (action === 'pulled' && overrideReason === undefined && isHeld(vaultId) && can('manager')) {
      const name = list.vaults.find((v) => v.id === vaultId)?.name ?? 'this vault';
      askOverride(`pull ${name}`, (reason) => doStep(vaultId, action, reason));
      return;
    }
    setBusyVault(vaultId);
    step.mutate(
      { vault_id: vaultId, action, ...(overrideReason ? { override_reason: overrideReason } : {}) },
      {
        onSuccess: () => {
          if (overrideReason) {
            setOverride(null);
            toast.success('Hold overridden: the reason is kept in the history.');
          }
        },
        onError: (error) =>
          overrideReason ? setOverrideError(error) : toast.error(errorMessages(error).join(' ')),
        onSettled: () => setBusyVault(null),
      },
    );
  }

  function putBackElsewhere(vault: SetAsideVaultDto, slot: PickedSlot) {
    setBusyVault(vault.vault_id);
    setElsewhereError(null);
    step.mutate(
      { vault_id: vault.vault_id, action: 'put-back', field_id: slot.fieldId, position: slot.position },
      {
        onSuccess: () => {
          setPuttingElsewhere(null);
          toast.success(`${vault.name ?? vault.customer_name} put back to ${slot.label}`);
        },
        // the dialog stays open with the server's reason (a slot taken meanwhile, a field marked full)
        onError: (error) => setElsewhereError(error),
        onSettled: () => setBusyVault(null),
      },
    );
  }

  function doRelease(overrideReason?: string) {
    if (overrideReason === undefined && can('manager') && list.vaults.some((v) => isHeld(v.id))) {
      setConfirmRelease(false);
      askOverride(`release ${format.count(list.vaults.length, 'vault')}`, (reason) => doRelease(reason));
      return;
    }
    release.mutate(overrideReason, {
      onSuccess: () => {
        setOverride(null);
        toast.success(`${format.count(list.vaults.length, 'vault')} released`);
      },
      onError: (error) =>
        overrideReason ? setOverrideError(error) : toast.error(errorMessages(error).join(' ')),
      onSettled: () => setConfirmRelease(false),
    });
  }

  function doCancel() {
    cancel.mutate(undefined, {
      onSuccess: () => {
        toast.success(`Pull list ${list.title} cancelled`);
        void navigate(paths.pullLists);
      },
      onError: (error) => toast.error(errorMessages(error).join(' ')),
      onSettled: () => setConfirmCancel(false),
    });
  }

  // the server refuses to cancel while a vault set aside still waits on the stage; the button says so first
  const cancelBlocked = waiting.length > 0 ? 'Put back the vaults set aside first.' : undefined;

  // a disabled Release says why, on screen and to a screen reader
  const releaseBlocked = !allPulled
    ? 'Pull every vault first.'
    : waiting.length > 0
      ? 'Put back the vaults set aside first.'
      : undefined;

  return (
    <Page
      title={list.title}
      actions={
        <div className="flex flex-wrap gap-2">
          {list.request_id != null && !released && (
            <Link to={paths.loadOut(list.request_id)} className={buttonClass('primary')}>
              <Truck className="h-4 w-4" aria-hidden />
              Load-out check
            </Link>
          )}
          <Button variant="secondary" onClick={() => void downloadPickSheet(list)}>
            <FileDown className="h-4 w-4" aria-hidden />
            Pick sheet (PDF)
          </Button>
          {!released && list.request_id == null && (
            <Button
              variant="secondary"
              onClick={() => setConfirmCancel(true)}
              disabled={!floor || !!cancelBlocked}
              title={cancelBlocked}
            >
              <Trash2 className="h-4 w-4" aria-hidden />
              Cancel list
            </Button>
          )}
          {!released && list.request_id == null && (
            <div className="flex flex-col items-end gap-1">
              <Button
                variant="danger"
                onClick={() => setConfirmRelease(true)}
                disabled={!floor || !!releaseBlocked}
                title={releaseBlocked}
                aria-describedby={releaseBlocked ? 'release-why' : undefined}
              >
                <PackageCheck className="h-4 w-4" aria-hidden />
                Release
              </Button>
              {releaseBlocked && (
                <p id="release-why" className="text-xs text-slate-600">
                  {releaseBlocked}
                </p>
              )}
            </div>
          )}
        </div>
      }
    >
      <p className="mb-4 text-sm text-slate-600">
        <Link to={paths.pullLists} className="text-accent underline">
          All pull lists
        </Link>
        {' · '}
        {format.count(list.vaults.length, 'vault')} · made {format.dateTime(list.created_at)}
        {list.created_by ? ` by ${list.created_by}` : ''}
        {released && (
          <span data-testid="released-note">
            {' · '}released {format.dateTime(list.released_at!)}
            {list.released_by ? ` by ${list.released_by}` : ''}
          </span>
        )}
      </p>

      {!released && (
        <section aria-label="Plan" className="mb-6">
          <h2 className="mb-2 text-lg font-semibold text-primary">Plan</h2>
          <p className="mb-3 text-sm text-slate-600" data-testid="handlings">
            {handlingsText(list, format.count)}
          </p>
          {!floor && (
            <div className="mb-3">
              <RoleHint needed="floor">
                Taking the steps of a pull list is floor work: a member with the Floor role or a Manager does
                it.
              </RoleHint>
            </div>
          )}
          <ol className="space-y-3">
            {list.plan.map((field) => (
              <li
                key={field.field_id}
                className="rounded-2xl border border-slate-200 bg-white shadow-sm"
                aria-label={`Field ${field.field_name}`}
              >
                <p className="border-b border-slate-100 px-4 py-2 font-semibold text-slate-800">
                  {field.warehouse_name} · field {field.field_name}
                </p>
                <ol className="divide-y divide-slate-100">
                  {field.steps.map((s, index) => {
                    const mine = s.role === 'pull';
                    const next = index === 0;
                    return (
                      <li key={s.vault_id} className="flex min-h-14 flex-wrap items-center gap-3 px-4 py-2">
                        <span className="w-12 text-xs text-slate-500">pos {s.position}</span>
                        {/* the badges go under the vault, so a phone's narrow row keeps room for its name */}
                        <span className="min-w-0 flex-1">
                          <span className="block font-medium break-words text-slate-800">
                            {s.name ?? 'No vault number'}
                          </span>
                          <span className="block text-xs break-words text-slate-500">{s.customer_name}</span>
                          <span className="mt-1 flex flex-wrap items-center gap-1">
                            <span
                              className={`rounded-full px-2 py-0.5 text-xs font-semibold ${mine ? 'bg-blue-50 text-accent' : 'bg-amber-50 text-amber-800'}`}
                            >
                              {mine ? "Customer's" : 'In the way'}
                            </span>
                            <HoldBadge vaultId={s.vault_id} />
                          </span>
                        </span>
                        <Button
                          variant={mine ? 'primary' : 'secondary'}
                          disabled={!floor || !next || busyVault !== null}
                          title={next ? undefined : 'Take the vaults in front of it out first'}
                          onClick={() => doStep(s.vault_id, mine ? 'pulled' : 'set-aside')}
                          aria-label={`${mine ? 'Pulled' : 'Set aside'} ${s.name ?? s.customer_name}`}
                        >
                          {mine ? (
                            <CheckCircle2 className="h-4 w-4" aria-hidden />
                          ) : (
                            <ArrowDownToLine className="h-4 w-4" aria-hidden />
                          )}
                          {mine ? 'Pulled' : 'Set aside'}
                        </Button>
                      </li>
                    );
                  })}
                </ol>
              </li>
            ))}
          </ol>
        </section>
      )}

      {waiting.length > 0 && (
        <section aria-label="Put back" className="mb-6">
          <h2 className="mb-2 text-lg font-semibold text-primary">Put back</h2>
          <p className="mb-2 text-sm text-slate-600">
            In this order: last off, first back, so each stack keeps its order.
          </p>
          <ul className="divide-y divide-slate-100 rounded-2xl border border-slate-200 bg-white shadow-sm">
            {waiting.map((v) => (
              <li key={v.vault_id} className="flex min-h-14 flex-wrap items-center gap-3 px-4 py-2">
                <span className="min-w-0 flex-1">
                  <span className="block font-medium text-slate-800">{v.name ?? 'No vault number'}</span>
                  <span className="block text-xs text-slate-500">
                    {v.customer_name} · from {v.from_warehouse_name} {v.from_field_name}
                  </span>
                </span>
                <Button
                  variant="secondary"
                  disabled={!floor || busyVault !== null}
                  onClick={() => doStep(v.vault_id, 'put-back')}
                  aria-label={`Put back ${v.name ?? v.customer_name}`}
                >
                  <Undo2 className="h-4 w-4" aria-hidden />
                  Put back to {v.from_field_name}
                </Button>
                <Button
                  variant="secondary"
                  disabled={!floor || busyVault !== null}
                  onClick={() => {
                    setElsewhereError(null);
                    setPuttingElsewhere(v);
                  }}
                  aria-label={`Put back ${v.name ?? v.customer_name} elsewhere`}
                >
                  <MapPin className="h-4 w-4" aria-hidden />
                  Elsewhere
                </Button>
              </li>
            ))}
          </ul>
        </section>
      )}

      <section aria-label="Vaults of the list">
        <h2 className="mb-2 text-lg font-semibold text-primary">Vaults</h2>
        <DataTable
          caption="Vaults of the list"
          head={['Vault', 'Customer', 'Order', 'Where', 'Dig out', 'State']}
        >
          {list.vaults.map((v) => (
            <tr key={v.id} data-testid="pull-vault">
              <td className={`${cell} font-medium`}>
                {v.name ?? '-'} {v.state !== 'released' && <HoldBadge vaultId={v.id} compact />}
              </td>
              <td className={cell}>{v.customer_name}</td>
              <td className={cell}>{v.order_name ?? '-'}</td>
              <td className={cell}>
                {v.field_name ? `${v.warehouse_name} ${v.field_name}, pos ${v.position}` : '-'}
              </td>
              <td className={`${cell} tabular-nums`}>{v.dig_out ?? '-'}</td>
              <td className={cell}>
                {STATE_LABEL[v.state]}
                {v.state === 'released' && v.released_by ? ` by ${v.released_by}` : ''}
              </td>
            </tr>
          ))}
        </DataTable>
      </section>

      <PutBackDialog
        vault={puttingElsewhere}
        warehouses={warehouses.data ?? []}
        pending={step.isPending}
        error={elsewhereError}
        onOpenChange={(open) => {
          if (!open && !step.isPending) setPuttingElsewhere(null);
        }}
        onPick={(slot) => puttingElsewhere && putBackElsewhere(puttingElsewhere, slot)}
      />
      <HoldOverrideDialog
        request={override}
        pending={step.isPending || release.isPending}
        error={overrideError}
        onOpenChange={(open) => {
          if (!open && !step.isPending && !release.isPending) setOverride(null);
        }}
      />
      <ConfirmDialog
        open={confirmRelease}
        onOpenChange={(open) => {
          if (!open && !release.isPending) setConfirmRelease(false);
        }}
        title="Release vaults"
        message={`Release ${list.vaults.length === 1 ? 'the 1 vault' : `all ${format.count(list.vaults.length, 'vault')}`} of ${list.title}? They leave the warehouse and stay in history.`}
        confirmLabel="Yes, release them"
        cancelLabel="No, take me back"
        onConfirm={() => doRelease()}
        pending={release.isPending}
        danger
      />
      <ConfirmDialog
        open={confirmCancel}
        onOpenChange={(open) => {
          if (!open && !cancel.isPending) setConfirmCancel(false);
        }}
        title="Cancel pull list"
        message={`Cancel ${list.title}? The list is removed; vaults already pulled stay on the stage, and its steps stay in history.`}
        confirmLabel="Yes, cancel the list"
        cancelLabel="No, keep it"
        onConfirm={doCancel}
        pending={cancel.isPending}
        danger
      />
    </Page>
  );
}
