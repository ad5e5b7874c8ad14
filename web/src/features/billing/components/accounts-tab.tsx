import { Archive } from 'lucide-react';
import { useStorageAccounts } from '../../../api/billing';
import { EmptyState } from '../../../components/ui/empty-state';
import { QueryFailed } from '../../../components/ui/error-list';
import { Spinner } from '../../../components/ui/spinner';
import { useMoney } from '../use-money';
import { amountCell, BillingTable, cell } from './billing-table';

/** Every storage account: its customer and orders, kind, move-in and move-out, SIT conversion and balance. */
export function AccountsTab({ currency }: { currency: string }) {
  const accounts = useStorageAccounts();
  const money = useMoney();
  if (accounts.isPending) return <Spinner />;
  if (accounts.isError) return <QueryFailed query={accounts} />;
  if (accounts.data.length === 0)
    return (
      <EmptyState icon={Archive} title="No storage accounts yet">
        Open "Not billed" to create accounts for the orders in storage.
      </EmptyState>
    );
  return (
    <BillingTable
      caption="Storage accounts"
      head={['Customer', 'Orders', 'Kind', 'Move-in', 'Move-out', 'SIT ends', 'Units', 'Balance']}
    >
      {accounts.data.map((a) => (
        <tr key={a.id}>
          <td className={`${cell} font-medium`}>
            {a.customer_name}
            {a.on_hold && (
              <span className="ml-2 rounded bg-red-100 px-1.5 py-0.5 text-xs text-red-800">On hold</span>
            )}
          </td>
          <td className={cell}>{a.orders.join(', ')}</td>
          <td className={cell}>{a.kind === 'sit' ? 'SIT' : 'Permanent'}</td>
          <td className={cell}>{a.move_in ?? '-'}</td>
          <td className={cell}>{a.move_out ?? '-'}</td>
          <td className={cell}>{a.conversion_date ?? '-'}</td>
          <td className={cell}>{a.units}</td>
          <td className={amountCell}>{money(a.balance, currency)}</td>
        </tr>
      ))}
    </BillingTable>
  );
}
