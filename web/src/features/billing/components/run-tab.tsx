import { ReceiptText } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { useBillingRun, useDryRun } from '@/api/billing';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorList } from '@/components/ui/error-list';
import { FormField, TextInput } from '@/components/ui/form-field';
import { errorMessages } from '@/lib/api-client';
import { useFormat } from '@/lib/format';
import { useMoney } from '@/lib/use-money';
import { amountCell, DataTable, cell } from '@/components/ui/data-table';
import { usePeriodText } from './billing-days';

const thisMonth = () => new Date().toISOString().slice(0, 7);

/** The billing run: a dry run shows every invoice line first; issuing then numbers the invoices. */
export function RunTab() {
  const periodText = usePeriodText();
  const format = useFormat();
  const [period, setPeriod] = useState(thisMonth());
  const dry = useDryRun();
  const run = useBillingRun();
  const money = useMoney();
  const [confirming, setConfirming] = useState(false);
  // the answer shown is the last one asked for (each clears the other): a dry run after issuing shows the month as it
  // stands now
  const latest = run.data ?? dry.data;
  const preview = latest?.period === period ? latest : undefined;
  const toIssue = preview?.dry_run
    ? preview.invoices.filter((i) => !i.already_issued && i.problems.length === 0)
    : [];

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
        <FormField label="Month to bill">
          <TextInput type="month" value={period} onValue={setPeriod} />
        </FormField>
        <Button
          variant="secondary"
          disabled={dry.isPending}
          onClick={() => {
            run.reset();
            dry.mutate(period);
          }}
        >
          Dry run
        </Button>
        <Button
          disabled={!preview || !preview.dry_run || toIssue.length === 0}
          onClick={() => setConfirming(true)}
        >
          {toIssue.length > 0 ? `Issue ${format.count(toIssue.length, 'invoice')}` : 'Issue invoices'}
        </Button>
        <div className="w-full">
          <ErrorList
            messages={[
              ...(dry.isError ? errorMessages(dry.error) : []),
              ...(run.isError ? errorMessages(run.error) : []),
            ]}
          />
        </div>
      </div>
      {!preview ? (
        <EmptyState icon={ReceiptText} title="Start with a dry run">
          A dry run shows every invoice line of the month before anything is issued.
        </EmptyState>
      ) : (
        <>
          <p className="text-sm text-slate-700" role="status">
            {preview.dry_run
              ? `Dry run of ${format.month(preview.period)}: ${format.count(toIssue.length, 'invoice')} to issue, ${money(preview.total, preview.currency)} in all.`
              : `Issued ${format.count(preview.issued.length, 'invoice')} for ${format.month(preview.period)}, ${money(preview.total, preview.currency)} in all.`}
          </p>
          {preview.invoices.length === 0 && (
            <p className="text-sm text-slate-600">
              No account has anything stored in {format.month(preview.period)}.
            </p>
          )}
          {preview.invoices.map((inv) => (
            <section
              key={`${inv.account_id}-${inv.period_start}`}
              className="space-y-2"
              aria-label={`Invoice for ${inv.customer_name}`}
            >
              <h3 className="font-semibold text-slate-800">
                {inv.bill_to_name}{' '}
                <span className="font-normal text-slate-500">
                  {periodText(inv.period_start, inv.period_end)}
                </span>
                {inv.already_issued && (
                  <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs">Already issued</span>
                )}
              </h3>
              <ErrorList messages={inv.problems} />
              <DataTable caption={`Lines for ${inv.customer_name}`} head={['Line', 'Amount', 'Tax']} narrow>
                {inv.lines.map((l, i) => (
                  <tr key={i}>
                    <td className={cell}>{l.description}</td>
                    <td className={amountCell}>{money(l.amount, preview.currency)}</td>
                    <td className={amountCell}>{money(l.tax, preview.currency)}</td>
                  </tr>
                ))}
                {inv.agency_lines.map((l, i) => (
                  <tr key={`a${i}`} className="text-slate-500">
                    <td className={cell}>Agency: {l.description}</td>
                    <td className={amountCell}>{money(l.amount, preview.currency)}</td>
                    <td className={amountCell}>{money(l.tax, preview.currency)}</td>
                  </tr>
                ))}
                <tr className="font-semibold">
                  <td className={cell}>Total</td>
                  <td className={amountCell} colSpan={2}>
                    {money(inv.total, preview.currency)}
                  </td>
                </tr>
              </DataTable>
            </section>
          ))}
        </>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Issue the invoices of ${format.month(period)}?`}
        message="Issued invoices get their numbers and never change; corrections are credit notes."
        confirmLabel="Issue invoices"
        pending={run.isPending}
        onConfirm={() =>
          run.mutate(period, {
            onSuccess: (answer) => {
              setConfirming(false);
              dry.reset();
              toast.success(`${format.count(answer.issued.length, 'invoice')} issued`);
            },
            onError: () => setConfirming(false),
          })
        }
      />
    </div>
  );
}
