import { FileDown, FileText, Wallet } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { AGING_BUCKETS, AGING_LABELS, INVOICE_STATUS_LABELS } from '@domain/billing/ledger';
import { decimalToMinor } from '@domain/billing/money';
import { PAYMENT_METHOD_LABELS, PAYMENT_METHODS, type PaymentMethod } from '@domain/schemas/billing.schema';
import {
  useAccountInvoices,
  useAging,
  useInvoices,
  usePayments,
  useRecordPayment,
  useStorageAccounts,
} from '@/api/billing';
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
import { openInvoicesOf, splitPayment } from './payment-invoices';

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

/**
 * Payments recorded by hand, each to the open invoices of its account chosen for it (all of them at first), split over
 * them oldest first.
 */
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
  // the open invoices the payment does not go to: a new invoice is chosen until it is unticked
  const [skipped, setSkipped] = useState<ReadonlySet<number>>(new Set());
  const invoices = useAccountInvoices(accountId ? Number(accountId) : null);
  const open = openInvoicesOf(invoices.data ?? []);
  const chosen = open.filter((i) => !skipped.has(i.id));
  const minor = decimalToMinor(amount, currency);
  const write = (value: number) => money(value, currency);
  const split = minor !== null && minor > 0 ? splitPayment(minor, chosen, write) : null;

  function chooseAccount(id: string) {
    setAccountId(id);
    setSkipped(new Set());
    setProblem([]);
  }
  function toggle(id: number) {
    setSkipped((left) => {
      const next = new Set(left);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  }
  function submit(event: FormEvent) {
    event.preventDefault();
    if (!accountId) return setProblem(['Choose the account that paid.']);
    if (minor === null || minor <= 0 || !split)
      return setProblem([`Type the amount in ${currency}, e.g. 120.00.`]);
    if (split.problem !== undefined) return setProblem([split.problem]);
    setProblem([]);
    record.mutate(
      {
        account_id: accountId,
        amount: minor,
        paid_on: paidOn,
        method,
        reference,
        allocations: split.allocations,
      },
      {
        onSuccess: (p) => {
          const numbers = p.allocations.map((a) => a.number).join(', ');
          toast.success(
            `Payment of ${write(p.amount)} recorded on ${p.allocations.length === 1 ? 'invoice' : 'invoices'} ${numbers}`,
          );
          setAmount('');
          setReference('');
        },
      },
    );
  }
  const parts = new Map((split?.allocations ?? []).map((a) => [a.invoice_id, a.amount]));
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
          <SelectInput value={accountId} onValue={chooseAccount}>
            <option value="">Choose…</option>
            {(accounts.data ?? []).map((a) => (
              <option key={a.id} value={a.id}>
                {a.customer_name} ({write(a.balance)})
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
        {accountId && (
          <fieldset className="space-y-2 sm:col-span-3 lg:col-span-6">
            <legend className="mb-2 text-sm font-semibold text-slate-700">Invoices it pays</legend>
            {invoices.isPending ? (
              <Spinner />
            ) : invoices.isError ? (
              <QueryFailed query={invoices} />
            ) : open.length === 0 ? (
              <p className="text-sm text-slate-600">This account has no open invoices: nothing is owed.</p>
            ) : (
              <>
                <DataTable
                  caption="Open invoices of the account"
                  head={['Pay', 'Invoice', 'Issued', 'Due', 'Open', 'This payment']}
                >
                  {open.map((i) => (
                    <tr key={i.id}>
                      <td className={cell}>
                        <label className="flex min-h-11 min-w-11 cursor-pointer items-center justify-center">
                          <input
                            type="checkbox"
                            className="h-5 w-5"
                            aria-label={`Pay invoice ${i.number}`}
                            checked={!skipped.has(i.id)}
                            onChange={() => toggle(i.id)}
                          />
                        </label>
                      </td>
                      <td className={`${cell} font-medium`}>{i.number}</td>
                      <td className={dayCell}>{day(i.issue_date)}</td>
                      <td className={dayCell}>{day(i.due_date)}</td>
                      <td className={amountCell}>{write(i.open)}</td>
                      <td className={amountCell}>{parts.has(i.id) ? write(parts.get(i.id)!) : '-'}</td>
                    </tr>
                  ))}
                </DataTable>
                <p className="text-sm text-slate-600" aria-live="polite">
                  {chosen.length} of {open.length} open {open.length === 1 ? 'invoice' : 'invoices'} chosen,{' '}
                  {write(chosen.reduce((sum, i) => sum + i.open, 0))} open on them. The payment goes to the
                  oldest first.
                </p>
              </>
            )}
          </fieldset>
        )}
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
