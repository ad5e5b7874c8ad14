import { ArrowRightLeft } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import type { ScannedVaultDto } from '@domain/schemas/scan.schema';
import { useScanMove } from '@/api/scan';
import { useSession } from '@/api/session';
import { useWarehouse, useWarehouses } from '@/api/warehouses';
import { Button } from '@/components/ui/button';
import { NamedOptions } from '@/components/ui/named-options';
import { ErrorList, QueryFailed } from '@/components/ui/error-list';
import { FormField, inputClass } from '@/components/ui/form-field';
import { Spinner } from '@/components/ui/spinner';
import { errorMessages } from '@/lib/api-client';
import { compareFieldNames } from '@domain/rules/field-names';

/**
 * Move without a field label at hand: pick a warehouse of the company and one of its fields; the server puts the
 * vault into that field's next free slot by the same rules as every move, and says why when it cannot.
 */
export function MovePicker({
  vault,
  onMoved,
  onClose,
}: {
  vault: ScannedVaultDto;
  onMoved: (moved: ScannedVaultDto) => void;
  onClose: () => void;
}) {
  const session = useSession();
  const warehouses = useWarehouses(session.data?.companyId);
  const [warehouseId, setWarehouseId] = useState<number | undefined>(vault.warehouseId ?? undefined);
  const [fieldId, setFieldId] = useState<number | undefined>(undefined);
  const warehouse = useWarehouse(warehouseId);
  const move = useScanMove();

  const fields = warehouse.data
    ? Object.values(warehouse.data.fields).sort((a, b) => compareFieldNames(a.name, b.name))
    : [];
  const title = vault.name ?? vault.customerName;

  const submit = () => {
    if (fieldId === undefined) return;
    move.mutate(
      { vaultId: vault.id, fieldId },
      {
        onSuccess: (moved) => {
          toast.success(
            `Vault ${title} moved to ${moved.warehouseName ?? '?'}, field ${moved.fieldName ?? '?'}, position ${moved.position ?? '?'}.`,
          );
          onMoved(moved);
        },
      },
    );
  };

  return (
    <section
      aria-label={`Move vault ${title}`}
      className="mt-3 space-y-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
    >
      <h2 className="text-lg font-semibold text-slate-800">Move vault {title}</h2>
      <p className="text-sm text-slate-600">
        Pick a field: the vault goes on top of its stack. A full field, or one for another kind of unit, is
        refused.
      </p>
      {warehouses.isPending && <Spinner label="Loading warehouses..." />}
      {warehouses.isError && <QueryFailed query={warehouses} />}
      {warehouses.isSuccess && warehouses.data.length === 0 && (
        <p className="text-sm text-slate-600">The company has no warehouse yet.</p>
      )}
      {warehouses.isSuccess && warehouses.data.length > 0 && (
        <FormField label="Warehouse">
          <select
            className={inputClass}
            value={warehouseId ?? ''}
            onChange={(e) => {
              setWarehouseId(e.target.value === '' ? undefined : Number(e.target.value));
              setFieldId(undefined);
              move.reset();
            }}
          >
            <option value="">Choose a warehouse</option>
            <NamedOptions items={warehouses.data} />
          </select>
        </FormField>
      )}
      {warehouseId !== undefined && warehouse.isPending && <Spinner label="Loading fields..." />}
      {warehouse.isError && <QueryFailed query={warehouse} />}
      {warehouse.isSuccess && (
        <FormField label="Field">
          <select
            className={inputClass}
            value={fieldId ?? ''}
            onChange={(e) => {
              setFieldId(e.target.value === '' ? undefined : Number(e.target.value));
              move.reset();
            }}
          >
            <option value="">Choose a field</option>
            {fields.map((f) => {
              const here = f.id === vault.fieldId;
              const count = Object.keys(f.vaults).length;
              return (
                <option key={f.id} value={f.id} disabled={here || f.full}>
                  {f.name} · {f.type} · {count} {count === 1 ? 'unit' : 'units'}
                  {here ? ' · where it is' : f.full ? ' · full' : ''}
                </option>
              );
            })}
          </select>
        </FormField>
      )}
      {move.isError && <ErrorList messages={errorMessages(move.error)} />}
      <div className="flex flex-wrap gap-2">
        <Button
          className="min-h-12 flex-1"
          disabled={fieldId === undefined || move.isPending}
          onClick={submit}
        >
          <ArrowRightLeft className="h-5 w-5" aria-hidden />
          {move.isPending ? 'Moving...' : 'Move here'}
        </Button>
        <Button variant="secondary" className="min-h-12" onClick={onClose} disabled={move.isPending}>
          Cancel
        </Button>
      </div>
    </section>
  );
}
