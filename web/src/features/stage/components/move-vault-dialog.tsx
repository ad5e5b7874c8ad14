import { useState } from 'react';
import { fieldSlotCount } from '../../../../../domain/rules/capacity';
import { truncate } from '../../../../../domain/rules/text';
import type { StagedVaultDto } from '../../../../../domain/schemas/vault.schema';
import type { FieldDto, WarehouseSummaryDto } from '../../../../../domain/schemas/warehouse.schema';
import { useMoveVault } from '../../../api/vaults';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Dialog } from '../../../components/ui/dialog';
import { ErrorList } from '../../../components/ui/error-list';
import { Spinner } from '../../../components/ui/spinner';
import {
  slotFor,
  useVaultDestination,
  WarehouseFieldSelects,
} from '../../../components/warehouse-field-selects';
import { errorMessages } from '../../../lib/api-client';

export function vaultLabel(vault: { name: string | null; customer_name: string }) {
  return vault.name ?? vault.customer_name;
}

/** Free slots of a field (none when it is marked full or is a couchbox's hidden bottom). */
function freeSlotCount(field: FieldDto, fieldCapacity: number): number {
  if (field.full || field.type === 'couchbox-B') return 0;
  const occupied = Object.values(field.vaults).filter((v) => v.position !== null).length;
  return Math.max(0, fieldSlotCount(field.type, fieldCapacity) - occupied);
}

export function MoveVaultDialog({
  vault,
  warehouses,
  onOpenChange,
  onMoved,
}: {
  vault: StagedVaultDto | null;
  warehouses: WarehouseSummaryDto[];
  onOpenChange: (open: boolean) => void;
  onMoved: (message: string) => void;
}) {
  return (
    <Dialog open={vault !== null} onOpenChange={onOpenChange} title="Move Vault" wide>
      {vault && <MoveVaultForm vault={vault} warehouses={warehouses} onMoved={onMoved} />}
    </Dialog>
  );
}

function MoveVaultForm({
  vault,
  warehouses,
  onMoved,
}: {
  vault: StagedVaultDto;
  warehouses: WarehouseSummaryDto[];
  onMoved: (message: string) => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const moveVault = useMoveVault();
  const { warehouse, fieldId, detail, open, selects } = useVaultDestination({
    warehouses,
    couchbox: vault.type === 'couchbox',
    onChange: () => moveVault.reset(),
  });

  if (warehouses.length === 0) {
    return (
      <p className="text-sm text-slate-600">Add a warehouse first: there is nowhere to move this vault to.</p>
    );
  }

  const field = detail && fieldId !== undefined ? detail.fields[fieldId] : undefined;
  const position = field && detail ? slotFor(field, detail.fieldCapacity) : null;

  function confirmMove() {
    if (!field || position === null || !detail) return;
    moveVault.mutate(
      { vaultId: vault.id, fieldId: field.id, position },
      {
        onSuccess: () =>
          onMoved(`Vault ${vaultLabel(vault)} moved to ${detail.name} ${field.name}, position ${position}`),
        onSettled: () => setConfirming(false),
      },
    );
  }

  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-600">
        <span className="font-semibold text-slate-800">{vaultLabel(vault)}</span> for {vault.customer_name}
        {vault.order_name ? `, order ${vault.order_name}` : ''}
      </p>
      {moveVault.isError && <ErrorList messages={errorMessages(moveVault.error)} />}
      <WarehouseFieldSelects
        {...selects}
        fieldLabel="Field"
        fields={open.map(({ field: f }) => {
          const free = detail ? freeSlotCount(f, detail.fieldCapacity) : 0;
          return { id: f.id, name: `${f.name} (${free} free ${free === 1 ? 'slot' : 'slots'})` };
        })}
        noneText="No field has a free slot"
      />
      {warehouse.isPending && <Spinner label="Loading fields..." />}
      {warehouse.isError && <ErrorList messages={errorMessages(warehouse.error)} />}
      {field && detail && (
        <section aria-label={`Field ${field.name}`} className="rounded-lg border border-slate-200">
          <h3 className="border-b border-slate-100 px-4 py-2 text-sm font-semibold text-primary">
            Field {field.name}
          </h3>
          <ol aria-label="Vault slots" className="divide-y divide-slate-100">
            {Array.from({ length: fieldSlotCount(field.type, detail.fieldCapacity) }, (_, i) => i + 1).map(
              (slot) => {
                const occupant = Object.values(field.vaults).find((v) => v.position === slot);
                return (
                  <li
                    key={slot}
                    aria-label={`Slot ${slot}`}
                    className="flex min-h-12 items-center gap-3 px-4 py-1.5"
                  >
                    <span className="flex h-7 w-7 shrink-0 items-center justify-center rounded-full bg-slate-100 text-xs font-semibold text-slate-500">
                      {slot}
                    </span>
                    {occupant ? (
                      <span className="min-w-0 truncate text-sm text-slate-700">
                        {truncate(occupant.customer_name, 15)}{' '}
                        <span className="text-slate-500">{occupant.name ?? ''}</span>
                      </span>
                    ) : slot === position ? (
                      <button
                        type="button"
                        onClick={() => setConfirming(true)}
                        className="flex min-h-10 flex-1 items-center justify-center rounded-lg border-2 border-dashed border-accent/40 text-sm font-semibold text-accent hover:border-accent hover:bg-accent/5 focus-visible:outline-2 focus-visible:outline-accent"
                      >
                        + Add Vault
                      </button>
                    ) : (
                      <span className="text-sm text-slate-500">Empty</span>
                    )}
                  </li>
                );
              },
            )}
          </ol>
        </section>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={(next) => {
          if (!moveVault.isPending) setConfirming(next);
        }}
        title="Confirm Add Vault"
        message={`Are you sure you want to add a vault at position ${position ?? ''}?`}
        confirmLabel="Yes, add it"
        cancelLabel="No, take me back"
        onConfirm={confirmMove}
        pending={moveVault.isPending}
      />
    </div>
  );
}
