import { Forklift, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import type { StagedVaultDto } from '@domain/schemas/vault.schema';
import { useRole, useSession } from '@/api/session';
import { RoleHint } from '@/components/ui/role-hint';
import { useStagedVaults, useStageVault } from '@/api/stage';
import { useDeleteVaults } from '@/api/vaults';
import { useWarehouses } from '@/api/warehouses';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Page } from '@/components/ui/page';
import { Spinner } from '@/components/ui/spinner';
import { errorMessages } from '@/lib/api-client';
import { MoveVaultDialog, type MovedVault, vaultLabel } from '../components/move-vault-dialog';
import { ToggleSwitch } from '@/components/ui/toggle-switch';
import { QueryFailed } from '@/components/ui/error-list';
import { useDocumentTitle } from '@/lib/use-document-title';
import { HoldBadge, useIsHeld } from '@/components/billing/hold-badge';
import { type Formatters, useFormat } from '@/lib/format';
import { useFloorOutbox } from '@/lib/outbox/floor-outbox';

/** 'From Main A3, position 2' (or 'Added to the stage') and when, for the staged card. */
function stagedLines(vault: StagedVaultDto, format: Formatters): { where: string; when: string | null } {
  const from = vault.staged_from;
  const where = from
    ? `From ${[from.warehouse, from.field].filter(Boolean).join(' ') || 'a field'}${from.position !== null ? `, position ${from.position}` : ''}`
    : 'Added to the stage';
  return { where, when: vault.staged_at ? format.dateTime(vault.staged_at) : null };
}

export default function StagePage() {
  useDocumentTitle('Stage');
  const session = useSession();
  const staged = useStagedVaults();
  const outbox = useFloorOutbox();
  const warehouses = useWarehouses(session.data?.companyId);
  const deleteVaults = useDeleteVaults();
  const format = useFormat();
  // a Viewer sees the stage; moving and deleting are Floor work
  const canWork = useRole().can('floor');
  const [deleteMode, setDeleteMode] = useState(false);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [moving, setMoving] = useState<StagedVaultDto | null>(null);
  const stageVault = useStageVault();
  // units of an account on hold carry the badge and are not deleted around the hold (decisions 039, 051)
  const isHeld = useIsHeld();

  // one toast says where the vault went (issue 27: no second window), and Undo takes it back onto the stage
  function onMoved({ vaultId, message, queued }: MovedVault) {
    setMoving(null);
    if (queued) {
      toast.info(message);
      return;
    }
    toast.success(message, {
      action: {
        label: 'Undo',
        onClick: () =>
          stageVault.mutate(vaultId, {
            onSuccess: () => toast.success('Back on the stage'),
            onError: (error) => toast.error(errorMessages(error).join(' ')),
          }),
      },
    });
  }

  const vaults = Object.values(staged.data ?? {}).sort((a, b) => a.id - b.id);
  // this tablet's changes of staged vaults that have not reached the server (issue 30), marked on their cards
  const pending = new Map(
    outbox.flatMap((intent) =>
      intent.vaultId === undefined ? [] : [[intent.vaultId, intent.label] as const],
    ),
  );
  const warehouseList = warehouses.data ?? [];
  // a vault deleted or moved elsewhere no longer counts as selected
  const selectedIds = vaults.filter((v) => selected.has(v.id)).map((v) => v.id);

  function changeDeleteMode(on: boolean) {
    setDeleteMode(on);
    setSelected(new Set());
  }

  function onCardClick(vault: StagedVaultDto) {
    if (!canWork) return;
    if (!deleteMode) {
      setMoving(vault);
      return;
    }
    if (isHeld(vault.id) && !selected.has(vault.id)) {
      toast.error(
        `${vaultLabel(vault)} is on hold for unpaid storage and cannot be deleted. A Manager releases it through a pull list with a reason, or the office lifts the hold.`,
      );
      return;
    }
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(vault.id)) next.delete(vault.id);
      else next.add(vault.id);
      return next;
    });
  }

  function onDelete() {
    deleteVaults.mutate(selectedIds, {
      onSuccess: () => {
        toast.success(selectedIds.length === 1 ? 'Vault deleted' : `${selectedIds.length} vaults deleted`);
        setSelected(new Set());
      },
      onError: (error) => toast.error(errorMessages(error).join(' ')),
      onSettled: () => setConfirmDelete(false),
    });
  }

  return (
    <Page
      title="Staged Vaults"
      actions={
        canWork ? (
          <div className="flex items-center gap-4">
            <div className="flex items-center gap-2">
              <ToggleSwitch label="Delete Mode" checked={deleteMode} onCheckedChange={changeDeleteMode} />
              <span
                className={`w-8 text-sm font-bold ${deleteMode ? 'text-red-700' : 'text-slate-600'}`}
                aria-hidden
              >
                {deleteMode ? 'ON' : 'OFF'}
              </span>
            </div>
            {deleteMode && (
              <Button
                variant="danger"
                onClick={() => setConfirmDelete(true)}
                disabled={selectedIds.length === 0}
                // the name holds the count the button shows (WCAG 2.5.3, label in name)
                aria-label={`Delete ${selectedIds.length} selected ${selectedIds.length === 1 ? 'vault' : 'vaults'}`}
                aria-describedby={selectedIds.length === 0 ? 'stage-hint' : undefined}
                title={selectedIds.length === 0 ? 'Select the vaults to delete first.' : undefined}
              >
                <Trash2 className="h-4 w-4" aria-hidden />
                <span className="tabular-nums">{selectedIds.length}</span>
              </Button>
            )}
          </div>
        ) : (
          <RoleHint needed="floor" />
        )
      }
    >
      <div
        data-testid="stage-area"
        data-delete-mode={deleteMode}
        className={`rounded-2xl border-4 border-dashed bg-white p-4 shadow-sm transition-colors sm:p-6 ${deleteMode ? 'border-danger' : 'border-[#facc15]'}`}
      >
        <p id="stage-hint" className="mb-4 text-sm text-slate-600">
          {deleteMode
            ? 'Select the vaults to delete, then press the trash button.'
            : 'Choose a vault to put it back where it came from, or into another field.'}
        </p>
        {staged.isPending && <Spinner label="Loading staged vaults..." />}
        {staged.isError && <QueryFailed query={staged} />}
        {staged.isSuccess && vaults.length === 0 && (
          <div className="flex flex-col items-center py-10 text-center text-slate-500">
            <Forklift className="h-10 w-10 text-slate-300" aria-hidden />
            <p className="mt-2">No staged vaults available.</p>
          </div>
        )}
        {vaults.length > 0 && (
          <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
            {vaults.map((vault) => {
              const isSelected = selected.has(vault.id);
              return (
                <li key={vault.id}>
                  <button
                    type="button"
                    onClick={() => onCardClick(vault)}
                    disabled={!canWork}
                    aria-pressed={deleteMode ? isSelected : undefined}
                    className={`flex h-full min-h-28 w-full flex-col items-start rounded-xl border-2 p-3 text-left transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent ${
                      isSelected
                        ? 'border-red-500 bg-red-50'
                        : deleteMode
                          ? 'border-yellow-300 bg-yellow-50/50 hover:border-red-300'
                          : 'border-yellow-300 bg-yellow-50/50 hover:border-accent hover:shadow-md'
                    }`}
                  >
                    {/* the card's name is its text, led by what a tap does: 'Move vault ST-7 ...' */}
                    <span className="sr-only">
                      {deleteMode ? 'Select' : 'Move'} vault {vaultLabel(vault)},{' '}
                    </span>
                    <span className="flex w-full flex-wrap items-center justify-between gap-1">
                      <span className="text-lg font-bold text-primary">{vault.name ?? 'No number'}</span>
                      <HoldBadge vaultId={vault.id} />
                    </span>
                    <span
                      className="mt-1 w-full truncate text-sm font-medium text-slate-700"
                      title={vault.customer_name}
                    >
                      {vault.customer_name}
                    </span>
                    {vault.order_name && (
                      <span className="text-xs text-slate-600">Order {vault.order_name}</span>
                    )}
                    <span className="mt-auto pt-2 text-xs text-slate-600">
                      {stagedLines(vault, format).where}
                    </span>
                    {vault.staged_at && (
                      <time dateTime={vault.staged_at} className="text-xs text-slate-600">
                        {stagedLines(vault, format).when}
                      </time>
                    )}
                    {pending.has(vault.id) && (
                      <span className="mt-1 text-xs font-semibold text-amber-800" data-testid="not-synced">
                        Not synced: {pending.get(vault.id)}
                      </span>
                    )}
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </div>

      <ConfirmDialog
        open={confirmDelete}
        onOpenChange={(open) => {
          if (!deleteVaults.isPending) setConfirmDelete(open);
        }}
        title="Delete Vaults"
        message={`Are you sure you want to delete ${selectedIds.length === 1 ? 'vault' : `these ${selectedIds.length} vaults`}: ${vaults
          .filter((v) => selected.has(v.id))
          .map(vaultLabel)
          .join(', ')}? This action cannot be undone.`}
        confirmLabel="Delete"
        onConfirm={onDelete}
        pending={deleteVaults.isPending}
        danger
      />
      <MoveVaultDialog
        vault={moving}
        warehouses={warehouseList}
        onOpenChange={(open) => {
          if (!open) setMoving(null);
        }}
        onMoved={onMoved}
      />
    </Page>
  );
}
