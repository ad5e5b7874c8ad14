import { useState } from 'react';
import type { ShipmentProposalDto } from '@domain/schemas/receiving.schema';
import { useWarehouse } from '@/api/warehouses';
import { FieldPicker } from '@/components/field-picker';
import { Dialog } from '@/components/ui/dialog';
import { ErrorList } from '@/components/ui/error-list';
import { NamedOptions } from '@/components/ui/named-options';
import { Spinner } from '@/components/ui/spinner';
import { errorMessages } from '@/lib/api-client';

type FieldChoice = ShipmentProposalDto['fields'][number];

/**
 * Another field for one vault of a shipment, chosen on a small picture of a warehouse's grid with the free slots of
 * each field (issue 27, instead of a long list of every field of the company). `choices` are the fields the server
 * offers for this vault's type; the others are greyed.
 */
export function ChooseFieldDialog({
  vaultLabel,
  choices,
  chosenId,
  onChoose,
  onClose,
}: {
  vaultLabel: string;
  choices: FieldChoice[];
  chosenId: number | undefined;
  onChoose: (fieldId: number) => void;
  onClose: () => void;
}) {
  const warehouses = [...new Map(choices.map((c) => [c.warehouse_id, c.warehouse_name])).entries()].map(
    ([id, name]) => ({ id, name }),
  );
  const [warehouseId, setWarehouseId] = useState(
    () => choices.find((c) => c.field_id === chosenId)?.warehouse_id ?? warehouses[0]?.id,
  );
  const warehouse = useWarehouse(warehouseId);
  const free = new Map(
    choices.filter((c) => c.warehouse_id === warehouseId).map((c) => [c.field_id, c.free]),
  );

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={`Field for ${vaultLabel}`} wide>
      <div className="space-y-3">
        {warehouses.length > 1 && (
          <label className="flex items-center gap-2 text-sm text-slate-700">
            Warehouse
            <select
              className="rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm pointer-coarse:min-h-11 focus:border-accent focus:ring-2 focus:ring-accent/30 focus:outline-none"
              value={warehouseId ?? ''}
              onChange={(e) => setWarehouseId(Number(e.target.value))}
            >
              <NamedOptions items={warehouses} />
            </select>
          </label>
        )}
        {warehouses.length === 0 && <p className="text-sm text-slate-600">No field has room for it.</p>}
        {warehouse.isPending && warehouseId !== undefined && <Spinner label="Loading fields..." />}
        {warehouse.isError && <ErrorList messages={errorMessages(warehouse.error)} />}
        {warehouse.data && (
          <FieldPicker
            warehouse={warehouse.data}
            free={free}
            chosenId={chosenId}
            onChoose={(fieldId) => {
              onChoose(fieldId);
              onClose();
            }}
            label={`Fields of ${warehouse.data.name}`}
          />
        )}
      </div>
    </Dialog>
  );
}
