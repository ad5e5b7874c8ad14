import { Undo2 } from 'lucide-react';
import { isCouchboxField } from '@domain/rules/capacity';
import { freeSlotCount } from '@domain/rules/slots';
import type { StagedVaultDto } from '@domain/schemas/vault.schema';
import type { FieldDto, WarehouseSummaryDto } from '@domain/schemas/warehouse.schema';
import { useMoveVault } from '@/api/vaults';
import { useWarehouse } from '@/api/warehouses';
import { FieldPicker } from '@/components/field-picker';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { ErrorList } from '@/components/ui/error-list';
import { Spinner } from '@/components/ui/spinner';
import { slotFor, useVaultDestination } from '@/components/warehouse-field-selects';
import { NamedOptions } from '@/components/ui/named-options';
import { errorMessages } from '@/lib/api-client';
import { useFloorOutbox } from '@/lib/outbox/floor-outbox';

export function vaultLabel(vault: { name: string | null; customer_name: string }) {
  return vault.name ?? vault.customer_name;
}

/** Free slots of a field, by the slot rules (none when it is marked full or is a couchbox's hidden bottom). */
function freeSlotsOf(field: FieldDto, fieldCapacity: number): number {
  const occupied = Object.values(field.vaults).flatMap((v) => (v.position === null ? [] : [v.position]));
  return freeSlotCount({ type: field.type, full: field.full, capacity: fieldCapacity }, occupied);
}

export interface MovedVault {
  vaultId: number;
  message: string;
  /** waiting in the tablet's outbox (issue 30): no Undo until it reached the server */
  queued?: boolean;
}

/**
 * Putting a staged vault into a field (issue 27): 'Back to {warehouse} {field}' first, the field it came from, or
 * why it cannot go back; other fields are chosen on a picture of the grid. The button that says where is the one
 * confirmation; the stage page then shows one toast, with Undo.
 */
export function MoveVaultDialog({
  vault,
  warehouses,
  onOpenChange,
  onMoved,
}: {
  vault: StagedVaultDto | null;
  warehouses: WarehouseSummaryDto[];
  onOpenChange: (open: boolean) => void;
  onMoved: (moved: MovedVault) => void;
}) {
  return (
    <Dialog
      open={vault !== null}
      onOpenChange={onOpenChange}
      title={vault ? `Put vault ${vaultLabel(vault)} in a field` : 'Put vault in a field'}
      wide
    >
      {vault && <MoveVaultForm vault={vault} warehouses={warehouses} onMoved={onMoved} />}
    </Dialog>
  );
}

/** Where the vault came from, and the slot it would take there now, or why it cannot go back. */
function useWayBack(vault: StagedVaultDto, warehouses: WarehouseSummaryDto[]) {
  const from = vault.staged_from;
  const summary = from?.warehouse ? warehouses.find((w) => w.name === from.warehouse) : undefined;
  const detail = useWarehouse(summary?.id);
  const queued = useFloorOutbox();
  if (!from?.warehouse || !from.field) return { kind: 'none' as const };
  const name = `${from.warehouse} ${from.field}`;
  if (!summary) return { kind: 'refused' as const, name, why: `${from.warehouse} no longer exists.` };
  if (!detail.data) return { kind: 'loading' as const, name, warehouseId: summary.id };
  const field = Object.values(detail.data.fields).find((f) => f.name === from.field);
  if (!field)
    return { kind: 'refused' as const, name, why: `${from.warehouse} has no field ${from.field} now.` };
  if (vault.type === 'couchbox' && !isCouchboxField(field.type))
    return { kind: 'refused' as const, name, why: `${name} no longer takes couchboxes.` };
  const slot = slotFor(field, detail.data.fieldCapacity, queued);
  if (slot === null)
    return {
      kind: 'refused' as const,
      name,
      why: field.full ? `${name} is marked full.` : `${name} has no free slot.`,
    };
  return { kind: 'ready' as const, name, warehouseId: summary.id, field, slot };
}

function MoveVaultForm({
  vault,
  warehouses,
  onMoved,
}: {
  vault: StagedVaultDto;
  warehouses: WarehouseSummaryDto[];
  onMoved: (moved: MovedVault) => void;
}) {
  const moveVault = useMoveVault();
  const back = useWayBack(vault, warehouses);
  const startId =
    back.kind === 'ready' || back.kind === 'loading'
      ? back.warehouseId
      : warehouses.find((w) => w.name === vault.staged_from?.warehouse)?.id;
  const { warehouse, detail, open, chosen, selects } = useVaultDestination({
    warehouses,
    startId,
    couchbox: vault.type === 'couchbox',
    onChange: () => moveVault.reset(),
  });

  if (warehouses.length === 0) {
    return (
      <p className="text-sm text-slate-600">Add a warehouse first: there is nowhere to move this vault to.</p>
    );
  }

  function move(fieldId: number, position: number, where: string) {
    moveVault.mutate(
      {
        vaultId: vault.id,
        fieldId,
        position,
        // a staged vault: the move is refused if someone else placed it meanwhile
        basis: { fieldId: null, position: null },
        label: `Put vault ${vaultLabel(vault)} in ${where}, position ${position}`,
      },
      {
        onSuccess: (sent) =>
          onMoved({
            vaultId: vault.id,
            queued: sent.queued,
            message: sent.queued
              ? `Vault ${vaultLabel(vault)} put in ${where}, position ${position} on this device: not synced yet`
              : `Vault ${vaultLabel(vault)} put in ${where}, position ${position}`,
          }),
      },
    );
  }

  const free = new Map(
    open.map(({ field }) => [field.id, detail ? freeSlotsOf(field, detail.fieldCapacity) : 0]),
  );

  return (
    <div className="space-y-5">
      <p className="text-sm text-slate-600">
        <span className="font-semibold text-slate-800">{vaultLabel(vault)}</span> for {vault.customer_name}
        {vault.order_name ? `, order ${vault.order_name}` : ''}
      </p>
      {moveVault.isError && <ErrorList messages={errorMessages(moveVault.error)} />}

      {back.kind !== 'none' && (
        <section aria-label="Where it came from" className="space-y-2">
          {back.kind === 'ready' ? (
            <Button
              className="w-full justify-center py-3 text-base"
              disabled={moveVault.isPending}
              onClick={() => move(back.field.id, back.slot, back.name)}
            >
              <Undo2 className="h-5 w-5" aria-hidden />
              Back to {back.name}
            </Button>
          ) : back.kind === 'loading' ? (
            <Spinner label={`Looking at ${back.name}...`} />
          ) : (
            <p role="status" className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
              It cannot go back to {back.name}: {back.why} Choose another field below.
            </p>
          )}
          {back.kind === 'ready' && (
            <p className="text-center text-xs text-slate-600">
              Position {back.slot}, the next free slot there
            </p>
          )}
        </section>
      )}

      <section aria-label="Another field" className="space-y-3">
        <div className="flex flex-wrap items-end gap-3">
          <h3 className="text-sm font-semibold text-primary">
            {back.kind === 'none' ? 'Choose a field' : 'Or another field'}
          </h3>
          <label className="ml-auto flex items-center gap-2 text-sm text-slate-700">
            Warehouse
            <select
              className="rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm pointer-coarse:min-h-11 focus:border-accent focus:ring-2 focus:ring-accent/30 focus:outline-none"
              value={selects.warehouseId ?? ''}
              onChange={(e) => selects.onWarehouse(Number(e.target.value))}
            >
              <NamedOptions items={warehouses} />
            </select>
          </label>
        </div>
        {warehouse.isPending && <Spinner label="Loading fields..." />}
        {warehouse.isError && <ErrorList messages={errorMessages(warehouse.error)} />}
        {detail && (
          <>
            {open.length === 0 && (
              <p className="text-sm text-slate-600">No field of {detail.name} has a free slot.</p>
            )}
            <FieldPicker
              warehouse={detail}
              free={free}
              chosenId={chosen?.field.id}
              onChoose={(id) => selects.onField(id)}
              label={`Fields of ${detail.name}`}
            />
            <Button
              variant={back.kind === 'ready' ? 'secondary' : 'primary'}
              className="w-full justify-center"
              disabled={!chosen || moveVault.isPending}
              onClick={() =>
                chosen && move(chosen.field.id, chosen.slot, `${detail.name} ${chosen.field.name}`)
              }
            >
              {chosen
                ? `Put in ${detail.name} ${chosen.field.name}, position ${chosen.slot}`
                : 'Choose a green field above'}
            </Button>
          </>
        )}
      </section>
    </div>
  );
}
