import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { decimalToMinor } from '@domain/billing/money';
import {
  RATE_KIND_LABELS,
  RATE_KINDS,
  type RateKind,
  UNIT_TYPE_LABELS,
  UNIT_TYPES,
} from '@domain/billing/rates';
import type { BillingSettingsDto } from '@domain/schemas/billing.schema';
import { ToggleSwitch } from '@/components/ui/toggle-switch';
import { LabelledOptions, NamedOptions } from '@/components/ui/named-options';
import { useAddRate, useRates, useSaveBillingSettings } from '@/api/billing';
import { useSession } from '@/api/session';
import { useWarehouses } from '@/api/warehouses';
import { QueryView } from '@/components/ui/query-view';
import { FormField, SelectInput, TextInput } from '@/components/ui/form-field';
import { errorMessages } from '@/lib/api-client';
import { useMoney } from '@/lib/use-money';
import { AmountField, BillingForm, DateField, today } from './billing-form';
import { amountCell, DataTable, cell, dayCell } from '@/components/ui/data-table';
import { useCalendarDay } from './billing-days';

/** The company's rates (each from a date on) and its billing settings: currency, tax, SIT days, terms. */
export function RatesTab({ settings }: { settings: BillingSettingsDto }) {
  const day = useCalendarDay();
  const rates = useRates();
  const money = useMoney();
  const add = useAddRate();
  const session = useSession();
  const warehouses = useWarehouses(session.data?.companyId);
  const [kind, setKind] = useState<RateKind>('storage');
  const [unitType, setUnitType] = useState<string>('vault');
  const [warehouseId, setWarehouseId] = useState('');
  const [amount, setAmount] = useState('');
  const [from, setFrom] = useState(today());
  const [problem, setProblem] = useState<string[]>([]);

  function submit(event: FormEvent) {
    event.preventDefault();
    const minor = decimalToMinor(amount, settings.currency);
    if (minor === null)
      return setProblem([`Type the rate as an amount in ${settings.currency}, e.g. 95.00.`]);
    setProblem([]);
    add.mutate(
      {
        kind,
        unit_type: kind === 'valuation' ? undefined : unitType,
        warehouse_id: warehouseId || undefined,
        amount: minor,
        effective_from: from,
      },
      {
        onSuccess: () => {
          toast.success('Rate saved');
          setAmount('');
        },
      },
    );
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
        <FormField label="Rate">
          <SelectInput value={kind} onValue={setKind}>
            <LabelledOptions values={RATE_KINDS} labels={RATE_KIND_LABELS} />
          </SelectInput>
        </FormField>
        <FormField label="Unit type">
          <SelectInput value={unitType} disabled={kind === 'valuation'} onValue={setUnitType}>
            <LabelledOptions values={UNIT_TYPES} labels={UNIT_TYPE_LABELS} />
          </SelectInput>
        </FormField>
        <FormField label="Warehouse">
          <SelectInput value={warehouseId} disabled={kind === 'valuation'} onValue={setWarehouseId}>
            <option value="">Every warehouse</option>
            <NamedOptions items={warehouses.data ?? []} />
          </SelectInput>
        </FormField>
        <AmountField currency={settings.currency} value={amount} onChange={setAmount} />
        <DateField label="From" value={from} onChange={setFrom} />
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
          <DataTable caption="Rates" head={['Rate', 'Unit type', 'Warehouse', 'Account', 'From', 'Amount']}>
            {list.map((r) => (
              <tr key={r.id}>
                <td className={cell}>{RATE_KIND_LABELS[r.kind]}</td>
                <td className={cell}>{r.unit_type ? UNIT_TYPE_LABELS[r.unit_type] : '-'}</td>
                <td className={cell}>{r.warehouse_name ?? 'Every warehouse'}</td>
                <td className={cell}>{r.account_id ? `#${r.account_id}` : '-'}</td>
                <td className={dayCell}>{day(r.effective_from)}</td>
                <td className={amountCell}>{money(r.amount, settings.currency)}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </QueryView>
      <SettingsForm settings={settings} />
    </div>
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
