import { Archive, FileDown, Lock, LockOpen, Pencil } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import type { AccountSummaryDto } from '@domain/schemas/billing.schema';
import { useSetHold, useStorageAccounts } from '@/api/billing';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { QueryFailed } from '@/components/ui/error-list';
import { Spinner } from '@/components/ui/spinner';
import { errorMessages } from '@/lib/api-client';
import { useMoney } from '@/lib/use-money';
import { useDownload } from '@/lib/use-download';
import { amountCell, DataTable, cell, dayCell } from '@/components/ui/data-table';
import { AccountTermsDialog } from './account-terms-dialog';
import { sitEnds, useCalendarDay } from './billing-days';
import { HoldPill } from '@/components/billing/hold-badge';

/**
 * Every storage account: its customer and orders, kind, move-in and move-out, SIT conversion and balance; an overdue
 * account is put on hold here, and the hold lifted (decision 039). The Hold button shows where the server says the
 * account is overdue enough (`may_hold`); the server still decides when it is pressed. Edit terms opens the account's
 * terms in the form that creates accounts; every member who sees this tab may change them (both need the Office role).
 */
export function AccountsTab({ currency }: { currency: string }) {
  const day = useCalendarDay();
  const accounts = useStorageAccounts();
  const setHold = useSetHold();
  const [asked, setAsked] = useState<AccountSummaryDto | null>(null);
  const [editing, setEditing] = useState<AccountSummaryDto | null>(null);
  const money = useMoney();
  if (accounts.isPending) return <Spinner />;
  if (accounts.isError) return <QueryFailed query={accounts} />;
  if (accounts.data.length === 0)
    return (
      <EmptyState icon={Archive} title="No storage accounts yet">
        Open "Not billed" to create accounts for the orders in storage.
      </EmptyState>
    );

  function confirm() {
    if (!asked) return;
    const onHold = !asked.on_hold;
    setHold.mutate(
      { accountId: asked.id, onHold },
      {
        onSuccess: () =>
          toast.success(
            onHold
              ? `${asked.customer_name} is on hold: its units need a Manager's override to leave.`
              : `Hold lifted for ${asked.customer_name}.`,
          ),
        onError: (error) => toast.error(errorMessages(error).join(' ')),
        onSettled: () => setAsked(null),
      },
    );
  }

  return (
    <>
      <DataTable
        caption="Storage accounts"
        head={[
          'Customer',
          'Orders',
          'Kind',
          'Move-in',
          'Move-out',
          'SIT ends',
          'Units',
          'Balance',
          'Terms',
          'Hold',
          'Papers',
        ]}
        stickyFirst
      >
        {accounts.data.map((a) => (
          <tr key={a.id} data-testid="account-row">
            <td className={`${cell} font-medium`}>
              <span className="inline-flex flex-wrap items-center gap-2">
                {a.customer_name}
                {a.on_hold && <HoldPill />}
              </span>
              {a.bill_to_name !== a.customer_name && (
                <span className="block text-xs font-normal text-slate-600">Bill to {a.bill_to_name}</span>
              )}
            </td>
            <td className={dayCell}>{a.orders.join(', ')}</td>
            <td className={cell}>{a.kind === 'sit' ? 'SIT' : 'Permanent'}</td>
            <td className={dayCell}>{day(a.move_in)}</td>
            <td className={dayCell}>{day(a.move_out)}</td>
            <td className={dayCell}>{day(sitEnds(a.conversion_date))}</td>
            <td className={cell}>{a.units}</td>
            <td className={amountCell}>
              {money(a.balance, currency)}
              {a.days_overdue > 0 && (
                <span className="block text-xs font-semibold text-red-700">
                  {a.days_overdue === 1 ? '1 day' : `${a.days_overdue} days`} overdue
                </span>
              )}
            </td>
            <td className={cell}>
              <Button
                variant="secondary"
                className="whitespace-nowrap"
                onClick={() => setEditing(a)}
                aria-label={`Edit terms: ${a.customer_name}`}
              >
                <Pencil className="h-4 w-4" aria-hidden /> Edit terms
              </Button>
            </td>
            <td className={cell}>
              {/* only where the server would take the hold (overdue long enough) or lift it; quiet, the question before
                  it is the warning */}
              {(a.on_hold || a.may_hold) && (
                <Button
                  variant="secondary"
                  className="whitespace-nowrap"
                  disabled={setHold.isPending}
                  onClick={() => setAsked(a)}
                  aria-label={`${a.on_hold ? 'Lift hold' : 'Hold'}: ${a.customer_name}`}
                >
                  {a.on_hold ? (
                    <LockOpen className="h-4 w-4" aria-hidden />
                  ) : (
                    <Lock className="h-4 w-4" aria-hidden />
                  )}
                  {a.on_hold ? 'Lift hold' : 'Hold'}
                </Button>
              )}
            </td>
            <td className={cell}>
              <AccountPapers account={a} />
            </td>
          </tr>
        ))}
      </DataTable>
      {editing && <AccountTermsDialog account={editing} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        open={asked !== null}
        onOpenChange={(open) => {
          if (!open && !setHold.isPending) setAsked(null);
        }}
        title={asked?.on_hold ? 'Lift the hold' : 'Put on hold'}
        message={
          asked?.on_hold
            ? `Lift the hold of ${asked.customer_name}? Its units can be pulled and released again without an override.`
            : `Put ${asked?.customer_name ?? ''} on hold? Its units show a hold badge everywhere, and pulling or releasing them needs a Manager's override with a reason.`
        }
        confirmLabel={asked?.on_hold ? 'Lift hold' : 'Put on hold'}
        onConfirm={confirm}
        pending={setHold.isPending}
        danger={!asked?.on_hold}
      />
    </>
  );
}

/** An account's statement, and a SIT account's notice to the customer, as PDFs. */
function AccountPapers({ account }: { account: AccountSummaryDto }) {
  const { busy, download } = useDownload();
  const papers = `/api/storage-accounts/${account.id}`;
  const slug = account.customer_name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return (
    <div className="flex flex-wrap gap-2">
      <Button
        variant="secondary"
        className="whitespace-nowrap"
        disabled={busy}
        onClick={() => void download(`${papers}/statement.pdf`, `statement-${slug}.pdf`)}
        aria-label={`Statement of ${account.customer_name}`}
      >
        <FileDown className="h-4 w-4" aria-hidden /> Statement
      </Button>
      {account.kind === 'sit' && (
        <Button
          variant="secondary"
          className="whitespace-nowrap"
          disabled={busy}
          onClick={() => void download(`${papers}/sit-notice.pdf`, `sit-notice-${slug}.pdf`)}
          aria-label={`SIT notice of ${account.customer_name}`}
        >
          <FileDown className="h-4 w-4" aria-hidden /> SIT notice
        </Button>
      )}
    </div>
  );
}
