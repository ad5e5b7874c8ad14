import { Undo2 } from 'lucide-react';
import type { SetAsideVaultDto } from '@domain/schemas/pull-list.schema';
import type { WarehouseSummaryDto } from '@domain/schemas/warehouse.schema';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { ErrorList } from '@/components/ui/error-list';
import { Spinner } from '@/components/ui/spinner';
import { useVaultDestination, WarehouseFieldSelects } from '@/components/warehouse-field-selects';
import { errorMessages } from '@/lib/api-client';

export interface PickedSlot {
  fieldId: number;
  position: number;
  label: string;
}

/**
 * Put a vault that was only in the way back somewhere else than where it came from: a warehouse, then one of its
 * fields with a free slot (a couchbox only into a couchbox field), each shown with the slot it would take. The server
 * checks the slot again when the step is sent.
 */
export function PutBackDialog({
  vault,
  warehouses,
  pending,
  error,
  onOpenChange,
  onPick,
}: {
  vault: SetAsideVaultDto | null;
  warehouses: WarehouseSummaryDto[];
  pending: boolean;
  error: unknown;
  onOpenChange: (open: boolean) => void;
  onPick: (slot: PickedSlot) => void;
}) {
  return (
    <Dialog open={vault !== null} onOpenChange={onOpenChange} title="Put back elsewhere">
      {vault && (
        <PutBackForm
          key={vault.vault_id}
          vault={vault}
          warehouses={warehouses}
          pending={pending}
          error={error}
          onPick={onPick}
        />
      )}
    </Dialog>
  );
}

function PutBackForm({
  vault,
  warehouses,
  pending,
  error,
  onPick,
}: {
  vault: SetAsideVaultDto;
  warehouses: WarehouseSummaryDto[];
  pending: boolean;
  error: unknown;
  onPick: (slot: PickedSlot) => void;
}) {
  const couchbox = vault.type === 'couchbox';
  const { warehouse, warehouseId, detail, open, chosen, selects } = useVaultDestination({
    warehouses,
    startId: vault.from_warehouse_id,
    couchbox,
  });

  return (
    <form
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        if (!chosen || !detail) return;
        onPick({
          fieldId: chosen.field.id,
          position: chosen.slot,
          label: `${detail.name} ${chosen.field.name}, position ${chosen.slot}`,
        });
      }}
    >
      <p className="text-sm text-slate-600">
        <span className="font-semibold text-slate-800">{vault.name ?? 'No vault number'}</span> for{' '}
        {vault.customer_name}, taken from {vault.from_warehouse_name ?? 'a removed field'}{' '}
        {vault.from_field_name ?? ''}
      </p>
      {error !== null && <ErrorList messages={errorMessages(error)} />}
      <WarehouseFieldSelects
        {...selects}
        fieldLabel="Field and slot"
        fields={open.map(({ field, slot }) => ({ id: field.id, name: `${field.name}, position ${slot}` }))}
        noneText={couchbox ? 'No couchbox field has a free slot' : 'No field has a free slot'}
      />
      {warehouse.isPending && warehouseId !== undefined && <Spinner label="Loading fields..." />}
      {warehouse.isError && <ErrorList messages={errorMessages(warehouse.error)} />}
      <div className="flex justify-end">
        <Button type="submit" disabled={!chosen || pending}>
          <Undo2 className="h-4 w-4" aria-hidden />
          {chosen ? `Put back to ${chosen.field.name}, position ${chosen.slot}` : 'Put back here'}
        </Button>
      </div>
    </form>
  );
}
