import { FileDown, FileText, Wallet } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { AGING_BUCKETS, AGING_LABELS, INVOICE_STATUS_LABELS } from '@domain/billing/ledger';
import { decimalToMinor } from '@domain/billing/money';
import { PAYMENT_METHOD_LABELS, PAYMENT_METHODS, type PaymentMethod } from '@domain/schemas/billing.schema';
import { useAging, useInvoices, usePayments, useRecordPayment, useStorageAccounts } from '@/api/billing';
import { EmptyState } from '@/components/ui/empty-state';
import { LabelledOptions } from '@/components/ui/named-options';
import { QueryFailed } from '@/components/ui/error-list';
import { QueryView } from '@/components/ui/query-view';
import { FormField, SelectInput, TextInput } from '@/components/ui/form-field';
import { Spinner } from '@/components/ui/spinner';
import { errorMessages } from '@/lib/api-client';
import { useDownload } from '@/lib/use-download';
import { Button } from '@/components/ui/button';
import { InvoiceActionDialog, InvoiceActions, type InvoiceAction } from './invoice-actions';
import { useMoney } from '@/lib/use-money';
import { AmountField, BillingForm, DateField, today } from './billing-form';
import { amountCell, DataTable, cell, dayCell } from '@/components/ui/data-table';
import { useCalendarDay, usePeriodText } from './billing-days';

/** Issued invoices and credit notes, newest first. */
export function InvoicesTab() {
  const day = useCalendarDay();
  const period = usePeriodText();
  const invoices = useInvoices();
  const money = useMoney();
  const [asked, setAsked] = useState<InvoiceAction>(null);
  if (invoices.isPending) return <Spinner />;
  if (invoices.isError) return <QueryFailed query={invoices} />;
  if (invoices.data.length === 0)
    return (
      <EmptyState icon={FileText} title="No invoices yet">
        A billing run issues them.
      </EmptyState>
    );
  return (
    <>
      <ExportLinks />
      <DataTable
        caption="Invoices"
        head={['Number', 'Customer', 'Period', 'Issued', 'Due', 'Status', 'Total', 'Open', 'Actions']}
      >
        {invoices.data.map((i) => (
          <tr key={i.id}>
            <td className={`${cell} font-medium`}>{i.kind === 'credit' ? `Credit ${i.number}` : i.number}</td>
            <td className={cell}>{i.customer_name}</td>
            <td className={dayCell}>{period(i.period_start, i.period_end)}</td>
            <td className={dayCell}>{day(i.issue_date)}</td>
            <td className={dayCell}>{day(i.due_date)}</td>
            <td className={cell}>{INVOICE_STATUS_LABELS[i.status]}</td>
            <td className={amountCell}>{money(i.total, i.currency)}</td>
            <td className={amountCell}>{money(i.open, i.currency)}</td>
            <td className={cell}>
              <InvoiceActions invoice={i} onAsk={setAsked} />
            </td>
          </tr>
        ))}
      </DataTable>
      <InvoiceActionDialog asked={asked} onClose={() => setAsked(null)} />
    </>
  );
}

const EXPORT_FILES = [
  ['invoices', 'Invoices'],
  ['payments', 'Payments'],
  ['journal', 'Journal'],
] as const;

/** The accountant's files: invoices, payments and the journal, as CSV or XLSX. */
function ExportLinks() {
  const { busy, download } = useDownload();
  return (
    <div
      className="mb-3 flex flex-wrap items-center gap-2 text-sm"
      role="group"
      aria-label="Files for the accountant"
    >
      <span className="text-slate-600">For the accountant:</span>
      {EXPORT_FILES.map(([file, label]) =>
        (['csv', 'xlsx'] as const).map((ending) => (
          <Button
            key={`${file}.${ending}`}
            variant="secondary"
            disabled={busy}
            onClick={() => void download(`/api/billing/export/${file}.${ending}`, `${file}.${ending}`)}
          >
            <FileDown className="h-4 w-4" aria-hidden /> {label} {ending.toUpperCase()}
          </Button>
        )),
      )}
    </div>
  );
}

/** Payments recorded by hand, allocated to the oldest open invoices of the account. */
export function PaymentsTab({ currency }: { currency: string }) {
  const day = useCalendarDay();
  const payments = usePayments();
  const accounts = useStorageAccounts();
  const record = useRecordPayment();
  const money = useMoney();
  const [accountId, setAccountId] = useState('');
  const [amount, setAmount] = useState('');
  const [paidOn, setPaidOn] = useState(today());
  const [method, setMethod] = useState<PaymentMethod>('check');
  const [reference, setReference] = useState('');
  const [problem, setProblem] = useState<string[]>([]);
  function submit(event: FormEvent) {
    event.preventDefault();
    const minor = decimalToMinor(amount, currency);
    if (!accountId) return setProblem(['Choose the account that paid.']);
    if (minor === null || minor <= 0) return setProblem([`Type the amount in ${currency}, e.g. 120.00.`]);
    setProblem([]);
    record.mutate(
      { account_id: accountId, amount: minor, paid_on: paidOn, method, reference },
      {
        onSuccess: (p) => {
          toast.success(`Payment of ${money(p.amount, currency)} recorded`);
          setAmount('');
          setReference('');
        },
      },
    );
  }
  return (
    <div className="space-y-6">
      <BillingForm
        label="Record a payment"
        onSubmit={submit}
        submitLabel="Record payment"
        pending={record.isPending}
        messages={[...problem, ...(record.isError ? errorMessages(record.error) : [])]}
      >
        <FormField label="Account">
          <SelectInput value={accountId} onValue={setAccountId}>
            <option value="">Choose…</option>
            {(accounts.data ?? []).map((a) => (
              <option key={a.id} value={a.id}>
                {a.customer_name} ({money(a.balance, currency)})
              </option>
            ))}
          </SelectInput>
        </FormField>
        <AmountField currency={currency} value={amount} onChange={setAmount} />
        <DateField label="Date" value={paidOn} onChange={setPaidOn} />
        <FormField label="Method">
          <SelectInput value={method} onValue={setMethod}>
            <LabelledOptions values={PAYMENT_METHODS} labels={PAYMENT_METHOD_LABELS} />
          </SelectInput>
        </FormField>
        <FormField label="Reference">
          <TextInput value={reference} onValue={setReference} />
        </FormField>
      </BillingForm>
      <QueryView query={payments} empty={<EmptyState icon={Wallet} title="No payments yet" />}>
        {(list) => (
          <DataTable
            caption="Payments"
            head={['Date', 'Customer', 'Method', 'Reference', 'Invoices', 'Amount']}
          >
            {list.map((p) => (
              <tr key={p.id}>
                <td className={dayCell}>{day(p.paid_on)}</td>
                <td className={cell}>{p.customer_name}</td>
                <td className={`${cell} capitalize`}>{p.method}</td>
                <td className={cell}>{p.reference ?? '-'}</td>
                <td className={cell}>{p.allocations.map((a) => a.number).join(', ')}</td>
                <td className={amountCell}>{money(p.amount, currency)}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </QueryView>
    </div>
  );
}

/** What each account owes by days past due. */
export function AgingTab() {
  const aging = useAging();
  const money = useMoney();
  const day = useCalendarDay();
  if (aging.isPending) return <Spinner />;
  if (aging.isError) return <QueryFailed query={aging} />;
  const { currency } = aging.data;
  return (
    <div className="space-y-2">
      <p className="text-sm text-slate-600">
        Open amounts as of {day(aging.data.as_of)}, by days past the due date.
      </p>
      <DataTable
        caption="Aging report"
        head={['Account', ...AGING_BUCKETS.map((b) => AGING_LABELS[b]), 'Total']}
        stickyFirst
      >
        {aging.data.rows.map((r) => (
          <tr key={r.account_id}>
            <td className={cell}>{r.customer_name}</td>
            {AGING_BUCKETS.map((b) => (
              <td key={b} className={amountCell}>
                {money(r.buckets[b], currency)}
              </td>
            ))}
            <td className={amountCell}>{money(r.total, currency)}</td>
          </tr>
        ))}
        <tr className="font-semibold">
          <td className={cell}>All accounts</td>
          {AGING_BUCKETS.map((b) => (
            <td key={b} className={amountCell}>
              {money(aging.data.totals[b], currency)}
            </td>
          ))}
          <td className={amountCell}>{money(aging.data.total, currency)}</td>
        </tr>
      </DataTable>
    </div>
  );
}
