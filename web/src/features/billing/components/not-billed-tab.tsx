import { CircleCheck } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import type { NotBilledOrderDto } from '@domain/schemas/billing.schema';
import { useCreateAccountsInBulk, useNotBilled } from '@/api/billing';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorList, QueryFailed } from '@/components/ui/error-list';
import { Spinner } from '@/components/ui/spinner';
import { errorMessages } from '@/lib/api-client';
import { DataTable, cell, dayCell } from '@/components/ui/data-table';
import { AccountTermsDialog } from './account-terms-dialog';
import { useCalendarDay } from './billing-days';

/** Orders in storage without an account, so nothing is stored for free: one account each, or many at once. */
export function NotBilledTab() {
  const day = useCalendarDay();
  const orders = useNotBilled();
  const bulk = useCreateAccountsInBulk();
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  const [opening, setOpening] = useState<NotBilledOrderDto | null>(null);
  if (orders.isPending) return <Spinner />;
  if (orders.isError) return <QueryFailed query={orders} />;
  if (orders.data.length === 0)
    return (
      <EmptyState icon={CircleCheck} title="Every stored order is billed">
        Orders appear here when their units are received and no account holds them yet.
      </EmptyState>
    );
  const toggle = (id: number) =>
    setChosen((now) => {
      const next = new Set(now);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const createChosen = () =>
    bulk.mutate([...chosen], {
      onSuccess: ({ created }) => {
        toast.success(`${created} ${created === 1 ? 'account' : 'accounts'} created`);
        setChosen(new Set());
      },
    });
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-3">
        <Button onClick={createChosen} disabled={chosen.size === 0 || bulk.isPending}>
          Create {chosen.size || ''} Permanent {chosen.size === 1 ? 'account' : 'accounts'}
        </Button>
        <Button variant="secondary" onClick={() => setChosen(new Set(orders.data.map((o) => o.order_id)))}>
          Choose all {orders.data.length}
        </Button>
        <ErrorList messages={bulk.isError ? errorMessages(bulk.error) : []} />
      </div>
      <DataTable
        caption="Orders not billed"
        head={['Choose', 'Order', 'Customer', 'Units', 'Move-in', 'Account']}
      >
        {orders.data.map((o) => (
          <tr key={o.order_id}>
            <td className={cell}>
              <label className="flex min-h-11 min-w-11 cursor-pointer items-center justify-center">
                <input
                  type="checkbox"
                  className="h-5 w-5"
                  aria-label={`Choose order ${o.order_name}`}
                  checked={chosen.has(o.order_id)}
                  onChange={() => toggle(o.order_id)}
                />
              </label>
            </td>
            <td className={`${cell} font-medium`}>{o.order_name}</td>
            <td className={cell}>{o.customer_name}</td>
            <td className={cell}>{o.units}</td>
            <td className={dayCell}>{day(o.move_in)}</td>
            <td className={cell}>
              <Button variant="secondary" onClick={() => setOpening(o)}>
                Create account
              </Button>
            </td>
          </tr>
        ))}
      </DataTable>
      {opening && <AccountTermsDialog order={opening} onClose={() => setOpening(null)} />}
    </div>
  );
}
