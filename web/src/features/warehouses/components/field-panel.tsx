import { Forklift, Pencil } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { fieldSlotCount, isCouchboxField, topmostPosition } from '@domain/rules/capacity';
import { couchboxPartnerName, freeSlot } from '@domain/rules/slots';
import { digOutCount } from '@domain/rules/dig-out';
import { truncate } from '@domain/rules/text';
import type { FieldDto, VaultDto, WarehouseDto } from '@domain/schemas/warehouse.schema';
import { useRole } from '@/api/session';
import { useStageVault } from '@/api/stage';
import { RoleHint } from '@/components/ui/role-hint';
import { useSetFieldFull, useSetFieldType } from '@/api/warehouses';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { paths } from '@/config/paths';
import { errorMessages } from '@/lib/api-client';
import { HoldBadge } from '@/components/billing/hold-badge';
import { AddVaultDialog } from './add-vault-dialog';
import { LabelPrintDialog, PrintLabelButton } from '@/components/label-print-dialog';
import { ToggleSwitch } from '@/components/ui/toggle-switch';
import { useFloorOutbox } from '@/lib/outbox/floor-outbox';
import { queuedHolds } from '@/lib/outbox/outbox';

/** The field below holds the bottom half of a couchbox (the slot rules name it). */
function fieldBelow(warehouse: WarehouseDto, field: FieldDto): FieldDto | undefined {
  const name = couchboxPartnerName(field);
  return Object.values(warehouse.fields).find((f) => f.name === name);
}

/** Edit link of a vault: the name reads well in the address, the ids find it again after a reload. */
export function editVaultHref(vault: VaultDto, warehouseId: number): string {
  const search = new URLSearchParams({ id: String(vault.id), warehouse: String(warehouseId) });
  return `${paths.editVault(vault.name ?? String(vault.id))}?${search.toString()}`;
}

export function FieldPanel({ warehouse, field }: { warehouse: WarehouseDto; field: FieldDto }) {
  const setFieldType = useSetFieldType();
  const setFieldFull = useSetFieldFull();
  const stageVault = useStageVault();
  // the tablet's changes of these vaults that have not reached the server: marked, and no second stage meanwhile
  const outbox = useFloorOutbox();
  const pendingIntents = new Map(
    outbox.flatMap((intent) =>
      intent.vaultId === undefined ? [] : [[intent.vaultId, intent.label] as const],
    ),
  );
  // a Viewer reads; the couchbox switch changes the layout, a Manager's (the server refuses the rest anyway)
  const { can } = useRole();
  const canWork = can('floor');
  const [adding, setAdding] = useState(false);
  const [toStage, setToStage] = useState<VaultDto | null>(null);

  const couchbox = isCouchboxField(field.type);
  const capacity = fieldSlotCount(field.type, warehouse.fieldCapacity);
  const vaults = Object.values(field.vaults);
  const byPosition = new Map(vaults.filter((v) => v.position !== null).map((v) => [v.position!, v]));
  const occupied = [...byPosition.keys()];
  // vaults added or received on this tablet that have not reached the server hold their slots here meanwhile
  const queuedAdds = queuedHolds(outbox, field.id);
  const nextFree = freeSlot({ type: field.type, full: field.full, capacity: warehouse.fieldCapacity }, [
    ...occupied,
    ...queuedAdds.keys(),
  ]);
  const topmost = topmostPosition(occupied);
  const atCapacity = vaults.length >= capacity;

  const below = fieldBelow(warehouse, field);
  const pairHoldsVaults = vaults.length > 0 || (below !== undefined && Object.keys(below.vaults).length > 0);
  const belowTaken = !couchbox && below !== undefined && below.type !== 'vault';
  const typeHint = !below
    ? 'There is no field below to pair with.'
    : belowTaken
      ? `Field ${below.name} below is already part of a couchbox.`
      : pairHoldsVaults
        ? `Stage the vaults of ${field.name} and ${below.name} to change the type.`
        : `Pairs ${field.name} with ${below.name}.`;

  function changeType(toCouchbox: boolean) {
    if (!below) return;
    setFieldType.mutate(
      {
        fieldId: field.id,
        warehouseId: warehouse.id,
        type: toCouchbox ? 'couchbox' : 'vault',
        field2: below.name,
      },
      { onError: (error) => toast.error(errorMessages(error).join(' ')) },
    );
  }

  function changeFull(full: boolean) {
    setFieldFull.mutate(
      { fieldId: field.id, full },
      {
        onSuccess: () =>
          toast.success(
            full ? `Field ${field.name} marked full` : `Field ${field.name} is no longer marked full`,
          ),
        onError: (error) => toast.error(errorMessages(error).join(' ')),
      },
    );
  }

  function confirmStage() {
    if (!toStage) return;
    const label = toStage.name ?? toStage.customer_name;
    const basis = { fieldId: field.id, position: toStage.position };
    stageVault.mutate(
      { vaultId: toStage.id, basis, label: `Stage vault ${label} from ${field.name}` },
      {
        onSuccess: (sent) => {
          if (sent.queued) toast.info(`Vault ${label} staged on this device: not synced yet`);
          else toast.success(`Vault ${label} staged`);
          setToStage(null);
        },
        onError: (error) => {
          toast.error(errorMessages(error).join(' '));
          setToStage(null);
        },
      },
    );
  }

  const [printing, setPrinting] = useState(false);

  return (
    <section
      aria-label={`Field ${field.name}`}
      className="rounded-xl border border-slate-200 bg-white shadow-sm"
    >
      <header className="border-b border-slate-100 px-5 py-4">
        <p className="text-xs font-semibold tracking-wide text-slate-600 uppercase">Field</p>
        <h2 className="text-2xl font-bold text-primary">{field.name}</h2>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-sm text-slate-600">
            {vaults.length} of {capacity} slots used{couchbox ? ' (couchbox)' : ''}
          </p>
          <PrintLabelButton what={`field ${field.name}`} onClick={() => setPrinting(true)} />
        </div>
        {printing && (
          <LabelPrintDialog
            open={printing}
            onOpenChange={setPrinting}
            title={`Label of field ${field.name}`}
            fileName={`field-${field.name}-label.pdf`}
            subject={{ warehouseId: warehouse.id, field: field.name }}
          />
        )}
      </header>
      <div className="space-y-3 border-b border-slate-100 px-5 py-4">
        <ToggleSwitch
          label="Couchbox"
          checked={couchbox}
          onCheckedChange={changeType}
          disabled={!can('manager') || !below || belowTaken || pairHoldsVaults || setFieldType.isPending}
          hint={can('manager') ? typeHint : 'Only a Manager can change the layout.'}
        />
        {!atCapacity && (
          <ToggleSwitch
            label="Field is Full"
            checked={field.full}
            onCheckedChange={changeFull}
            disabled={!canWork || setFieldFull.isPending}
          />
        )}
      </div>
      <ol aria-label="Vault slots" className="divide-y divide-slate-100">
        {Array.from({ length: capacity }, (_, i) => i + 1).map((position) => {
          const vault = byPosition.get(position);
          return (
            <li
              key={position}
              className="flex min-h-14 items-center gap-3 px-5 py-2"
              aria-label={`Slot ${position}`}
            >
              <span className="flex h-7 w-7 shrink-0 items-center justify-center rounded-full bg-slate-100 text-xs font-semibold text-slate-500">
                {position}
              </span>
              {vault ? (
                <VaultRow
                  vault={vault}
                  editHref={editVaultHref(vault, warehouse.id)}
                  canStage={canWork && position === topmost && !pendingIntents.has(vault.id)}
                  readOnly={!canWork}
                  digOut={digOutCount(position, occupied)}
                  onStage={() => setToStage(vault)}
                  pending={pendingIntents.get(vault.id)}
                />
              ) : queuedAdds.has(position) ? (
                <p
                  className="min-w-0 flex-1 text-sm font-semibold break-words text-amber-800"
                  data-testid="not-synced"
                >
                  Not synced: {queuedAdds.get(position)}
                </p>
              ) : position === nextFree && canWork ? (
                <button
                  type="button"
                  onClick={() => setAdding(true)}
                  className="flex min-h-10 pointer-coarse:min-h-11 flex-1 items-center justify-center gap-1 rounded-lg border-2 border-dashed border-accent/40 text-sm font-semibold text-accent hover:border-accent hover:bg-accent/5 focus-visible:outline-2 focus-visible:outline-accent"
                >
                  {couchbox ? '+ Add Couchbox' : '+ Add Vault'}
                </button>
              ) : (
                <span className="text-sm text-slate-500">Empty</span>
              )}
            </li>
          );
        })}
      </ol>
      {!canWork && <RoleHint needed="floor" />}
      {nextFree !== null && canWork && (
        <AddVaultDialog
          open={adding}
          onOpenChange={setAdding}
          fieldId={field.id}
          position={nextFree}
          couchboxField={couchbox}
        />
      )}
      <ConfirmDialog
        open={toStage !== null}
        onOpenChange={(open) => {
          if (!open && !stageVault.isPending) setToStage(null);
        }}
        title="Stage Vault"
        message={`Are you sure you want to stage vault ${toStage?.name ?? toStage?.customer_name ?? ''}?`}
        confirmLabel="Yes, stage it"
        cancelLabel="No, take me back"
        onConfirm={confirmStage}
        pending={stageVault.isPending}
      />
    </section>
  );
}

function VaultRow({
  vault,
  editHref,
  canStage,
  digOut,
  onStage,
  readOnly = false,
  pending,
}: {
  vault: VaultDto;
  editHref: string;
  canStage: boolean;
  digOut: number;
  onStage: () => void;
  readOnly?: boolean;
  /** a change of this vault waiting in the tablet's outbox (issue 30), by what it is called */
  pending?: string;
}) {
  const label = vault.name ?? vault.customer_name;
  return (
    <div className="flex min-w-0 flex-1 items-center gap-2" data-testid="vault-row">
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-semibold text-slate-800" title={vault.customer_name}>
          {truncate(vault.customer_name, 15)}
        </p>
        <p className="truncate text-xs text-slate-500">
          {vault.name ?? 'No vault number'}
          <span data-testid="dig-out" title="Vaults to move before this one can come out">
            {' · '}
            {digOutLabel(digOut)}
          </span>
        </p>
        {pending && (
          <p
            className="truncate text-xs font-semibold text-amber-800"
            data-testid="not-synced"
            title={pending}
          >
            Not synced: {pending}
          </p>
        )}
      </div>
      <HoldBadge vaultId={vault.id} />
      <Link
        to={editHref}
        aria-label={`Edit vault ${label}`}
        className="flex items-center justify-center rounded-lg p-2.5 text-slate-600 hover:bg-slate-100 hover:text-accent focus-visible:outline-2 focus-visible:outline-accent pointer-coarse:h-11 pointer-coarse:w-11"
      >
        <Pencil className="h-4 w-4" aria-hidden />
      </Link>
      <button
        type="button"
        onClick={onStage}
        disabled={!canStage}
        aria-label={`Stage vault ${label}`}
        title={
          readOnly
            ? 'Your role can only view'
            : canStage
              ? 'Stage this vault'
              : 'Only the topmost vault can be staged'
        }
        className="flex items-center justify-center rounded-lg p-2.5 text-slate-600 hover:bg-slate-100 hover:text-accent focus-visible:outline-2 focus-visible:outline-accent pointer-coarse:h-11 pointer-coarse:w-11 disabled:cursor-not-allowed disabled:text-slate-300 disabled:hover:bg-transparent"
      >
        <Forklift className="h-4 w-4" aria-hidden />
      </button>
    </div>
  );
}

/** 'on top' or 'dig out 2': how many vaults stand above it. */
export function digOutLabel(count: number): string {
  return count === 0 ? 'on top' : `dig out ${count}`;
}
