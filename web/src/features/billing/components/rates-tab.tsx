import { Pencil, Trash2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { decimalToMinor, minorToDecimal } from '@domain/billing/money';
import {
  RATE_KIND_LABELS,
  RATE_KINDS,
  type RateKind,
  UNIT_TYPE_LABELS,
  UNIT_TYPES,
} from '@domain/billing/rates';
import type { BillingSettingsDto, RateDto, RateInput } from '@domain/schemas/billing.schema';
import { ToggleSwitch } from '@/components/ui/toggle-switch';
import { LabelledOptions, NamedOptions } from '@/components/ui/named-options';
import { useAddRate, useDeleteRate, useEditRate, useRates, useSaveBillingSettings } from '@/api/billing';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Dialog } from '@/components/ui/dialog';
import { ErrorList } from '@/components/ui/error-list';
import { FormButtons } from '@/components/ui/form-buttons';
import { useSession } from '@/api/session';
import { useWarehouses } from '@/api/warehouses';
import { QueryView } from '@/components/ui/query-view';
import { FormField, SelectInput, TextInput } from '@/components/ui/form-field';
import { errorMessages } from '@/lib/api-client';
import { useMoney } from '@/lib/use-money';
import { AmountField, BillingForm, DateField, today } from './billing-form';
import { amountCell, DataTable, cell, dayCell } from '@/components/ui/data-table';
import { useCalendarDay } from './billing-days';

/** A rate as its form holds it: the amount as typed, in the company's currency. */
interface RateForm {
  kind: RateKind;
  unitType: string;
  warehouseId: string;
  amount: string;
  from: string;
}

const newRate = (): RateForm => ({
  kind: 'storage',
  unitType: 'vault',
  warehouseId: '',
  amount: '',
  from: today(),
});

const formOf = (rate: RateDto, currency: string): RateForm => ({
  kind: rate.kind,
  unitType: rate.unit_type ?? 'vault',
  warehouseId: rate.warehouse_id === null ? '' : String(rate.warehouse_id),
  amount: minorToDecimal(rate.amount, currency),
  from: rate.effective_from,
});

/** The form's values as the API takes them, or the problem with the amount typed. */
function rateInput(form: RateForm, currency: string, accountId: number | null): RateInput | string {
  const minor = decimalToMinor(form.amount, currency);
  if (minor === null) return `Type the rate as an amount in ${currency}, e.g. 95.00.`;
  return {
    kind: form.kind,
    unit_type: form.kind === 'valuation' ? undefined : form.unitType,
    warehouse_id: form.kind === 'valuation' ? undefined : form.warehouseId || undefined,
    account_id: accountId ?? undefined,
    amount: minor,
    effective_from: form.from,
  };
}

/** The inputs of a rate, for adding one and for correcting one. */
function RateFields({
  form,
  onChange,
  currency,
}: {
  form: RateForm;
  onChange: (form: RateForm) => void;
  currency: string;
}) {
  const session = useSession();
  const warehouses = useWarehouses(session.data?.companyId);
  const set =
    <K extends keyof RateForm>(key: K) =>
    (value: RateForm[K]) =>
      onChange({ ...form, [key]: value });
  return (
    <>
      <FormField label="Rate">
        <SelectInput value={form.kind} onValue={set('kind')}>
          <LabelledOptions values={RATE_KINDS} labels={RATE_KIND_LABELS} />
        </SelectInput>
      </FormField>
      <FormField label="Unit type">
        <SelectInput value={form.unitType} disabled={form.kind === 'valuation'} onValue={set('unitType')}>
          <LabelledOptions values={UNIT_TYPES} labels={UNIT_TYPE_LABELS} />
        </SelectInput>
      </FormField>
      <FormField label="Warehouse">
        <SelectInput
          value={form.warehouseId}
          disabled={form.kind === 'valuation'}
          onValue={set('warehouseId')}
        >
          <option value="">Every warehouse</option>
          <NamedOptions items={warehouses.data ?? []} />
        </SelectInput>
      </FormField>
      <AmountField currency={currency} value={form.amount} onChange={set('amount')} />
      <DateField label="From" value={form.from} onChange={set('from')} />
    </>
  );
}

/** "Monthly storage, Vault, every warehouse, from Jan 1, 2026": a rate named in a question. */
function useRateName() {
  const day = useCalendarDay();
  return (r: RateDto) =>
    [
      RATE_KIND_LABELS[r.kind],
      r.unit_type ? UNIT_TYPE_LABELS[r.unit_type] : null,
      r.kind === 'valuation' ? null : (r.warehouse_name ?? 'every warehouse'),
      r.account_id ? `account #${r.account_id}` : null,
      `from ${day(r.effective_from)}`,
    ]
      .filter(Boolean)
      .join(', ');
}

/**
 * The company's rates (each from a date on) and its billing settings: currency, tax, SIT days, terms. A rate no issued
 * invoice used can be corrected or deleted; one that was used stays, and a new rate from a later day changes the price.
 */
export function RatesTab({ settings }: { settings: BillingSettingsDto }) {
  const day = useCalendarDay();
  const rates = useRates();
  const money = useMoney();
  const add = useAddRate();
  const [form, setForm] = useState(newRate);
  const [problem, setProblem] = useState<string[]>([]);
  const [editing, setEditing] = useState<RateDto | null>(null);
  const [deleting, setDeleting] = useState<RateDto | null>(null);
  const name = useRateName();

  function submit(event: FormEvent) {
    event.preventDefault();
    const input = rateInput(form, settings.currency, null);
    if (typeof input === 'string') return setProblem([input]);
    setProblem([]);
    add.mutate(input, {
      onSuccess: () => {
        toast.success('Rate saved');
        setForm((f) => ({ ...f, amount: '' }));
      },
    });
  }

  return (
    <div className="space-y-6">
      <BillingForm
        label="Add a rate"
        onSubmit={submit}
        submitLabel="Add rate"
        pending={add.isPending}
        messages={[...problem, ...(add.isError ? errorMessages(add.error) : [])]}
      >
        <RateFields form={form} onChange={setForm} currency={settings.currency} />
      </BillingForm>
      <QueryView
        query={rates}
        empty={
          <p className="text-sm text-slate-600">
            No rates yet: a unit without a rate is not billed, and the dry run says so.
          </p>
        }
      >
        {(list) => (
          <div className="space-y-2">
            <DataTable
              caption="Rates"
              head={['Rate', 'Unit type', 'Warehouse', 'Account', 'From', 'Amount', 'Actions']}
            >
              {list.map((r) => (
                <tr key={r.id}>
                  <td className={cell}>{RATE_KIND_LABELS[r.kind]}</td>
                  <td className={cell}>{r.unit_type ? UNIT_TYPE_LABELS[r.unit_type] : '-'}</td>
                  <td className={cell}>{r.warehouse_name ?? 'Every warehouse'}</td>
                  <td className={cell}>{r.account_id ? `#${r.account_id}` : '-'}</td>
                  <td className={dayCell}>{day(r.effective_from)}</td>
                  <td className={amountCell}>{money(r.amount, settings.currency)}</td>
                  <td className={cell}>
                    {r.invoiced ? (
                      <span className="text-slate-600">Used on invoices</span>
                    ) : (
                      <div className="flex flex-wrap gap-2">
                        <Button
                          variant="secondary"
                          onClick={() => setEditing(r)}
                          aria-label={`Edit rate: ${name(r)}`}
                        >
                          <Pencil className="h-4 w-4" aria-hidden /> Edit
                        </Button>
                        <Button
                          variant="secondary"
                          onClick={() => setDeleting(r)}
                          aria-label={`Delete rate: ${name(r)}`}
                        >
                          <Trash2 className="h-4 w-4" aria-hidden /> Delete
                        </Button>
                      </div>
                    )}
                  </td>
                </tr>
              ))}
            </DataTable>
            {list.some((r) => r.invoiced) && (
              <p className="text-sm text-slate-600">
                A rate used on issued invoices stays as it is, so those invoices keep their prices. To charge
                differently, add a new rate from a day after the last invoiced one.
              </p>
            )}
          </div>
        )}
      </QueryView>
      <EditRateDialog rate={editing} currency={settings.currency} onClose={() => setEditing(null)} />
      <DeleteRateDialog rate={deleting} currency={settings.currency} onClose={() => setDeleting(null)} />
      <SettingsForm settings={settings} />
    </div>
  );
}

/** The rate a dialog is about (none while it is closed), the company's currency, and how it closes. */
interface RateDialogProps {
  rate: RateDto | null;
  currency: string;
  onClose: () => void;
}

/** Corrects a rate no issued invoice used (a typo in its amount, day, unit type or warehouse). */
function EditRateDialog({ rate, currency, onClose }: RateDialogProps) {
  const edit = useEditRate();
  const [form, setForm] = useState<RateForm | null>(null);
  const [problem, setProblem] = useState<string[]>([]);
  const shown = form ?? (rate ? formOf(rate, currency) : null);
  const close = () => {
    if (edit.isPending) return;
    setForm(null);
    setProblem([]);
    edit.reset();
    onClose();
  };
  function submit(event: FormEvent) {
    event.preventDefault();
    if (!rate || !shown) return;
    const input = rateInput(shown, currency, rate.account_id);
    if (typeof input === 'string') return setProblem([input]);
    setProblem([]);
    edit.mutate(
      { id: rate.id, ...input },
      {
        onSuccess: () => {
          toast.success('Rate changed');
          close();
        },
      },
    );
  }
  return (
    <Dialog
      open={rate !== null}
      onOpenChange={(open) => !open && close()}
      title="Edit rate"
      description="Correct the rate: units are billed with the new values from its day on."
    >
      {shown && (
        <form onSubmit={submit} className="space-y-4" aria-label="Edit rate">
          <RateFields form={shown} onChange={setForm} currency={currency} />
          <ErrorList messages={[...problem, ...(edit.isError ? errorMessages(edit.error) : [])]} />
          <FormButtons submit="Save rate" pending={edit.isPending} onCancel={close} />
        </form>
      )}
    </Dialog>
  );
}

/** Asks before a rate no issued invoice used is deleted. */
function DeleteRateDialog({ rate, currency, onClose }: RateDialogProps) {
  const remove = useDeleteRate();
  const money = useMoney();
  const name = useRateName();
  const close = () => {
    if (remove.isPending) return;
    remove.reset();
    onClose();
  };
  return (
    <ConfirmDialog
      open={rate !== null}
      onOpenChange={(open) => !open && close()}
      title="Delete rate"
      message={
        rate
          ? `Delete this rate? ${name(rate)}: ${money(rate.amount, currency)}. Its days are then billed with the rate in force before it, or not at all where there is none.`
          : ''
      }
      confirmLabel="Delete rate"
      danger
      pending={remove.isPending}
      onConfirm={() =>
        rate &&
        remove.mutate(rate.id, {
          onSuccess: () => {
            toast.success('Rate deleted');
            close();
          },
        })
      }
    >
      <ErrorList messages={remove.isError ? errorMessages(remove.error) : []} />
    </ConfirmDialog>
  );
}

function SettingsForm({ settings }: { settings: BillingSettingsDto }) {
  const save = useSaveBillingSettings();
  const [form, setForm] = useState({
    currency: settings.currency,
    tax: String(settings.tax_basis_points / 100),
    sit: String(settings.sit_days_default),
    terms: String(settings.payment_terms_days),
    hold: String(settings.hold_after_days),
    auto: settings.auto_billing,
  });
  const set = (key: Exclude<keyof typeof form, 'auto'>) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [key]: e.target.value }));
  function submit(event: FormEvent) {
    event.preventDefault();
    save.mutate(
      {
        currency: form.currency,
        tax_basis_points: Math.round(Number(form.tax) * 100),
        sit_days_default: form.sit,
        payment_terms_days: form.terms,
        hold_after_days: form.hold,
        auto_billing: form.auto,
      },
      { onSuccess: () => toast.success('Billing settings saved') },
    );
  }
  return (
    <BillingForm
      label="Billing settings"
      onSubmit={submit}
      submitLabel="Save settings"
      pending={save.isPending}
      messages={save.isError ? errorMessages(save.error) : []}
      secondary
    >
      <h2 className="font-semibold text-slate-700 sm:col-span-3 lg:col-span-6">Billing settings</h2>
      <FormField label="Currency">
        <TextInput value={form.currency} onChange={set('currency')} maxLength={3} />
      </FormField>
      <FormField label="Tax (%)">
        <TextInput inputMode="decimal" value={form.tax} onChange={set('tax')} />
      </FormField>
      <FormField label="SIT days allowed">
        <TextInput inputMode="numeric" value={form.sit} onChange={set('sit')} />
      </FormField>
      <FormField label="Payment terms (days)">
        <TextInput inputMode="numeric" value={form.terms} onChange={set('terms')} />
      </FormField>
      <FormField label="Hold after (days overdue)">
        <TextInput inputMode="numeric" value={form.hold} onChange={set('hold')} />
      </FormField>
      <div className="sm:col-span-3 lg:col-span-6">
        <ToggleSwitch
          label="Bill automatically on the billing day"
          checked={form.auto}
          onCheckedChange={(auto) => setForm((f) => ({ ...f, auto }))}
          hint="Each night the month's invoices whose billing day has come are issued by themselves, once (the 1st for calendar months, the account's own day for every 30 days). Off: a Manager or the office runs billing."
        />
      </div>
    </BillingForm>
  );
}
