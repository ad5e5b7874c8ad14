import { Undo2 } from 'lucide-react';
import { useState } from 'react';
import { isCouchboxField, nextFreeSlot } from '../../../../../domain/rules/capacity';
import { compareFieldNames } from '../../../../../domain/rules/field-names';
import type { SetAsideVaultDto } from '../../../../../domain/schemas/pull-list.schema';
import type { FieldDto, WarehouseSummaryDto } from '../../../../../domain/schemas/warehouse.schema';
import { useWarehouse } from '../../../api/warehouses';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { ErrorList } from '../../../components/ui/error-list';
import { Spinner } from '../../../components/ui/spinner';
import { WarehouseFieldSelects } from '../../../components/warehouse-field-selects';
import { errorMessages } from '../../../lib/api-client';

/** The slot a vault coming into this field takes (the slot rules: only the next free one), or null when none. */
function slotOf(field: FieldDto, fieldCapacity: number): number | null {
  const occupied = Object.values(field.vaults).flatMap((v) => (v.position === null ? [] : [v.position]));
  return nextFreeSlot(field, occupied, fieldCapacity);
}

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
  const [warehouseId, setWarehouseId] = useState<number | undefined>(
    vault.from_warehouse_id ?? warehouses[0]?.id,
  );
  const [fieldId, setFieldId] = useState<number | undefined>(undefined);
  const warehouse = useWarehouse(warehouseId);
  const detail = warehouse.data?.id === warehouseId ? warehouse.data : undefined;
  const couchbox = vault.type === 'couchbox';
  const open = detail
    ? Object.values(detail.fields)
        .map((field) => ({ field, slot: slotOf(field, detail.fieldCapacity) }))
        .filter(
          (o): o is { field: FieldDto; slot: number } =>
            o.slot !== null && (!couchbox || isCouchboxField(o.field.type)),
        )
        .sort((a, b) => compareFieldNames(a.field.name, b.field.name))
    : [];
  const chosen = open.find((o) => o.field.id === fieldId);

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
        warehouses={warehouses}
        warehouseId={warehouseId}
        onWarehouse={(id) => {
          setWarehouseId(id);
          setFieldId(undefined);
        }}
        fieldLabel="Field and slot"
        fields={open.map(({ field, slot }) => ({ id: field.id, text: `${field.name}, position ${slot}` }))}
        fieldId={fieldId}
        onField={setFieldId}
        loaded={detail !== undefined}
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
