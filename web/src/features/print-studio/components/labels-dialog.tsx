import { useState } from 'react';
import { LABEL_FORMAT_NAMES, LABEL_FORMATS, type LabelFormat } from '@domain/rules/label-sheets';
import type { WarehouseSummaryDto } from '@domain/schemas/warehouse.schema';
import { downloadFieldLabels, downloadVaultLabels } from '@/api/labels';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { ErrorList } from '@/components/ui/error-list';
import { FormField, SelectInput, TextInput, inputClass } from '@/components/ui/form-field';
import { LabelledOptions, NamedOptions } from '@/components/ui/named-options';
import { readRemembered, remember } from '@/lib/remembered';
import { errorMessages } from '@/lib/api-client';

const FORMAT_KEY = 'label-format';
const rememberedFormat = (): LabelFormat => {
  const stored = readRemembered(FORMAT_KEY);
  return (LABEL_FORMATS as readonly string[]).includes(stored) ? (stored as LabelFormat) : 'avery-5160';
};

function FormatSelect({
  id,
  value,
  onChange,
}: {
  id: string;
  value: LabelFormat;
  onChange: (f: LabelFormat) => void;
}) {
  return (
    <SelectInput id={id} className="h-11" value={value} onValue={onChange}>
      <LabelledOptions values={LABEL_FORMATS} labels={LABEL_FORMAT_NAMES} />
    </SelectInput>
  );
}

/** Label PDFs from Print Studio: the vaults of the current filter, or the fields of a warehouse. */
export function LabelsDialog({
  open,
  onOpenChange,
  vaultIds,
  warehouses,
  shownWarehouse = '',
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** the vaults the page shows, in its order */
  vaultIds: number[];
  warehouses: WarehouseSummaryDto[];
  /** the warehouse the page's filter shows ('' for all): the field labels start on it */
  shownWarehouse?: string;
}) {
  const [format, setFormatState] = useState<LabelFormat>(rememberedFormat);
  const setFormat = (next: LabelFormat) => {
    remember(FORMAT_KEY, next);
    setFormatState(next);
  };
  const [warehouseId, setWarehouseId] = useState<number | null>(null);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const chosenWarehouse =
    warehouseId ?? warehouses.find((w) => w.name === shownWarehouse)?.id ?? warehouses[0]?.id ?? null;

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setErrors([]);
    try {
      await work();
    } catch (error) {
      setErrors(errorMessages(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Labels"
      description="Label sheets and thermal labels as PDF files."
    >
      <div className="space-y-5">
        <FormField label="Label format">
          <FormatSelect id="label-format" value={format} onChange={setFormat} />
        </FormField>
        <section aria-labelledby="vault-labels-title" className="rounded-lg border border-slate-200 p-3">
          <h3 id="vault-labels-title" className="font-semibold text-slate-800">
            Vault labels
          </h3>
          <p id="vault-labels-hint" className="mb-2 text-sm text-slate-600">
            {vaultIds.length === 0
              ? 'The list shows no vaults: change the filters to print their labels.'
              : `One label for each of the ${vaultIds.length === 1 ? 'vault' : `${vaultIds.length} vaults`} the list shows, in its order.`}
          </p>
          <Button
            aria-describedby="vault-labels-hint"
            disabled={busy || vaultIds.length === 0}
            onClick={() => void run(() => downloadVaultLabels(format, vaultIds))}
          >
            Download vault labels
          </Button>
        </section>
        <section aria-labelledby="field-labels-title" className="rounded-lg border border-slate-200 p-3">
          <h3 id="field-labels-title" className="font-semibold text-slate-800">
            Field labels
          </h3>
          <div className="mt-2 grid grid-cols-3 gap-2">
            <FormField label="Warehouse" className="col-span-3">
              <select
                className={`${inputClass} h-11`}
                value={chosenWarehouse ?? ''}
                onChange={(e) => setWarehouseId(Number(e.target.value))}
              >
                <NamedOptions items={warehouses} />
              </select>
            </FormField>
            <FormField label="From field">
              <TextInput className="h-11" placeholder="A1" value={from} onValue={setFrom} />
            </FormField>
            <FormField label="To field">
              <TextInput className="h-11" placeholder="all" value={to} onValue={setTo} />
            </FormField>
            <div className="flex items-end">
              <Button
                className="w-full"
                disabled={busy || chosenWarehouse === null}
                onClick={() =>
                  void run(() =>
                    downloadFieldLabels(format, chosenWarehouse!, {
                      ...(from.trim() ? { from: from.trim() } : {}),
                      ...(to.trim() ? { to: to.trim() } : {}),
                    }),
                  )
                }
              >
                Download field labels
              </Button>
            </div>
          </div>
        </section>
        <ErrorList messages={errors} />
      </div>
    </Dialog>
  );
}
